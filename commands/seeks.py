"""Quick pairing: a player seeks a game; seeks that fit are paired at once into a new game.

Seeks fit when they ask for the same game, seat count, rated or casual and clock (their
*bucket*). Every write on a bucket's seeks (placing one, the pairing it makes, a cancel, an expiry
or a bot fallback) first takes the bucket's transaction-scoped advisory lock, so two seekers
racing for one waiting seek are served one after the other and no seek is paired twice; the
pairing, the new game and every seek's ``SeekPaired`` are one transaction, so a pairing that fails
half-way leaves no game and every seek as it was. A player is never paired with themselves: the
partners are other players' seeks, one a player.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID, uuid4

from psycopg import Connection

from commands.handlers import Created, create_game
from events.outbox import Queued
from games.interface import GameError
from projections import players, seeks, webhooks
from projections.caches import Caches
from projections.seeks import Seek

#: How many waiting seeks a player may hold at once.
MAX_WAITING = 3
#: Seconds a seek waits for partners unless its player says otherwise: an hour.
SEEK_FOR = 3600.0


class TooManySeeks(GameError):
    """The player holds :data:`MAX_WAITING` waiting seeks already (HTTP 429)."""


class SeekClosed(GameError):
    """The seek was paired, cancelled or has expired: it cannot be cancelled (HTTP 409)."""


class SeekNotFound(LookupError):
    """No seek of the caller's has this id (HTTP 404)."""


@dataclass(frozen=True)
class Placed:
    seek: Seek
    #: The game the seek was paired into at once, if it was.
    created: Created | None = None
    queued: list[Queued] = field(default_factory=list)


def place(
    conn: Connection[Any],
    player: players.Player,
    request: dict[str, Any],
    *,
    caches: Caches | None = None,
) -> Placed:
    """Place ``request`` (``game``, ``seats``, ``rated``, ``clock``, ``fallback``, ``expires_in``)
    for ``player`` and pair it at once if other players' waiting seeks fit it."""
    data = {
        "player": str(player.id),
        "game": request["game"],
        "seats": int(request["seats"]),
        "rated": bool(request["rated"]),
        "clock": request.get("clock"),
        "fallback": request.get("fallback"),
        "expires_in": float(request.get("expires_in") or SEEK_FOR),
    }
    with conn.transaction():
        _lock(conn, f"player:{player.id}")
        if seeks.waiting_of(conn, player.id) >= MAX_WAITING:
            raise TooManySeeks(f"you hold {MAX_WAITING} waiting seeks already; cancel one or wait")
        _lock(conn, bucket(data))
        seek = seeks.append(conn, uuid4(), seeks.PLACED, data)
        others = seeks.partners(conn, data, player.id, seek.seats - 1)
        if len(others) < seek.seats - 1:
            return Placed(seek)
        created, queued = _pair(conn, [*others, seek], caches)
        return Placed(seeks.get(conn, seek.id) or seek, created, queued)


def _pair(conn: Connection[Any], paired: list[Seek], caches: Caches | None) -> tuple[Created, list[Queued]]:
    """One new game of the seeks' players, oldest seek first; each seek paired into it."""
    first = paired[0]
    created = create_game(
        conn,
        first.game,
        [{"player": s.player_id} for s in paired],
        {},
        clock=first.clock,
        rated=first.rated,
        caches=caches,
    )
    return created, _paired(conn, created, paired)


def _paired(conn: Connection[Any], created: Created, paired: list[Seek]) -> list[Queued]:
    game_id = created.game.id
    for s in paired:
        seeks.append(conn, s.id, seeks.PAIRED, {"game_id": str(game_id)})
    body = {"game_id": str(game_id), "game": created.game.kind}
    waiting = [seat for seat, s in enumerate(paired) if s is not paired[-1]]
    return [*created.queued, *webhooks.announce(conn, game_id, "paired", body, waiting or None)]


def cancel(conn: Connection[Any], seek_id: UUID, player: players.Player) -> Seek:
    """The player cancels a seek of theirs that still waits."""
    with conn.transaction():
        seek = seeks.get(conn, seek_id)
        if seek is None or seek.player_id != player.id:
            raise SeekNotFound(f"you have no seek {seek_id}")
        _lock(conn, bucket(_request(seek)))
        seek = seeks.get(conn, seek_id, lock=True)
        assert seek is not None
        if seek.status != "waiting":
            raise SeekClosed(f"the seek is {seek.status}")
        return seeks.append(conn, seek_id, seeks.CANCELLED, {})


def tick(conn: Connection[Any], *, caches: Caches | None = None) -> list[Queued]:
    """Expire the seeks whose time ran out and pair those whose bot fallback is due with their bot."""
    queued: list[Queued] = []
    for found in seeks.due(conn):
        with conn.transaction():
            _lock(conn, bucket(_request(found)))
            seek = seeks.get(conn, found.id, lock=True)
            if seek is None or seek.status != "waiting":
                continue
            late = conn.execute(
                "SELECT %s <= now() AS expired, created_at + make_interval(secs => %s) <= now() AS fall "
                "FROM seeks WHERE id = %s",
                (seek.expires_at, float((seek.fallback or {}).get("after", 0)), seek.id),
            ).fetchone()
            assert late is not None
            if seek.fallback is not None and late["fall"]:
                try:
                    with conn.transaction():
                        queued += _fall_back(conn, seek, caches)
                except GameError:  # the bot can no longer sit (the rules changed): the seek ends
                    seeks.append(conn, seek.id, seeks.EXPIRED, {"fallback": "refused"})
            elif late["expired"]:
                seeks.append(conn, seek.id, seeks.EXPIRED, {})
    return queued


def _fall_back(conn: Connection[Any], seek: Seek, caches: Caches | None) -> list[Queued]:
    """A game against the seek's chosen bot, which fills every other seat."""
    assert seek.fallback is not None
    bot = seek.fallback["bot"]
    seats = [{"player": seek.player_id}, *({"name": bot, "bot": bot} for _ in range(seek.seats - 1))]
    created = create_game(conn, seek.game, seats, {}, clock=seek.clock, rated=seek.rated, caches=caches)
    seeks.append(conn, seek.id, seeks.PAIRED, {"game_id": str(created.game.id), "bot": bot})
    body = {"game_id": str(created.game.id), "game": seek.game, "bot": bot}
    return [*created.queued, *webhooks.announce(conn, created.game.id, "paired", body, [0])]


def bucket(request: dict[str, Any]) -> str:
    """What seeks must agree on to be paired."""
    clock = json.dumps(request.get("clock"), sort_keys=True)
    return f"seek:{request['game']}:{request['seats']}:{bool(request['rated'])}:{clock}"


def _request(seek: Seek) -> dict[str, Any]:
    return {"game": seek.game, "seats": seek.seats, "rated": seek.rated, "clock": seek.clock}


def _lock(conn: Connection[Any], name: str) -> None:
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (name,))
