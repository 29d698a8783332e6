"""Seatings the rules forbid are refused before a game is set up, through the one shared check
(``games.check_seats``): the seat count, unknown bots, and each game's own rules of who sits where."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

import games
from games.interface import InvalidOptions
from games.rng import Rng


@pytest.fixture(params=games.known())
def game(request: pytest.FixtureRequest) -> ModuleType:
    return games.load(request.param)


def test_the_default_bots_sit_at_every_seat_count(game: ModuleType) -> None:
    for seats in range(game.INFO.min_seats, game.INFO.max_seats + 1):
        bots: list[str | None] = [None, *["default"] * (seats - 1)]
        games.check_seats(game, bots, {})
        assert game.setup({}, seats, Rng(b"seats", "setup"))


def test_a_seat_count_outside_the_game_is_refused(game: ModuleType) -> None:
    for seats in (game.INFO.min_seats - 1, game.INFO.max_seats + 1):
        with pytest.raises(InvalidOptions, match="seats"):
            games.check_seats(game, [None] * seats, {})


def test_an_unknown_bot_is_refused_naming_the_bots(game: ModuleType) -> None:
    with pytest.raises(InvalidOptions, match="default"):
        games.check_seats(game, [None, "no-such-bot"], {})


carodeni = games.load("carodeni")
SOLO: dict[str, Any] = {"solo": True, "difficulty": "experienced"}


@pytest.mark.parametrize(
    "bots",
    [[None, "ostara"], ["default", "ostara"], ["random", "ostara"]],
    ids=["a person against Ostara", "the default bot against Ostara", "the random bot against Ostara"],
)
def test_solo_seats_the_player_first_and_ostara_second(bots: list[str | None]) -> None:
    games.check_seats(carodeni, bots, SOLO)


@pytest.mark.parametrize(
    "bots, rule",
    [
        (["ostara", None], "Ostara at seat 1"),
        ([None, None], "Ostara at seat 1"),
        ([None, "default"], "Ostara at seat 1"),
        (["ostara", "ostara"], "only Ostara's seat"),
    ],
    ids=["Ostara listed first", "two people", "a player's bot in Ostara's seat", "Ostara in both seats"],
)
def test_solo_refuses_a_person_in_ostaras_seat_and_ostara_in_the_players(
    bots: list[str | None], rule: str
) -> None:
    with pytest.raises(InvalidOptions, match=rule):
        games.check_seats(carodeni, bots, SOLO)


@pytest.mark.parametrize("bots", [[None, "ostara"], ["ostara", None, "default"]])
def test_ostara_plays_only_in_the_solo_game(bots: list[str | None]) -> None:
    with pytest.raises(InvalidOptions, match="solo game only"):
        games.check_seats(carodeni, bots, {})
