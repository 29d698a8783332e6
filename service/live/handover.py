"""The work a request has committed goes to the broker once its answer is sent.

A command that queues a bot's turn, the scoring or a webhook notice commits those outbox rows
with its events, so its answer need not wait for the broker. Handing them over before answering
took two more round trips (the publish, then marking the rows sent), longer than the command's
own write (figures: docs/performance.md, "Answers that wait for less"), and a broker that is down
held the answer for its retries. Sent once the answer is out, a move against a bot is answered
after its write alone. Should the process die in between, the outbox sweep sends the rows, as it
does whenever the broker refuses them.

The WSGI server calls a body's ``close`` after its last byte is written (PEP 3333): that is the
moment used here, by :class:`Then` beneath Flask and by :func:`after_answer` in a view.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial

from flask import Response, after_this_request
from psycopg_pool import ConnectionPool

from events.outbox import Queued
from service.context import pool as app_pool
from workers.relay import publish as publish_committed

log = logging.getLogger(__name__)


def publish(pool: ConnectionPool, queued: Sequence[Queued]) -> None:
    """Hand ``queued`` to the broker; what cannot be sent now stays for the sweep."""
    try:
        with pool.connection() as conn:
            publish_committed(conn, queued)
    except Exception:  # the answer is out; the sweep sends what is left
        log.warning("handing committed work to the broker failed; the sweep will send it", exc_info=True)


def after_answer(queued: Sequence[Queued]) -> None:
    """Hand ``queued`` to the broker once the current request's answer has been sent."""
    if not queued:
        return
    later = partial(publish, app_pool(), list(queued))

    @after_this_request
    def _when_closed(response: Response) -> Response:
        response.call_on_close(later)
        return response


class Then:
    """A WSGI body that runs ``later`` when the server closes it, after the body has been sent."""

    def __init__(self, body: Iterable[bytes], later: Callable[[], None]) -> None:
        self.body = body
        self.later = later

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.body)

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.later()
