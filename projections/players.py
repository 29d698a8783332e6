"""Players: a name and a key (shown once, stored as its SHA-256 like a seat token), and the seats
bound to them (``game_players``), so one key answers "where must I move?" across games.

A seat is bound when a game is created with ``{"player": id}`` for it, or when a player claims an
invite (the seat's token) with their key. Seat tokens keep working beside a binding.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from psycopg import Connection, errors

from projections import lobby
from projections.lobby import GameRow


class UnknownPlayer(LookupError):
    """No player has this key, or no player this id (HTTP 401 for a key, 422 for a seat's id)."""


class NameTaken(Exception):
    """Another player has this name (HTTP 409): names are unique per server, whatever their case."""


class SeatTaken(Exception):
    """The seat is bound to another player already (HTTP 409)."""


@dataclass(frozen=True)
class Player:
    id: UUID
    name: str
    created_at: datetime


def _digest(key: str) -> bytes:
    return hashlib.sha256(key.encode()).digest()


def new_key() -> str:
    return "kp_" + secrets.token_urlsafe(32)


def create(conn: Connection[Any], name: str) -> tuple[Player, str]:
    """A new player and its key, which is not stored and so can be shown only now (its hash is
    logged in ``credential_events``, of which ``players.key_hash`` is a projection)."""
    key = new_key()
    try:
        with conn.transaction():
            row = conn.execute(_CREATE, (uuid4(), name, _digest(key))).fetchone()
    except errors.UniqueViolation:
        raise NameTaken(f"another player is called {name!r}") from None
    assert row is not None
    return Player(**row), key


_CREATE = """
    WITH player AS (
        INSERT INTO players (id, name, key_hash) VALUES (%s, %s, %s) RETURNING id, name, created_at, key_hash
    ), logged AS (
        INSERT INTO credential_events (type, player_id, hash, recorded_at)
        SELECT 'PlayerKeyIssued', id, key_hash, created_at FROM player
    )
    SELECT id, name, created_at FROM player
"""


def rotate(conn: Connection[Any], player_id: UUID) -> tuple[Player, str]:
    """The player's new key, shown once; the old one matches no player from the commit on."""
    key = new_key()
    row = conn.execute(_ROTATE, (player_id, _digest(key))).fetchone()
    if row is None:
        raise UnknownPlayer(f"no player {player_id}")
    return Player(**row), key


_ROTATE = """
    WITH new AS (SELECT %s::uuid AS id, %s::bytea AS hash),
    player AS (
        UPDATE players p SET key_hash = new.hash FROM new WHERE p.id = new.id
        RETURNING p.id, p.name, p.created_at
    ), logged AS (
        INSERT INTO credential_events (type, player_id, hash)
        SELECT 'PlayerKeyRotated', new.id, new.hash FROM new WHERE EXISTS (SELECT FROM player)
    )
    SELECT id, name, created_at FROM player
"""


def rename(conn: Connection[Any], player_id: UUID, name: str) -> Player:
    """The player's new name; the seats they took keep the name they had then."""
    try:
        with conn.transaction():
            row = conn.execute(
                "UPDATE players SET name = %s WHERE id = %s RETURNING id, name, created_at", (name, player_id)
            ).fetchone()
    except errors.UniqueViolation:
        raise NameTaken(f"another player is called {name!r}") from None
    if row is None:
        raise UnknownPlayer(f"no player {player_id}")
    return Player(**row)


def by_key(conn: Connection[Any], key: str) -> Player | None:
    row = conn.execute(
        "SELECT id, name, created_at FROM players WHERE key_hash = %s", (_digest(key),)
    ).fetchone()
    return Player(**row) if row else None


def names(conn: Connection[Any], ids: list[UUID]) -> dict[UUID, str]:
    """The names of players ``ids``; raises :class:`UnknownPlayer` naming one that does not exist."""
    rows = conn.execute("SELECT id, name FROM players WHERE id = ANY(%s)", (ids,)).fetchall()
    found = {r["id"]: r["name"] for r in rows}
    missing = [str(i) for i in ids if i not in found]
    if missing:
        raise UnknownPlayer(f"no player {missing[0]}")
    return found


def bind(conn: Connection[Any], game_id: UUID, seat: int, player_id: UUID) -> bool:
    """Bind ``seat`` to ``player_id``; False if it was bound to them already, SeatTaken if to another."""
    try:
        with conn.transaction():
            conn.execute(
                "INSERT INTO game_players (game_id, seat, player_id) VALUES (%s, %s, %s)",
                (game_id, seat, player_id),
            )
        return True
    except errors.UniqueViolation:
        row = conn.execute(
            "SELECT player_id FROM game_players WHERE game_id = %s AND seat = %s", (game_id, seat)
        ).fetchone()
        if row is not None and row["player_id"] == player_id:
            return False
        raise SeatTaken(f"seat {seat} of this game belongs to another player") from None


def seats_of(conn: Connection[Any], game_id: UUID) -> dict[int, UUID]:
    rows = conn.execute("SELECT seat, player_id FROM game_players WHERE game_id = %s", (game_id,))
    return {int(r["seat"]): r["player_id"] for r in rows.fetchall()}


def seat_in(conn: Connection[Any], game_id: UUID, key: str) -> int | None:
    """The seat the player with ``key`` holds in ``game_id`` (the lowest, if several), or ``None``."""
    row = conn.execute(
        "SELECT min(gp.seat) AS seat FROM game_players gp JOIN players p ON p.id = gp.player_id "
        "WHERE gp.game_id = %s AND p.key_hash = %s",
        (game_id, _digest(key)),
    ).fetchone()
    return None if row is None or row["seat"] is None else int(row["seat"])


@dataclass(frozen=True)
class PlayerGame:
    game: GameRow
    seat: int
    your_turn: bool


def games(
    conn: Connection[Any], player_id: UUID, status: str | None, limit: int, offset: int
) -> tuple[list[PlayerGame], int]:
    """The player's seats in games, newest activity first, with whether the game waits on them."""
    columns = ", ".join(f"g.{c.strip()}" for c in lobby._COLUMNS.split(","))
    where = "WHERE gp.player_id = %(player)s AND (%(status)s::text IS NULL OR g.status = %(status)s)"
    params = {"player": player_id, "status": status, "limit": limit, "offset": offset}
    total = conn.execute(
        f"SELECT count(*) AS n FROM game_players gp JOIN games g ON g.id = gp.game_id {where}", params
    ).fetchone()
    rows = conn.execute(
        f"SELECT {columns}, gp.seat AS player_seat, "
        "(g.status = 'active' AND g.to_move @> to_jsonb(gp.seat)) AS your_turn "
        f"FROM game_players gp JOIN games g ON g.id = gp.game_id {where} "
        "ORDER BY g.updated_at DESC, g.id, gp.seat LIMIT %(limit)s OFFSET %(offset)s",
        params,
    ).fetchall()
    out = []
    for r in rows:
        seat, turn = r.pop("player_seat"), r.pop("your_turn")
        out.append(PlayerGame(GameRow(**r), int(seat), bool(turn)))
    return out, int(total["n"]) if total else 0


def profile(conn: Connection[Any], player_id: UUID, recent: int = 10) -> dict[str, Any] | None:
    """What anyone may see of a player: name, games played and recent results (never the key or
    webhooks); ``None`` for no such player."""
    row = conn.execute("SELECT id, name, created_at FROM players WHERE id = %s", (player_id,)).fetchone()
    if row is None:
        return None
    played = conn.execute(
        "SELECT count(*) AS n FROM game_players gp JOIN games g ON g.id = gp.game_id "
        "WHERE gp.player_id = %s AND g.status = 'finished'",
        (player_id,),
    ).fetchone()
    rows = conn.execute(
        "SELECT g.id, g.game, gp.seat, g.rated, g.result, g.updated_at FROM game_players gp "
        "JOIN games g ON g.id = gp.game_id WHERE gp.player_id = %s AND g.status = 'finished' "
        "ORDER BY g.updated_at DESC, g.id LIMIT %s",
        (player_id, recent),
    ).fetchall()
    return {
        **row,
        "games_played": int(played["n"]) if played else 0,
        "recent": [
            {
                "game_id": r["id"],
                "game": r["game"],
                "seat": r["seat"],
                "rated": r["rated"],
                "outcome": outcome(r["result"] or {}, int(r["seat"])),
                "finished_at": r["updated_at"],
            }
            for r in rows
        ],
    }


def outcome(result: dict[str, Any], seat: int) -> str:
    """``won``, ``lost`` or ``left`` (resigned or forfeited) for ``seat`` in a scored result."""
    if any(int(e["seat"]) == seat for e in result.get("ended", [])):
        return "left"
    return "won" if seat in result.get("winners", []) else "lost"
