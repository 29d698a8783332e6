"""The bots: legal, blind to what their seat may not see, and ``default`` stronger than ``random``."""

from __future__ import annotations

from typing import Any

import pytest

import games.kupferkessel as kk
from games.rng import Rng
from games.simulate import play

from .support import new_game, spot, table

MATCHES = 200


def _wins(options: dict[str, Any]) -> int:
    wins = 0
    for i in range(MATCHES):
        me = i % 2
        bots = ("default", "random") if me == 0 else ("random", "default")
        match = play(kk, bots, f"bots-{i}".encode(), options)
        if kk.score(match.state)["winners"] == [me]:
            wins += 1
    return wins


@pytest.mark.slow
def test_default_beats_random_in_at_least_80_percent_of_200_games() -> None:
    assert _wins({}) >= 0.8 * MATCHES


@pytest.mark.slow
def test_default_beats_random_in_the_advanced_game_too() -> None:
    assert _wins({"recipes": True}) >= 0.8 * MATCHES


@pytest.mark.parametrize("name", ["random", "default"])
def test_bots_choose_a_listed_action_from_their_own_view(name: str) -> None:
    state = new_game()
    actions = kk.legal_actions(state, 0)
    assert kk.BOTS[name](kk.view(state, 0), actions, Rng(b"b", "bot:v5")) in actions


def test_default_bot_uses_specials() -> None:
    view = kk.view(new_game(), 0)
    bot = kk.BOTS["default"]
    explode = [{"type": "explode"}, {"type": "decline"}]
    assert bot(view, explode, Rng(b"b", "x")) == {"type": "explode"}
    again = [{"type": "play_again"}, {"type": "decline"}]
    assert bot(view, again, Rng(b"b", "x")) == {"type": "play_again"}


def test_default_bot_keeps_a_last_card_that_joins_its_top_and_drops_a_sure_single() -> None:
    creepers = {
        spot(1, 1): "purple-creeper-1",
        spot(1, 2): "purple-creeper-2",
        spot(1, 3): "purple-creeper-3",
    }
    end = [{"type": "end", "keep": True}, {"type": "end", "keep": False}]
    bot = kk.BOTS["default"]
    joins = table(
        grid=creepers, cauldrons=(["grey-roots-3"], ["blue-moss-1"]), phase="end", pending="grey-roots-4"
    )
    assert bot(kk.view(joins, 0), end, Rng(b"b", "x")) == {"type": "end", "keep": True}
    single = table(
        grid=creepers, cauldrons=(["grey-roots-3"], ["blue-moss-1"]), phase="end", pending="purple-creeper-4"
    )
    assert bot(kk.view(single, 0), end, Rng(b"b", "x")) == {"type": "end", "keep": False}
