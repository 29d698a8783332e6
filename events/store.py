"""The event store: append with an expected version, read a game's log, read everything in order.

Optimistic concurrency comes from the primary key ``(game_id, version)``: two writers at one
version both try to insert ``version + 1``, and the second fails with a unique violation, which
becomes :class:`VersionConflict`. Immutability is the database's job (a trigger refuses UPDATE,
DELETE and TRUNCATE), so no code path here can rewrite history. Connections hand rows back as
dicts (see :func:`events.database.create_pool`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg import Connection, errors
from psycopg.types.json import Jsonb

#: The channel every append notifies, with ``"<game_id>:<version>"`` as payload.
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


_COLUMNS = "position, game_id, version, type, data, meta, recorded_at"


def current_version(conn: Connection[Any], game_id: UUID) -> int:
    row = conn.execute(
        "SELECT coalesce(max(version), 0) AS v FROM events WHERE game_id = %s", (game_id,)
    ).fetchone()
    assert row is not None
    return int(row["v"])


def append(
    conn: Connection[Any], game_id: UUID, expected: int, events: Sequence[NewEvent]
) -> list[StoredEvent]:
    """Append ``events`` after version ``expected``, in the caller's transaction.

    Raises :class:`VersionConflict` when the game is not at ``expected``; the caller's
    transaction is then unusable and nothing of it is kept.
    """
    actual = current_version(conn, game_id)
    if actual != expected:
        raise VersionConflict(game_id, expected, actual)
    stored: list[StoredEvent] = []
    try:
        with conn.cursor() as cur:
            for offset, event in enumerate(events, start=1):
                cur.execute(
                    f"INSERT INTO events (game_id, version, type, data, meta) "
                    f"VALUES (%s, %s, %s, %s, %s) RETURNING {_COLUMNS}",
                    (game_id, expected + offset, event.type, Jsonb(event.data), Jsonb(event.meta)),
                )
                stored.append(_event(cur.fetchone()))
    except errors.UniqueViolation as e:
        raise VersionConflict(game_id, expected) from e
    if stored:
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id}:{stored[-1].version}"))
    return stored


def read(conn: Connection[Any], game_id: UUID, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
    """A game's events with ``after < version <= upto``, in version order."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM events WHERE game_id = %s AND version > %s "
        "AND (%s::int IS NULL OR version <= %s::int) ORDER BY version",
        (game_id, after, upto, upto),
    ).fetchall()
    return [_event(r) for r in rows]


def read_all(conn: Connection[Any], after: int = 0, limit: int = 1000) -> list[StoredEvent]:
    """Events of every game after global ``position``, without ever skipping one.

    Positions are taken at insert but become visible at commit, so a later position can be seen
    before an earlier one commits. Reading only events written by transactions older than the
    oldest still running (``pg_snapshot_xmin``) means nothing below the returned high-water mark
    can appear later.
    """
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM events WHERE position > %s "
        "AND xid < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY position LIMIT %s",
        (after, limit),
    ).fetchall()
    return [_event(r) for r in rows]


def _event(row: Any) -> StoredEvent:
    return StoredEvent(**row)
