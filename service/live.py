"""Waiting for a game's next version: long-poll and server-sent events, on PostgreSQL NOTIFY.

Each waiter LISTENs on its own connection outside the pool, so a long wait never starves the
requests that do work.
"""

from __future__ import annotations

import time
from uuid import UUID

import psycopg

from events import CHANNEL


def wait_for_newer(url: str, game_id: UUID, version: int, timeout: float) -> int | None:
    """Block until ``game_id`` passes ``version`` or ``timeout`` seconds pass; the new version."""
    prefix = f"{game_id}:"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"LISTEN {CHANNEL}")
        row = conn.execute("SELECT version FROM games WHERE id = %s", (game_id,)).fetchone()
        if row is not None and row[0] > version:
            return int(row[0])
        deadline = time.monotonic() + timeout
        while (remaining := deadline - time.monotonic()) > 0:
            for note in conn.notifies(timeout=remaining, stop_after=1):
                if note.payload.startswith(prefix):
                    newer = int(note.payload[len(prefix) :])
                    if newer > version:
                        return newer
    return None
