"""Who sits where: the one place a game's seat requests become its seats.

A seat request is a person (``name``), a bot (``bot``), a player (``player``: their id, bound to
them) or an open seat (``open``: taken later by a player with ``POST /games/{id}/join``). A game
with open seats waits (``status = 'open'``) and is set up when its last seat is taken
(:mod:`commands.openings`). Every seat's record here is what the lobby row and the creation event
hold: ``{seat, name, bot}``, with ``player`` on a seat bound to a player and ``open`` on one still
open; a further per-seat field belongs in :func:`seat_record` and nowhere else.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import Connection

import games
from games.interface import InvalidOptions, Rules
from games.rng import BadEntropy, checked_entropy
from projections import players


class NotSeated(InvalidOptions):
    """A rated or open game whose creator does not sit in it, or a seating rating cannot use (HTTP 422)."""


def seat_record(seat: int, request: dict[str, Any], name: str | None) -> dict[str, Any]:
    """One seat as the lobby and the log keep it; ``entropy`` only on a person's seat that gave some
    (:func:`commands.handlers.keyed` keys the game with it)."""
    record: dict[str, Any] = {"seat": seat, "name": name, "bot": request.get("bot")}
    if request.get("player"):
        record["player"] = str(request["player"])
    if request.get("open"):
        record["open"] = True
    if request.get("entropy") is not None:
        if request.get("bot"):
            raise InvalidOptions(f"seat {seat} is a bot: only a person's seat gives entropy")
        try:
            record["entropy"] = checked_entropy(request["entropy"])
        except BadEntropy as e:
            raise InvalidOptions(f"seat {seat}: {e}") from None
    return record


def seated(
    conn: Connection[Any],
    game: Rules,
    requests: list[dict[str, Any]],
    options: dict[str, Any],
    *,
    rated: bool = False,
    creator: UUID | None = None,
) -> list[dict[str, Any]]:
    """The seats of a new game from the requests, checked (422 before anything is written).

    A rated game or one with open seats needs its ``creator`` (the caller's player key) in one of
    its seats; ``creator`` ``None`` with ``rated`` is the pairing of seeks, whose players each
    asked for their seat. In a rated game every person is a player, nobody sits twice, and no
    automaton sits (a bot the game would not seat against its own kind, as Čarodění's ``ostara``,
    is the solo game's opponent, not a player of the rated pool).
    """
    games.check_seats(game, [seat.get("bot") for seat in requests], options)
    bound = {i: UUID(str(s["player"])) for i, s in enumerate(requests) if s.get("player")}
    opened = any(s.get("open") for s in requests)
    if opened or (rated and creator is not None):
        _check_creator(bound, creator)
    if rated:
        _check_rated(game, requests, bound, options)
    known = players.names(conn, list(set(bound.values()))) if bound else {}
    return [
        seat_record(i, s, s.get("name") or (known[bound[i]] if i in bound else None))
        for i, s in enumerate(requests)
    ]


def _check_creator(bound: dict[int, UUID], creator: UUID | None) -> None:
    if creator is None:
        raise NotSeated("a game with open seats or a rated game is created with its creator's player key")
    if creator not in bound.values():
        raise NotSeated('its creator sits in it: one seat is {"player": <your id>}')
    if set(bound.values()) != {creator}:
        raise NotSeated("the other players take their seats themselves: leave them open")


def _check_rated(
    game: Rules, requests: list[dict[str, Any]], bound: dict[int, UUID], options: dict[str, Any]
) -> None:
    if any(not (s.get("player") or s.get("open") or s.get("bot")) for s in requests):
        raise NotSeated("every person in a rated game is a player: a seat is a player, a bot or open")
    if len(set(bound.values())) != len(bound):
        raise NotSeated("one player takes one seat of a rated game")
    bots = [s["bot"] for s in requests if s.get("bot")]
    if len(set(bots)) != len(bots):
        raise NotSeated("one bot level takes one seat of a rated game: its level is one rated player")
    for bot in set(bots):
        try:
            games.check_seats(game, [bot] * len(requests), options)
        except InvalidOptions:
            raise NotSeated(f"a game against the automaton {bot!r} is not rated") from None


def open_seats(seats: list[dict[str, Any]]) -> list[int]:
    return [s["seat"] for s in seats if s.get("open")]


def holds_seat(seats: list[dict[str, Any]], player: UUID) -> bool:
    return any(s.get("player") == str(player) for s in seats)
