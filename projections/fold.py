"""A game's state, folded from its events through the game's ``evolve``, with snapshots.

Snapshots are a cache keyed by rules version: a fold starts from the newest usable snapshot and
folds the events after it, so deleting every snapshot changes nothing but speed.

A ``kotlik.Undone`` (:mod:`projections.undo`) puts the game back as it was at an earlier version
(its ``to``): a fold meeting one takes the state at that version from ``restore`` (the state at a
version, from the database or from the states folded so far) and goes on from there. A snapshot or
a cached state before ``to`` serves as ever, since an undo changes nothing before it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from psycopg import Connection
from psycopg.rows import tuple_row

from games.interface import Event, Rules

#: Fold cache interval in events; deleting snapshots loses nothing.
SNAPSHOT_EVERY = 50
#: Events of the platform itself (creation, scoring) carry this prefix; games never see them.
PLATFORM = "kotlik."
#: The platform's undo (:mod:`projections.undo`): the game as it was at version ``to`` again.
UNDONE = f"{PLATFORM}Undone"
#: ``restore(version) -> state``: the state at an earlier version, for an undo met in a fold.
Restore = Callable[[int], Any]


class Unrestorable(LookupError):
    """A fold met an undo and was given no way to the state it returns to."""


#: The newest usable snapshot (the row with no type) and the events after it, in version order.
_SNAPSHOT_AND_TAIL = (
    "WITH snapshot AS (SELECT version, state FROM snapshots WHERE game_id = %(game)s "
    "AND rules_version = coalesce(%(rules)s::int, (SELECT rules_version FROM games WHERE id = %(game)s)) "
    "AND (%(at)s::int IS NULL OR version <= %(at)s::int) "
    "ORDER BY version DESC LIMIT 1) "
    "SELECT version, NULL AS type, state AS data FROM snapshot UNION ALL "
    "SELECT version, type, data FROM events WHERE game_id = %(game)s "
    "AND version > coalesce((SELECT version FROM snapshot), 0) "
    "AND (%(at)s::int IS NULL OR version <= %(at)s::int) ORDER BY version"
)


@dataclass(frozen=True)
class Folded:
    state: Any
    version: int


def fold(game: Rules, events: Iterable[Event], state: Any = None, restore: Restore | None = None) -> Any:
    """``state`` with ``events`` (bodies: ``{"type": ..., **data}``) applied; platform events skipped
    but an undo, whose state ``restore`` gives (:class:`Unrestorable` without it)."""
    for event in events:
        if event["type"] == UNDONE:
            if restore is None:
                raise Unrestorable(f"an undo back to version {event['to']} met with no way to that state")
            state = restore(int(event["to"]))
        elif not event["type"].startswith(PLATFORM):
            state = game.evolve(state, event)
    return state


def fold_log(game: Rules, events: Iterable[tuple[int, Event]], state: Any = None, at: int = 0) -> Any:
    """``state`` (the state at version ``at``) with ``events`` (``(version, body)`` in version order)
    applied, undos included: every state folded on the way is kept for them, so ``events`` must
    reach back to any version an undo among them returns to (a whole log does)."""
    states: dict[int, Any] = {at: state}
    for version, event in events:
        state = fold(game, [event], state, states.__getitem__)
        states[version] = state
    return state


def state_at(conn: Connection[Any], game_id: UUID, game: Rules, at: int | None = None) -> Folded:
    """The state at version ``at`` (``None``: the newest), from the newest snapshot at or before it.

    One statement reads the snapshot and the events after it: a cold load or a replay is one round
    trip, as a second one is no small part of its cost. Of the events it reads only what a fold
    needs; decoding ``meta`` and the timestamps too would make a cold fold much slower (figures:
    docs/performance.md, "Figures formerly quoted in the code").
    """
    with conn.cursor(row_factory=tuple_row) as cur:
        rows = cur.execute(_SNAPSHOT_AND_TAIL, _asked(game_id, game.INFO.rules_version, at)).fetchall()
    return _folded(game, rows, restorer(conn, game_id, game))


def restorer(conn: Connection[Any], game_id: UUID, game: Rules) -> Restore:
    """``restore`` for a fold of the game's stored events: the state at a version, read again."""
    return lambda version: state_at(conn, game_id, game, at=version).state


def newest_later(conn: Connection[Any], game_id: UUID) -> Callable[[Rules], Folded]:
    """The newest state, asked now and folded when called with the game's rules: in a pipeline
    (``conn.pipeline()``), a cold load shares its round trip with the lobby read that names those
    rules. Its snapshot is one of the rules version the lobby row records."""
    cursor = conn.cursor(row_factory=tuple_row).execute(_SNAPSHOT_AND_TAIL, _asked(game_id, None, None))
    return lambda game: _folded(game, cursor.fetchall(), restorer(conn, game_id, game))


def _asked(game_id: UUID, rules: int | None, at: int | None) -> dict[str, Any]:
    """The statement's parameters; ``rules`` ``None`` takes the lobby row's rules version."""
    return {"game": game_id, "rules": rules, "at": at}


def _folded(game: Rules, rows: list[tuple[Any, ...]], restore: Restore) -> Folded:
    if not rows:
        return Folded(None, 0)
    snapshot = rows[0][1] is None
    state = rows[0][2] if snapshot else None
    tail = rows[1:] if snapshot else rows
    return Folded(
        fold(game, ({"type": type_, **data} for _, type_, data in tail), state, restore), rows[-1][0]
    )


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
