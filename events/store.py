"""The event store: append with an expected version, read a game's log, read everything in order.

Optimistic concurrency comes from the primary key ``(game_id, version)``: two writers at one
version both try to insert ``version + 1``, and the second fails with a unique violation, which
becomes :class:`VersionConflict`. Immutability and notification are the database's job (triggers
refuse UPDATE, DELETE and TRUNCATE, and NOTIFY an append to a game some process watches), so no
code path here can rewrite history or forget to tell listeners. Connections hand rows back as dicts (see
:func:`events.database.create_pool`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg import Connection, errors
from psycopg.rows import tuple_row
from psycopg.types.json import Jsonb

#: The channel an append to a watched game notifies (a trigger does it, at commit; alembic ``0009``);
#: :mod:`events.notes` reads the payload.
CHANNEL = "kotlik_events"


class VersionConflict(Exception):
    """Somebody else appended first: the expected version is stale."""

    def __init__(self, game_id: UUID, expected: int, actual: int | None = None) -> None:
        super().__init__(game_id, expected, actual)
        self.game_id = game_id
        self.expected = expected
        self.actual = actual

    def __str__(self) -> str:
        actual = "a newer version" if self.actual is None else f"version {self.actual}"
        return f"game {self.game_id} is at {actual}, not {self.expected}"


@dataclass(frozen=True)
class NewEvent:
    """An event about to be appended."""

    type: str
    data: dict[str, Any]
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StoredEvent:
    """An event as recorded: its place in the game and in the global order."""

    position: int
    game_id: UUID
    version: int
    type: str
    data: dict[str, Any]
    meta: dict[str, Any]
    recorded_at: datetime

    def body(self) -> dict[str, Any]:
        """The event as the rules see it: ``{"type": ..., **data}``."""
        return {"type": self.type, **self.data}

    @property
    def seat(self) -> int | None:
        """The seat whose command caused the event; ``None`` for setup and the platform's own."""
        seat = self.meta.get("seat")
        return None if seat is None else int(seat)


_COLUMNS = "position, game_id, version, type, data, meta, recorded_at"


def current_version(conn: Connection[Any], game_id: UUID) -> int:
    row = conn.execute(
        "SELECT coalesce(max(version), 0) AS v FROM events WHERE game_id = %s", (game_id,)
    ).fetchone()
    assert row is not None
    return int(row["v"])


#: The guard of a plain :func:`append`: an ``expected`` that is not the log's newest version appends
#: nothing (a stale one would also fail on the primary key; one ahead would leave a gap).
NEWEST = "(SELECT coalesce(max(version), 0) FROM events WHERE game_id = %(game)s) = %(expected)s"


def append_rows(where: str = NEWEST) -> str:
    """The ``INSERT`` of a batch of events after version ``%(expected)s`` if ``where`` holds,
    returning what the store adds (position, version, time); also a part of a larger statement
    (:mod:`commands.writes`). A writer racing at the same version fails on the primary key.

    The batch is one JSON parameter (:func:`batch`).
    """
    return f"""
        INSERT INTO events (game_id, version, type, data, meta)
        SELECT %(game)s, %(expected)s + e.n, e.x->>0, e.x->1, e.x->2
        FROM jsonb_array_elements(%(events)s::jsonb) WITH ORDINALITY AS e(x, n)
        WHERE {where}
        RETURNING position, version, recorded_at"""


def batch(events: Sequence[NewEvent]) -> Jsonb:
    """The events of :func:`append_rows`, ``[[type, data, meta], ...]``: the whole batch is one
    JSON text to encode, where arrays of ``jsonb`` cost psycopg an adapter for every element."""
    return Jsonb([(e.type, e.data, e.meta) for e in events])


_APPEND = append_rows()


def append(
    conn: Connection[Any], game_id: UUID, expected: int, events: Sequence[NewEvent]
) -> list[StoredEvent]:
    """Append ``events`` after version ``expected``, in the caller's transaction, in one statement.

    Raises :class:`VersionConflict` when the game is not at ``expected``; the caller's
    transaction is then unusable and nothing of it is kept.
    """
    if not events:
        return []
    params = {
        "game": game_id,
        "expected": expected,
        "events": batch(events),
    }
    try:
        with conn.cursor(row_factory=tuple_row) as cur:
            rows = cur.execute(_APPEND, params).fetchall()
    except errors.UniqueViolation as e:
        raise VersionConflict(game_id, expected) from e
    if not rows:
        raise VersionConflict(game_id, expected, current_version(conn, game_id))
    rows.sort(key=lambda r: r[1])
    return [
        StoredEvent(position, game_id, version, e.type, e.data, e.meta, recorded_at)
        for (position, version, recorded_at), e in zip(rows, events, strict=True)
    ]


def restore(conn: Connection[Any], game_id: UUID, history: Sequence[tuple[NewEvent, datetime]]) -> int:
    """Write a whole log brought from elsewhere (an import) as versions 1..n with its own times.

    The game must have no events yet: the primary key refuses any overlap, which becomes a
    :class:`VersionConflict`. Returns the last version written.
    """
    params = {
        "game": game_id,
        "types": [e.type for e, _ in history],
        "data": [Jsonb(e.data) for e, _ in history],
        "metas": [Jsonb(e.meta) for e, _ in history],
        "times": [t for _, t in history],
    }
    try:
        conn.execute(
            "INSERT INTO events (game_id, version, type, data, meta, recorded_at) "
            "SELECT %(game)s, e.n, e.type, e.data, e.meta, e.at "
            "FROM unnest(%(types)s::text[], %(data)s::jsonb[], %(metas)s::jsonb[], %(times)s::timestamptz[]) "
            "WITH ORDINALITY AS e(type, data, meta, at, n)",
            params,
        )
    except errors.UniqueViolation as e:
        raise VersionConflict(game_id, 0) from e
    return len(history)


def read(conn: Connection[Any], game_id: UUID, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
    """A game's events with ``after < version <= upto``, in version order."""
    return later(conn, game_id, after, upto)()


def later(
    conn: Connection[Any], game_id: UUID, after: int = 0, upto: int | None = None
) -> Callable[[], list[StoredEvent]]:
    """:func:`read`, asked now and answered when called: in a pipeline (``conn.pipeline()``) whose
    results are taken after it ends, the read shares one round trip with the statements around it."""
    cursor = conn.execute(
        f"SELECT {_COLUMNS} FROM events WHERE game_id = %s AND version > %s "
        "AND (%s::int IS NULL OR version <= %s::int) ORDER BY version",
        (game_id, after, upto, upto),
    )
    return lambda: [_event(r) for r in cursor.fetchall()]


def _event(row: Any) -> StoredEvent:
    return StoredEvent(**row)
