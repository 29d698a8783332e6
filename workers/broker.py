"""The default broker: kombu's SQLAlchemy transport on Kotlík's own PostgreSQL, polled briskly.

kombu polls a database queue once a second by default, which makes every bot move wait up to a
second; a tenth of a second keeps bots prompt at the cost of a few cheap queries. Registered as
the transport alias ``kotlik-sqla``.

kombu creates its tables (and their sequences) lazily, in whichever process touches the broker
first. On a fresh database the web process, a worker and its beat all do so at once, and all but
one fail with a duplicate key in PostgreSQL's catalog, which kills the worker. So the tables are
created under an advisory lock, and ``kotlik up``/``worker``/``migrate`` :func:`prepare` them
before any of those processes starts.
"""

from __future__ import annotations

from typing import Any

from kombu import Connection
from kombu.transport import TRANSPORT_ALIASES, sqlalchemy
from kombu.transport.sqlalchemy.models import metadata
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import NullPool

ALIAS = "kotlik-sqla"

#: Advisory lock key (``pg_advisory_xact_lock``) held while kombu's tables are created.
TABLES_LOCK = 0x6B6F746C696B01  # "kotlik" + 1


def create_tables(engine: Engine) -> None:
    """kombu's tables, created by at most one process at a time; a no-op once they exist."""
    if engine.dialect.name != "postgresql":
        metadata.create_all(engine)
        return
    with engine.begin() as conn:
        # CREATE TABLE/SEQUENCE has no IF NOT EXISTS in SQLAlchemy's create_all, which checks
        # first: two checks that both see nothing both create, and one fails. The lock makes the
        # second wait and then see the first one's committed tables.
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": TABLES_LOCK})
        metadata.create_all(conn)


class Channel(sqlalchemy.Channel):
    def _engine_from_config(self) -> Engine:
        # kombu calls metadata.create_all on this engine right after; with the tables already
        # made here under the lock, its call finds them all and creates nothing.
        engine: Engine = super()._engine_from_config()
        create_tables(engine)
        return engine

    def _get_or_create(self, queue: str) -> Any:
        try:
            return super()._get_or_create(queue)
        except IntegrityError:
            # Another process inserted the same queue between kombu's look-up and its insert
            # (kombu only forgives OperationalError); the row is there now.
            self.session.rollback()
            return super()._get_or_create(queue)


class Transport(sqlalchemy.Transport):
    Channel = Channel
    polling_interval = 0.1


TRANSPORT_ALIASES[ALIAS] = f"{__name__}:Transport"


def is_default(url: str) -> bool:
    """Whether ``url`` names this transport (the database itself) rather than Redis or RabbitMQ."""
    return url.startswith(f"{ALIAS}+")


def prepare(url: str, queue: str) -> None:
    """Create the tables and declare ``queue`` now, before workers and web processes race to.

    Only the default broker needs it: Redis and RabbitMQ create what they need atomically.
    """
    if not is_default(url):
        return
    with Connection(url) as conn:
        conn.default_channel.queue_declare(queue=queue)


def check(url: str, timeout: float = 2.0) -> None:
    """Raise unless the broker answers within about ``timeout`` seconds (for ``/ready``)."""
    if is_default(url):
        _check_database(url.removeprefix(f"{ALIAS}+"), timeout)
        return
    options = {"socket_connect_timeout": timeout, "socket_timeout": timeout}  # Redis's names
    with Connection(url, connect_timeout=timeout, transport_options=options) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=timeout)


def _check_database(database: str, timeout: float) -> None:
    # A throwaway engine rather than kombu's cached one, so the probe's timeouts are its own.
    # Missing tables are no fault: the transport creates them when it is first used.
    engine = create_engine(
        database,
        poolclass=NullPool,
        connect_args={
            "connect_timeout": max(1, round(timeout)),
            "options": f"-c statement_timeout={int(timeout * 1000)}",
        },
    )
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    finally:
        engine.dispose()
