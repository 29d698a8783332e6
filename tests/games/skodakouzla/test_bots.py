"""The bots choose legal commands from their own view; the default bot beats the random one."""

from __future__ import annotations

import pytest

from games import skodakouzla as game
from games.simulate import play


def test_bots_are_registered() -> None:
    assert {"random", "default"} <= set(game.BOTS)


@pytest.mark.parametrize("bots", [["default", "default"], ["random", "default"]])
def test_bots_play_whole_games(bots: list[str]) -> None:
    match = play(game, bots, b"bots", {})
    assert game.is_over(match.state)


@pytest.mark.slow
def test_default_beats_random_in_80_percent_of_200_games() -> None:
    wins = 0
    for i in range(200):
        seats = ["default", "random"] if i % 2 == 0 else ["random", "default"]
        match = play(game, seats, f"duel-{i}".encode(), {})
        wins += match.state["winner"] == seats.index("default")
    assert wins >= 160, wins
