"""The default broker: kombu's SQLAlchemy transport on Kotlík's own PostgreSQL, polled briskly.

kombu polls a database queue once a second by default, which makes every bot move wait up to a
second; a tenth of a second keeps bots prompt at the cost of a few cheap queries. Registered as
the transport alias ``kotlik-sqla``.
"""

from __future__ import annotations

from kombu.transport import TRANSPORT_ALIASES, sqlalchemy

ALIAS = "kotlik-sqla"


class Transport(sqlalchemy.Transport):
    polling_interval = 0.1


TRANSPORT_ALIASES[ALIAS] = f"{__name__}:Transport"
