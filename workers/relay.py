"""Handing the outbox to the broker: right after a commit, and from the periodic sweep."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from psycopg import Connection

from events import outbox
from workers.app import app

log = logging.getLogger(__name__)

#: Give up quickly when the broker is down: the row stays in the outbox for the sweep.
_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}


def send(task: str, args: list[Any]) -> None:
    app.send_task(task, args=args, retry=True, retry_policy=_RETRY)


def deliver(conn: Connection[Any], queued: Sequence[outbox.Queued]) -> None:
    """Send what the caller has just committed; a broker outage leaves it to the sweep."""
    if not queued:
        return
    try:
        sent = outbox.deliver(conn, queued, send)
    except Exception:  # the commit is done; the sweep sends what is left
        log.warning("handing the outbox to the broker failed; the sweep will resend", exc_info=True)
        return
    if sent < len(queued):
        log.warning("the broker refused %d task(s); the sweep will resend", len(queued) - sent)


def flush(conn: Connection[Any]) -> int:
    return outbox.relay(conn, send)
