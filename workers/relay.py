"""Relaying the outbox to the broker, from the API after a commit and from the periodic sweep."""

from __future__ import annotations

from typing import Any

from psycopg import Connection

from events import outbox
from workers.app import app

#: Give up quickly when the broker is down: the row stays in the outbox for the sweep.
_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}


def send(task: str, args: list[Any]) -> None:
    app.send_task(task, args=args, retry=True, retry_policy=_RETRY)


def flush(conn: Connection[Any]) -> int:
    return outbox.relay(conn, send)
