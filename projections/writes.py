"""A decision's whole write as one statement: its events, the lobby row, a snapshot, the clock, the
outbox (bot turns, scoring, webhook notices) and the idempotency key.

One statement is one transaction, so a command costs two round trips: the lobby read it decided
on, and this. PostgreSQL runs the statement's parts on one snapshot; the events' primary key refuses
a second append at a version, which fails the whole statement, so nothing of a command that lost a
race is kept. Which parts a write has depends on what the decision caused; :class:`Write` says it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from psycopg import Connection, errors
from psycopg.rows import tuple_row
from psycopg.types.json import Jsonb

from events import NewEvent, StoredEvent, VersionConflict
from events.outbox import Queued
from events.store import append_rows, current_version
from projections import notify


@dataclass(frozen=True)
class Notice:
    """A webhook notice of ``kind`` to the game's hooks and those of the players at ``seats``."""

    kind: str
    body: dict[str, Any]
    seats: list[int] | None = None


@dataclass(frozen=True)
class Write:
    """What one decision changes: ``events`` after version ``at`` and everything that follows them."""

    game_id: UUID
    at: int
    events: Sequence[NewEvent]
    #: The lobby row after: the version the events reach, who moves, ``active`` or ``scoring``.
    to_move: list[int]
    status: str
    arranged: bool | None = None
    #: ``(rules_version, state)`` when the append crosses a snapshot boundary.
    snapshot: tuple[int, Any] | None = None
    #: The turn clock: ``keep`` its deadline, ``clear`` it, or ``set`` it ``seconds`` from now.
    clock: str = "keep"
    seconds: float | None = None
    #: Outbox tasks ``(name, args)``: a bot's turn, the scoring.
    work: list[tuple[str, list[Any]]] = field(default_factory=list)
    notice: Notice | None = None
    #: ``(command_id, request_hash, seat)`` of a command sent with an ``Idempotency-Key``.
    key: tuple[str, str, int] | None = None

    @property
    def version(self) -> int:
        return self.at + len(self.events)


def save(conn: Connection[Any], write: Write) -> tuple[list[StoredEvent], list[Queued]]:
    """Write it all in one statement; the stored events and the outbox rows to hand over after commit.

    Raises :class:`VersionConflict` when another append took the version first (and a
    ``UniqueViolation`` when the idempotency key did).
    """
    try:
        with conn.cursor(row_factory=tuple_row) as cur:
            rows = cur.execute(_statement(write), _parameters(write)).fetchall()
    except errors.UniqueViolation as e:
        if e.diag.table_name != "events":
            raise
        raise VersionConflict(write.game_id, write.at, current_version(conn, write.game_id)) from e
    appended = sorted((r for r in rows if r[0] == "event"), key=lambda r: r[1])
    stored = [
        StoredEvent(position, write.game_id, version, e.type, e.data, e.meta, recorded_at)
        for (_, version, recorded_at, position, _, _), e in zip(appended, write.events, strict=True)
    ]
    queued = [Queued(int(r[3]), r[4], r[5]) for r in rows if r[0] == "queued"]
    return stored, queued


def _statement(write: Write) -> str:
    parts = [f"appended AS ({_APPEND})", f"lobby AS ({_ADVANCE})"]
    if write.snapshot is not None:
        parts.append(f"snapshot AS ({_SNAPSHOT})")
    if write.key is not None:
        parts.append(f"key AS ({_KEY})")
    noticed = ""
    if write.notice is not None:
        parts.append(notify.DELIVERIES)
        noticed = f"UNION ALL {notify.DELIVERED_TASKS}"
    parts.append(f"queued AS ({_QUEUE} {noticed} RETURNING id, task, args)")
    return (
        "WITH " + ", ".join(parts) + " SELECT 'event', version, recorded_at, position, NULL, NULL "
        "FROM appended UNION ALL SELECT 'queued', NULL, NULL, id, task, args FROM queued"
    )


#: ``at`` is the lobby row's version, which every append moves in its own transaction: a stale one
#: meets the primary key, and it is never ahead of the log, so the append needs no guard here.
_APPEND = append_rows(guarded=False)
_ADVANCE = """
    UPDATE games SET version = %(version)s, to_move = %(to_move)s, status = %(status)s,
        arranged = coalesce(%(arranged)s, arranged), updated_at = now(),
        deadline = CASE %(clock)s WHEN 'keep' THEN deadline WHEN 'clear' THEN NULL
            ELSE now() + make_interval(secs => %(seconds)s) END,
        warned = warned AND %(clock)s = 'keep'
    WHERE id = %(game)s
"""
_SNAPSHOT = """
    INSERT INTO snapshots (game_id, version, rules_version, state)
    VALUES (%(game)s, %(version)s, %(rules_version)s, %(state)s) ON CONFLICT DO NOTHING
"""
_KEY = """
    INSERT INTO commands (game_id, command_id, request_hash, seat, first_version, last_version)
    VALUES (%(game)s, %(command_id)s, %(request_hash)s, %(seat)s, %(at)s + 1, %(version)s)
"""
_QUEUE = "INSERT INTO outbox (task, args) SELECT * FROM unnest(%(tasks)s::text[], %(args)s::jsonb[])"


def _parameters(write: Write) -> dict[str, Any]:
    params: dict[str, Any] = {
        "game": write.game_id,
        "expected": write.at,
        "at": write.at,
        "version": write.version,
        "types": [e.type for e in write.events],
        "data": [Jsonb(e.data) for e in write.events],
        "metas": [Jsonb(e.meta) for e in write.events],
        "to_move": Jsonb(write.to_move),
        "status": write.status,
        "arranged": write.arranged,
        "clock": write.clock,
        "seconds": write.seconds,
        "tasks": [task for task, _ in write.work],
        "args": [Jsonb(args) for _, args in write.work],
    }
    if write.snapshot is not None:
        params["rules_version"], state = write.snapshot
        params["state"] = Jsonb(state)
    if write.key is not None:
        params["command_id"], params["request_hash"], params["seat"] = write.key
    notice = write.notice
    if notice is not None:
        params.update(notify.parameters(write.game_id, notice.kind, notice.body, notice.seats))
    return params
