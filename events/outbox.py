"""The outbox: work for the task queue, written in the same transaction as the events it follows.

A row is relayed to the broker after commit and marked sent; a periodic sweep relays whatever a
crashed process left behind. Several relays may run at once: ``SKIP LOCKED`` hands each row to one.
Tasks are idempotent, so a row sent twice (sent, then the mark lost) does no harm.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from psycopg import Connection
from psycopg.types.json import Jsonb


def enqueue(conn: Connection[Any], task: str, args: list[Any]) -> None:
    conn.execute("INSERT INTO outbox (task, args) VALUES (%s, %s)", (task, Jsonb(args)))


def relay(conn: Connection[Any], send: Callable[[str, list[Any]], None], limit: int = 100) -> int:
    """Send unsent rows through ``send(task, args)`` and mark them; returns how many were sent.

    A row whose ``send`` raises stays unsent (its attempt counted) for the next sweep.
    """
    sent = 0
    with conn.transaction():
        rows = conn.execute(
            "SELECT id, task, args FROM outbox WHERE sent_at IS NULL ORDER BY id "
            "LIMIT %s FOR UPDATE SKIP LOCKED",
            (limit,),
        ).fetchall()
        for row in rows:
            try:
                send(row["task"], row["args"])
            except Exception:
                conn.execute("UPDATE outbox SET attempts = attempts + 1 WHERE id = %s", (row["id"],))
                continue
            conn.execute(
                "UPDATE outbox SET sent_at = now(), attempts = attempts + 1 WHERE id = %s",
                (row["id"],),
            )
            sent += 1
    return sent


def pending(conn: Connection[Any]) -> int:
    row = conn.execute("SELECT count(*) AS n FROM outbox WHERE sent_at IS NULL").fetchone()
    return int(row["n"]) if row else 0
