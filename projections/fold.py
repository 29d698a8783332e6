"""A game's state, folded from its events through the game's ``evolve``, with snapshots.

Snapshots are a cache keyed by rules version: a fold starts from the newest usable snapshot and
folds the events after it, so deleting every snapshot changes nothing but speed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any
from uuid import UUID

from psycopg import Connection

from events import bodies
from games.interface import Event

#: Fold cache interval in events; deleting snapshots loses nothing.
SNAPSHOT_EVERY = 50
#: Events of the platform itself (creation, scoring) carry this prefix; games never see them.
PLATFORM = "kotlik."


@dataclass(frozen=True)
class Folded:
    state: Any
    version: int


def fold(game: ModuleType, events: Iterable[Event], state: Any = None) -> Any:
    """``state`` with ``events`` (bodies: ``{"type": ..., **data}``) applied; platform events skipped."""
    for event in events:
        if not event["type"].startswith(PLATFORM):
            state = game.evolve(state, event)
    return state


def state_at(conn: Connection[Any], game_id: UUID, game: ModuleType, at: int | None = None) -> Folded:
    """The state at version ``at`` (``None``: the newest), from the newest snapshot at or before it."""
    snapshot = conn.execute(
        "SELECT version, state FROM snapshots WHERE game_id = %s AND rules_version = %s "
        "AND (%s::int IS NULL OR version <= %s::int) ORDER BY version DESC LIMIT 1",
        (game_id, game.INFO.rules_version, at, at),
    ).fetchone()
    state, version = (snapshot["state"], snapshot["version"]) if snapshot else (None, 0)
    tail = bodies(conn, game_id, after=version, upto=at)
    if tail:
        state, version = fold(game, (body for _, body in tail), state), tail[-1][0]
    return Folded(state, version)


def opening_version(conn: Connection[Any], game_id: UUID) -> int:
    """The version at which setup is complete: the first state a player can see.

    Setup events carry no ``at`` in their meta; every command's events do.
    """
    row = conn.execute(
        "SELECT coalesce(min(version) - 1, (SELECT max(version) FROM events e WHERE e.game_id = %s "
        "AND e.type NOT LIKE 'kotlik.GameScored')) AS v FROM events WHERE game_id = %s AND meta ? 'at'",
        (game_id, game_id),
    ).fetchone()
    return int(row["v"]) if row and row["v"] is not None else 0


def snapshot_due(before: int, after: int) -> bool:
    """Whether an append from version ``before`` to ``after`` crossed a multiple of SNAPSHOT_EVERY."""
    return after // SNAPSHOT_EVERY != before // SNAPSHOT_EVERY
