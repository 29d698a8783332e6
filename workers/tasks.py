"""The tasks. Each carries the game version it expects and re-checks it, so a duplicate is harmless."""

from __future__ import annotations

import os
from functools import cache
from typing import Any
from uuid import UUID

from celery.utils.log import get_task_logger
from psycopg import OperationalError
from psycopg_pool import ConnectionPool

import commands
from commands import openings, seeks
from events.database import create_pool
from events.outbox import Queued
from projections import clocks, lobby, webhooks
from projections import push as subscriptions
from workers import deliveries, push, relay
from workers.app import app
from workers.logs import CLOCKS, LOBBY, REDRIVE, SWEEP, WEBHOOK_SWEEP
from workers.relay import publish, publish_task

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


@app.task(name=commands.PLAY_TURN, **_RETRY_TRANSIENT)
def play_turn(game_id: str, seat: int, expected: int) -> int | None:
    """Let a bot seat move; its next turn or the scoring is enqueued by the same transaction."""
    return _play(game_id, seat, expected)


@app.task(name=commands.THINK, **_RETRY_TRANSIENT)
def think(game_id: str, seat: int, expected: int) -> int | None:
    """A searching bot's turn: :func:`play_turn`, on the search queue (:mod:`workers.queues`)."""
    return _play(game_id, seat, expected)


def _play(game_id: str, seat: int, expected: int) -> int | None:
    with _pool().connection() as conn:
        played = commands.play_bot(conn, UUID(game_id), seat, expected, caches=app.caches)
        if played is not None:
            publish(conn, played.queued)
    return None if played is None else played.version


@app.task(name="scoring.score_game", **_RETRY_TRANSIENT)
def score_game(game_id: str, expected: int) -> bool:
    """Write the final breakdown of a game that just ended."""
    queued: list[Queued] = []
    with _pool().connection() as conn:
        scored = commands.score_game(conn, UUID(game_id), expected, queued, caches=app.caches) is not None
        publish(conn, queued)
    return scored


@app.task(name=CLOCKS, acks_late=True)
def tick() -> int:
    """Warn the seats whose time runs short and act on those whose time ran out.

    Safe with several schedulers: a warning is marked sent by the statement that finds it, and an
    expiry is acted on at the version it was found at (see :func:`commands.timeout`).
    """
    acted = 0
    with _pool().connection() as conn:
        with conn.transaction():
            queued = []
            for game in clocks.warn_due(conn):
                body = {"version": game["version"], "deadline": game["deadline"].isoformat()}
                queued += webhooks.announce(conn, game["id"], "clock_warning", body, list(game["to_move"]))
        publish(conn, queued)
        for game_id, version in clocks.expired(conn):
            queued = commands.timeout(conn, game_id, version, caches=app.caches)
            publish(conn, queued)
            acted += bool(queued) or lobby.get(conn, game_id).version != version
    return acted


@app.task(name=LOBBY, acks_late=True)
def lobby_tick() -> int:
    """Expire the open games that waited too long for players; expire the seeks whose time ran
    out and pair those whose bot fallback is due. Each in a transaction of its own that re-checks
    what it found, so two schedulers act once."""
    with _pool().connection() as conn:
        closed = openings.expire_due(conn)
        queued = seeks.tick(conn, caches=app.caches)
        publish(conn, queued)
    return closed + len(queued)


@app.task(name=webhooks.DELIVER, **_RETRY_TRANSIENT)
def deliver_webhook(delivery_id: int) -> bool:
    """Send one webhook delivery; a failed one is sent again after its backoff."""
    with _pool().connection() as conn:
        retry_in = deliveries.send(conn, delivery_id)
    if retry_in is not None:
        app.send_task(webhooks.DELIVER, args=[delivery_id], countdown=retry_in)
    return retry_in is None


@app.task(name=subscriptions.SEND, **_RETRY_TRANSIENT)
def send_push(subscription_id: str, notice: dict[str, Any], attempt: int = 1) -> str:
    """Send one Web Push message; a failed one is sent again after the webhooks' backoff, up to
    :data:`workers.push.ATTEMPTS` times; a subscription the push service says is gone is dropped."""
    with _pool().connection() as conn:
        outcome = push.send(conn, UUID(subscription_id), notice)
    if outcome == "retry" and attempt < push.ATTEMPTS:
        wait = deliveries.backoff() * 2 ** (attempt - 1)
        app.send_task(subscriptions.SEND, args=[subscription_id, notice, attempt + 1], countdown=wait)
    return outcome


@app.task(name=WEBHOOK_SWEEP, acks_late=True)
def webhook_sweep() -> int:
    """Send again the deliveries that are due but whose retry task was lost."""
    with _pool().connection() as conn:
        ids = deliveries.due(conn)
    for delivery_id in ids:
        publish_task(webhooks.DELIVER, [delivery_id])
    return len(ids)


@app.task(name=SWEEP, acks_late=True)
def sweep() -> int:
    """Re-send what no process handed over (a crash between commit and send, a broker outage)."""
    with _pool().connection() as conn:
        resent = relay.publish_unsent(conn)
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
        resent = relay.redrive(conn, idle_seconds)
    if resent:
        log.warning("re-sent %d task(s) of games that waited on a worker too long", resent)
    return resent
