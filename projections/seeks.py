"""The ``seeks`` table: each seek as its events in ``seek_events`` leave it.

A seek is placed (``SeekPlaced``), then paired (``SeekPaired``, with the game), cancelled or
expired. :func:`fold` is the one fold of a seek's events; the write side refreshes a seek's row
from its events in the transaction that appends them (:func:`append`), and :func:`recompute`
folds the whole log, so :func:`stored` and :func:`recompute` can be compared and
:func:`rebuild` can replace the table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from psycopg import Connection
from psycopg.types.json import Jsonb

PLACED = "SeekPlaced"
PAIRED = "SeekPaired"
CANCELLED = "SeekCancelled"
EXPIRED = "SeekExpired"
#: What each closing event makes of a waiting seek.
_CLOSED = {PAIRED: "paired", CANCELLED: "cancelled", EXPIRED: "expired"}
#: The channel a seek's closing is announced on, its id the payload: the waiting player's
#: ``GET /seeks/{id}?wait=`` is answered the moment the transaction that paired it commits.
CHANNEL = "kotlik_seeks"


@dataclass(frozen=True)
class Seek:
    id: UUID
    player_id: UUID
    game: str
    seats: int
    rated: bool
    clock: dict[str, Any] | None
    fallback: dict[str, Any] | None
    status: str
    game_id: UUID | None
    created_at: datetime
    expires_at: datetime


_COLUMNS = "id, player_id, game, seats, rated, clock, fallback, status, game_id, created_at, expires_at"


def fold(seek_id: UUID, events: Iterable[dict[str, Any]]) -> Seek | None:
    """A seek from its events (``type``, ``data``, ``recorded_at``), oldest first."""
    seek: Seek | None = None
    for e in events:
        data = e["data"]
        if e["type"] == PLACED:
            seek = Seek(
                seek_id,
                UUID(data["player"]),
                data["game"],
                int(data["seats"]),
                bool(data["rated"]),
                data.get("clock"),
                data.get("fallback"),
                "waiting",
                None,
                e["recorded_at"],
                e["recorded_at"] + timedelta(seconds=float(data["expires_in"])),
            )
        elif seek is not None and seek.status == "waiting" and e["type"] in _CLOSED:
            game = data.get("game_id")
            seek = Seek(
                **{**asdict(seek), "status": _CLOSED[e["type"]], "game_id": UUID(game) if game else None}
            )
    return seek


def append(conn: Connection[Any], seek_id: UUID, kind: str, data: dict[str, Any]) -> Seek:
    """Append one event of a seek and bring its row along, in the caller's transaction; a closing
    one also notifies :data:`CHANNEL`, which PostgreSQL delivers only if that transaction commits."""
    conn.execute(
        "INSERT INTO seek_events (seek_id, type, data) VALUES (%s, %s, %s)", (seek_id, kind, Jsonb(data))
    )
    if kind in _CLOSED:
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, str(seek_id)))
    rows = conn.execute(
        "SELECT type, data, recorded_at FROM seek_events WHERE seek_id = %s ORDER BY position", (seek_id,)
    ).fetchall()
    seek = fold(seek_id, rows)
    assert seek is not None, "a seek's first event places it"
    _write(conn, seek)
    return seek


def _write(conn: Connection[Any], seek: Seek) -> None:
    row = asdict(seek)
    row["clock"] = None if seek.clock is None else Jsonb(seek.clock)
    row["fallback"] = None if seek.fallback is None else Jsonb(seek.fallback)
    names = ", ".join(row)
    values = ", ".join(f"%({k})s" for k in row)
    updates = ", ".join(f"{k} = excluded.{k}" for k in row if k != "id")
    conn.execute(
        f"INSERT INTO seeks ({names}) VALUES ({values}) ON CONFLICT (id) DO UPDATE SET {updates}", row
    )


def get(conn: Connection[Any], seek_id: UUID, *, lock: bool = False) -> Seek | None:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM seeks WHERE id = %s" + (" FOR UPDATE" if lock else ""), (seek_id,)
    ).fetchone()
    return Seek(**row) if row else None


def waiting_of(conn: Connection[Any], player: UUID) -> int:
    row = conn.execute(
        "SELECT count(*) AS n FROM seeks WHERE player_id = %s AND status = 'waiting' AND expires_at > now()",
        (player,),
    ).fetchone()
    return int(row["n"]) if row else 0


def partners(conn: Connection[Any], seek: dict[str, Any], player: UUID, wanted: int) -> list[Seek]:
    """The oldest waiting seeks that fit ``seek``, one a player, none of ``player``'s; locked."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM (SELECT DISTINCT ON (player_id) {_COLUMNS} FROM seeks "
        "WHERE status = 'waiting' AND game = %(game)s AND seats = %(seats)s AND rated = %(rated)s "
        "AND clock IS NOT DISTINCT FROM %(clock)s::jsonb AND player_id <> %(player)s AND expires_at > now() "
        "ORDER BY player_id, created_at, id) s ORDER BY created_at, id LIMIT %(wanted)s",
        {
            "game": seek["game"],
            "seats": seek["seats"],
            "rated": seek["rated"],
            "clock": None if seek.get("clock") is None else Jsonb(seek["clock"]),
            "player": player,
            "wanted": wanted,
        },
    ).fetchall()
    return [Seek(**r) for r in rows]


def due(conn: Connection[Any], limit: int = 200) -> list[Seek]:
    """Waiting seeks that expired, or whose bot fallback is due."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM seeks WHERE status = 'waiting' AND (expires_at <= now() OR "
        "(fallback IS NOT NULL "
        "AND created_at + make_interval(secs => (fallback->>'after')::float8) <= now())) "
        "ORDER BY created_at LIMIT %s",
        (limit,),
    ).fetchall()
    return [Seek(**r) for r in rows]


def recompute(conn: Connection[Any]) -> dict[UUID, Seek]:
    """Every seek folded from the log alone."""
    rows = conn.execute(
        "SELECT seek_id, type, data, recorded_at FROM seek_events ORDER BY position"
    ).fetchall()
    by_seek: dict[UUID, list[dict[str, Any]]] = {}
    for r in rows:
        by_seek.setdefault(r["seek_id"], []).append(r)
    folded = {seek_id: fold(seek_id, events) for seek_id, events in by_seek.items()}
    return {k: v for k, v in folded.items() if v is not None}


def stored(conn: Connection[Any]) -> dict[UUID, Seek]:
    return {r["id"]: Seek(**r) for r in conn.execute(f"SELECT {_COLUMNS} FROM seeks").fetchall()}


def rebuild(conn: Connection[Any]) -> int:
    """Replace the table with the seeks folded from the log; how many."""
    with conn.transaction():
        conn.execute("LOCK TABLE seeks IN EXCLUSIVE MODE")
        table = recompute(conn)
        conn.execute("DELETE FROM seeks")
        for seek in table.values():
            _write(conn, seek)
    return len(table)
