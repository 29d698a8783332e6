"""The tasks. Each carries the game version it expects and re-checks it, so a duplicate is harmless."""

from __future__ import annotations

import os
from functools import cache
from typing import Any
from uuid import UUID

from celery.utils.log import get_task_logger
from psycopg import OperationalError
from psycopg_pool import ConnectionPool

from events.database import create_pool
from projections import commands
from workers.app import app
from workers.logs import REDRIVE, SWEEP
from workers.relay import deliver, flush, resend_stalled

log = get_task_logger(__name__)


@cache
def _pool() -> ConnectionPool:
    return create_pool(min_size=1, max_size=4)


#: A lost database connection is worth retrying; an illegal move or a conflict never is.
_RETRY_TRANSIENT: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "max_retries": 5,
}


@app.task(name="bots.play_turn", **_RETRY_TRANSIENT)
def play_turn(game_id: str, seat: int, expected: int) -> int | None:
    """Let a bot seat move; its next turn or the scoring is enqueued by the same transaction."""
    with _pool().connection() as conn:
        played = commands.play_bot(conn, UUID(game_id), seat, expected)
        if played is not None:
            deliver(conn, played.queued)
    return None if played is None else played.version


@app.task(name="scoring.score_game", **_RETRY_TRANSIENT)
def score_game(game_id: str, expected: int) -> bool:
    """Write the final breakdown of a game that just ended."""
    with _pool().connection() as conn:
        return commands.score_game(conn, UUID(game_id), expected) is not None


@app.task(name=SWEEP, acks_late=True)
def sweep() -> int:
    """Re-send what no process relayed (a crash between commit and send, a broker outage)."""
    with _pool().connection() as conn:
        resent = flush(conn)
    if resent:
        log.warning("the outbox sweep re-sent %d task(s) the broker had not got", resent)
    return resent


#: Seconds a game may wait on a bot or on scoring before its task is sent again
#: (``KOTLIK_STALLED_AFTER``): a task can die with a killed worker or an emptied broker.
STALLED_AFTER = float(os.environ.get("KOTLIK_STALLED_AFTER", "30"))


@app.task(name=REDRIVE, acks_late=True)
def redrive(idle_seconds: float = STALLED_AFTER) -> int:
    """Send again the task of every game that has waited on a worker for ``idle_seconds``."""
    with _pool().connection() as conn:
        resent = resend_stalled(conn, idle_seconds)
    if resent:
        log.warning("re-sent %d task(s) of games that waited on a worker too long", resent)
    return resent
