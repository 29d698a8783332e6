"""A decision's whole write as one statement: its events, the lobby row, a snapshot, the clock, the
outbox (bot turns, scoring, webhook notices) and the idempotency key.

A statement outside a transaction block is a transaction of its own, so a command costs two round
trips (the lobby read it decided on, and this) or, for a game this process has just played, one;
creating a game and resigning run it inside theirs. Every part hangs on the lobby row's
update, which only takes a row still at the version the decision was made at and still running:
if another write came first, nothing at all is written, and the caller decides again. The events'
primary key stands behind it. Which parts a write has depends on what the decision caused;
:class:`Write` says it.
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
from events.store import append_rows, batch, current_version
from projections import webhooks


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
    #: The game's count of reissued seat tokens the command's token was known at: the write
    #: takes only a row still at that count (a token reissued since is refused, not played).
    credentials: int | None = None

    @property
    def version(self) -> int:
        return self.at + len(self.events)


def save(conn: Connection[Any], write: Write) -> tuple[list[StoredEvent], list[Queued]]:
    """Write it all in one statement; the stored events and the outbox rows to hand over after commit.

    Raises :class:`Stale` when the game has moved on from ``write.at`` or ended (and a
    ``UniqueViolation`` when the idempotency key was taken).
    """
    try:
        with conn.cursor(row_factory=tuple_row) as cur:
            rows = cur.execute(_statement(write), _parameters(write)).fetchall()
    except errors.UniqueViolation as e:  # the guard's backstop; a transaction around it is now spent
        if e.diag.table_name != "events":
            raise
        raise Stale(write.game_id, write.at) from e
    appended = sorted((r for r in rows if r[0] == "event"), key=lambda r: r[1])
    if not appended:
        raise Stale(write.game_id, write.at, current_version(conn, write.game_id))
    stored = [
        StoredEvent(position, write.game_id, version, e.type, e.data, e.meta, recorded_at)
        for (_, version, recorded_at, position, _, _), e in zip(appended, write.events, strict=True)
    ]
    queued = [Queued(int(r[3]), r[4], r[5]) for r in rows if r[0] == "queued"]
    return stored, queued


class Stale(VersionConflict):
    """The game was not at the write's version, or no longer running: nothing was written."""


def _statement(write: Write) -> str:
    parts = [f"lobby AS ({_ADVANCE})", f"appended AS ({_APPEND})"]
    if write.snapshot is not None:
        parts.append(f"snapshot AS ({_SNAPSHOT})")
    if write.key is not None:
        parts.append(f"key AS ({_KEY})")
    answer = "SELECT 'event', version, recorded_at, position, NULL, NULL FROM appended"
    if write.work or write.notice is not None:
        noticed = ""
        if write.notice is not None:
            parts.append(webhooks.deliveries(_ADVANCED))
            noticed = f"UNION ALL {webhooks.DELIVERED_TASKS}"
        parts.append(f"queued AS ({_QUEUE} {noticed} RETURNING id, task, args)")
        answer += " UNION ALL SELECT 'queued', NULL, NULL, id, task, args FROM queued"
    return "WITH " + ", ".join(parts) + " " + answer


_ADVANCE = """
    UPDATE games SET version = %(version)s, to_move = %(to_move)s, status = %(status)s,
        arranged = coalesce(%(arranged)s, arranged), updated_at = now(),
        deadline = CASE %(clock)s WHEN 'keep' THEN deadline WHEN 'clear' THEN NULL
            ELSE now() + make_interval(secs => %(seconds)s) END,
        warned = warned AND %(clock)s = 'keep'
    WHERE id = %(game)s AND version = %(at)s AND status = 'active'
        AND (%(credentials)s::int IS NULL OR credentials = %(credentials)s::int)
    RETURNING id
"""
#: The condition every other part is written under.
_ADVANCED = "EXISTS (SELECT FROM lobby)"
_APPEND = append_rows(where=_ADVANCED)
_SNAPSHOT = f"""
    INSERT INTO snapshots (game_id, version, rules_version, state)
    SELECT %(game)s, %(version)s, %(rules_version)s, %(state)s WHERE {_ADVANCED} ON CONFLICT DO NOTHING
"""
_KEY = f"""
    INSERT INTO commands (game_id, command_id, request_hash, seat, first_version, last_version)
    SELECT %(game)s, %(command_id)s, %(request_hash)s, %(seat)s, %(at)s + 1, %(version)s WHERE {_ADVANCED}
"""
_QUEUE = f"""
    INSERT INTO outbox (task, args)
    SELECT w->>0, w->1 FROM jsonb_array_elements(%(work)s::jsonb) AS w WHERE {_ADVANCED}
"""


def _parameters(write: Write) -> dict[str, Any]:
    params: dict[str, Any] = {
        "game": write.game_id,
        "expected": write.at,
        "at": write.at,
        "version": write.version,
        "events": batch(write.events),
        "to_move": Jsonb(write.to_move),
        "status": write.status,
        "arranged": write.arranged,
        "clock": write.clock,
        "seconds": write.seconds,
        "work": Jsonb(write.work),
        "credentials": write.credentials,
    }
    if write.snapshot is not None:
        params["rules_version"], state = write.snapshot
        params["state"] = Jsonb(state)
    if write.key is not None:
        params["command_id"], params["request_hash"], params["seat"] = write.key
    notice = write.notice
    if notice is not None:
        params.update(webhooks.parameters(write.game_id, notice.kind, notice.body, notice.seats))
    return params
