"""The outbox: work for the task queue, written in the same transaction as the events it follows.

The process that committed a row publishes it to the broker right after the commit and marks it
sent (:func:`publish`); a periodic sweep (:func:`publish_unsent`) publishes whatever a crashed
process left behind. Publishing is :mod:`workers.relay`'s; this module only keeps the rows.
Several sweeps may run at once: ``SKIP LOCKED`` hands each row to one. Tasks are idempotent, so a
row sent twice (by its writer and a sweep, or sent and then the mark lost) does no harm.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from psycopg import Connection


@dataclass(frozen=True)
class Queued:
    """An outbox row written by the current transaction, to publish once it has committed."""

    id: int
    task: str
    args: list[Any]


def publish(
    conn: Connection[Any], queued: Sequence[Queued], publish_task: Callable[[str, list[Any]], None]
) -> int:
    """Publish rows this process has just committed, without scanning the table; returns how many.

    A row whose ``publish_task`` raises stays unsent for the sweep.
    """
    sent = []
    for row in queued:
        try:
            publish_task(row.task, row.args)
        except Exception:
            continue
        sent.append(row.id)
    if sent:
        conn.execute(
            "UPDATE outbox SET sent_at = now(), attempts = attempts + 1 "
            "WHERE id = ANY(%s) AND sent_at IS NULL",
            (sent,),
        )
    return len(sent)


def publish_unsent(
    conn: Connection[Any], publish_task: Callable[[str, list[Any]], None], limit: int = 100
) -> int:
    """Publish unsent rows through ``publish_task(task, args)`` and mark them; returns how many.

    A row whose ``publish_task`` raises stays unsent (its attempt counted) for the next sweep.
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
                publish_task(row["task"], row["args"])
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
