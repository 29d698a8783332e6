"""A game that waits for players: a player takes an open seat, its creator cancels it, or it expires.

Each is one transaction on the game's lobby row, locked: two players racing for the last seat are
served one after the other, and the second finds the seat taken (409). Taking a seat appends
``kotlik.SeatTaken``; taking the last one also runs setup from the seed committed at creation and
starts the game (its first deadline, a bot's first turn) in the same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from psycopg import Connection
from psycopg.types.json import Jsonb

from commands import handlers, seating, writes
from events import NewEvent, StoredEvent, append
from events.outbox import Queued
from games.interface import GameError
from projections import lobby, players
from projections.caches import Caches
from projections.fold import Folded, fold
from projections.openings import CANCELLED, EXPIRED, TAKEN


class SeatsClosed(GameError):
    """The seat cannot be taken: the game started, was cancelled or expired, or the seat is taken (409)."""


class NotCreator(GameError):
    """Only the player who opened a game may cancel it (HTTP 403)."""


@dataclass(frozen=True)
class Joined:
    game: lobby.GameRow
    seat: int
    #: Whether this seat was the last: the game is set up and running.
    started: bool
    queued: list[Queued]


_WHY = {
    "active": "the game has started: its seats are all taken",
    "scoring": "the game is over",
    "finished": "the game is over",
    "cancelled": "its creator cancelled the game",
    "expired": "the game expired before its seats were taken",
}


def join(
    conn: Connection[Any],
    game_id: UUID,
    player: players.Player,
    seat: int | None = None,
    *,
    entropy: str | None = None,
    caches: Caches | None = None,
) -> Joined:
    """``player`` takes ``seat`` (or the first open one) of a game waiting for players, giving
    ``entropy`` (64 hex digits) to the game's key if they like: setup has not run yet."""
    caches = caches or Caches.none()
    with conn.transaction():
        row = lobby.get(conn, game_id, lock=True, secret=True)
        if row.status != "open":
            raise SeatsClosed(_WHY[row.status])
        free = seating.open_seats(row.seats)
        seat = free[0] if seat is None else seat
        if seat not in free:
            raise SeatsClosed(f"seat {seat} is not open; open seats: {free}")
        if row.rated and seating.holds_seat(row.seats, player.id):
            raise SeatsClosed("you hold a seat of this rated game already: one player, one seat")
        record = seating.seat_record(seat, {"player": player.id, "entropy": entropy}, player.name)
        seats = [record if s["seat"] == seat else s for s in row.seats]
        game = row.rules
        meta = {"rules_version": game.INFO.rules_version}
        given = {"entropy": record["entropy"]} if "entropy" in record else {}
        taken = NewEvent(TAKEN, {"seat": seat, "player": str(player.id), "name": player.name, **given}, meta)
        version = append(conn, game_id, row.version, [taken])[-1].version
        # No seat token: the player's key plays the seat (a token issued later is a reissue,
        # commands.credentials, which every process's remembered tokens are checked by).
        players.bind(conn, game_id, seat, player.id)
        started = not seating.open_seats(seats)
        conn.execute(
            "UPDATE games SET seats = %s, version = %s, status = %s, updated_at = now() WHERE id = %s",
            (Jsonb(seats), version, "active" if started else "open", game_id),
        )
        queued: list[Queued] = []
        opened: tuple[Folded, list[StoredEvent]] | None = None
        if started:
            opened, queued = _start(conn, replace(row, seats=seats, version=version))
        now = lobby.get(conn, game_id, secret=started)
    if opened is not None:  # known here from now on, as after a game's creation
        caches.states.put(game_id, opened[0], opened[1], row=now)
    return Joined(replace(now, seed=None), seat, started, queued)


def _start(
    conn: Connection[Any], row: lobby.GameRow
) -> tuple[tuple[Folded, list[StoredEvent]], list[Queued]]:
    """Set the game up now that its seats are taken: as :func:`commands.create_game` would have."""
    game, seed = row.rules, row.seed
    assert seed is not None
    opening = handlers.set_up(game, row.options, row.seats, seed)
    meta = {"rules_version": game.INFO.rules_version}
    events = [NewEvent(e["type"], {k: v for k, v in e.items() if k != "type"}, meta) for e in opening]
    after = Folded(fold(game, opening), row.version + len(events))
    arranged = bool(opening and opening[0].get("arranged"))
    step = handlers.step_of(
        row.id, game, row.seats, row.version, events, after, clock=row.clock, arranged=arranged
    )
    stored, queued = writes.save(conn, step)
    return (after, stored), queued


def cancel(conn: Connection[Any], game_id: UUID, player: players.Player) -> lobby.GameRow:
    """Its creator cancels a game that still waits for players."""
    with conn.transaction():
        row = lobby.get(conn, game_id, lock=True)
        if row.creator != player.id:
            raise NotCreator("only the player who opened this game may cancel it")
        if row.status != "open":
            raise SeatsClosed(_WHY[row.status])
        _close(conn, row, CANCELLED, "cancelled")
        return lobby.get(conn, game_id)


def expire_due(conn: Connection[Any], limit: int = 500) -> int:
    """Close the open games whose time to wait for players has run out; how many."""
    due = conn.execute(
        "SELECT id FROM games WHERE status = 'open' AND expires_at <= now() ORDER BY expires_at LIMIT %s",
        (limit,),
    ).fetchall()
    closed = 0
    for r in due:
        with conn.transaction():
            row = lobby.get(conn, r["id"], lock=True)
            if row.status == "open" and row.expires_at is not None:
                _close(conn, row, EXPIRED, "expired")
                closed += 1
    return closed


def _close(conn: Connection[Any], row: lobby.GameRow, kind: str, status: str) -> None:
    meta = {"rules_version": row.rules_version}
    version = append(conn, row.id, row.version, [NewEvent(kind, {}, meta)])[-1].version
    conn.execute(
        "UPDATE games SET version = %s, status = %s, updated_at = now() WHERE id = %s",
        (version, status, row.id),
    )
