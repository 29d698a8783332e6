"""What the lobby row of a game with open seats, or a rated one, holds beyond a running game's:
``rated``, ``creator``, ``expires_at``, the seats' players and whether it waits, was cancelled or
expired. Written by :mod:`commands.openings` in the transaction of its events; :func:`recompute`
folds the same from the log (``kotlik.GameCreated``, ``kotlik.SeatTaken``,
``kotlik.GameCancelled``, ``kotlik.GameExpired``) so that a test can tell the two agree.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

from psycopg import Connection

from projections.fold import PLATFORM
from projections.seats import taken_seat

CREATED = f"{PLATFORM}GameCreated"
TAKEN = f"{PLATFORM}SeatTaken"
CANCELLED = f"{PLATFORM}GameCancelled"
EXPIRED = f"{PLATFORM}GameExpired"
#: What a closing event makes of a waiting game.
CLOSED = {CANCELLED: "cancelled", EXPIRED: "expired"}


def recompute(conn: Connection[Any]) -> dict[UUID, dict[str, Any]]:
    """Each opened or rated game's part of its lobby row, from its log alone."""
    rows = conn.execute(
        "SELECT e.game_id, e.type, e.data, e.recorded_at FROM events e WHERE e.game_id IN "
        "(SELECT game_id FROM events WHERE version = 1 AND (data ? 'expires_in' OR data ? 'rated')) "
        "AND e.type = ANY(%s) ORDER BY e.game_id, e.version",
        ([CREATED, TAKEN, CANCELLED, EXPIRED],),
    ).fetchall()
    out: dict[UUID, dict[str, Any]] = {}
    for r in rows:
        data = r["data"]
        if r["type"] == CREATED:
            expires = data.get("expires_in")
            out[r["game_id"]] = {
                "rated": bool(data.get("rated")),
                "creator": UUID(data["creator"]) if data.get("creator") else None,
                "expires_at": None if expires is None else r["recorded_at"] + timedelta(seconds=expires),
                "seats": data["seats"],
                "status": "open" if any(s.get("open") for s in data["seats"]) else "started",
            }
            continue
        game = out[r["game_id"]]
        if r["type"] == TAKEN:
            seat = int(data["seat"])
            game["seats"] = [taken_seat(data) if s["seat"] == seat else s for s in game["seats"]]
            if not any(s.get("open") for s in game["seats"]):
                game["status"] = "started"
        else:
            game["status"] = CLOSED[r["type"]]
    return out


def stored(conn: Connection[Any]) -> dict[UUID, dict[str, Any]]:
    """The same from the lobby rows (a started game's status, whatever it is now, as ``started``)."""
    rows = conn.execute(
        "SELECT id, rated, creator, expires_at, seats, status FROM games "
        "WHERE rated OR expires_at IS NOT NULL"
    ).fetchall()
    return {
        r["id"]: {
            "rated": r["rated"],
            "creator": r["creator"],
            "expires_at": r["expires_at"],
            "seats": r["seats"],
            "status": r["status"] if r["status"] in ("open", *CLOSED.values()) else "started",
        }
        for r in rows
    }
