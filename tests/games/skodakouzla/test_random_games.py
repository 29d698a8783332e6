"""Seeded random games in every variant end cleanly and keep every invariant."""

from __future__ import annotations

import copy
import json
import math
import os
from typing import Any

import pytest

from games import skodakouzla as game
from games.interface import IllegalMove
from games.rng import Rng
from games.simulate import fold, play

from .invariants import check_event, check_redacted, check_score, check_state, check_views

#: Each variant and modification of the rulebook, and the standard game.
VARIANTS: dict[str, list[dict]] = {
    "standard": [{}],
    "income": [{"income": 0}, {"income": 2}, {"income": 3}],
    "two_colours": [{"two_colours": True}, {"two_colours": ["fire", "dark"]}],
    "masters": [{"masters": ["fire", "ice"]}, {"masters": ["forest", "dark"]}, {"masters": ["dark", "dark"]}],
    "shop_topdeck": [{"shop_topdeck": True}],
    "other_freeze": [{"other_freeze": True, "income": 2}, {"other_freeze": True}],
}
GAMES = round(1000 * float(os.environ.get("KOTLIK_SLOW_SCALE", "1")))
CHUNK = 250


def _options(variant: str, i: int) -> dict:
    choices = VARIANTS[variant]
    return dict(choices[i % len(choices)])


def _bots(i: int) -> list[str]:
    return [["random", "random"], ["random", "default"], ["default", "random"], ["random", "random"]][i % 4]


def _play_checked(variant: str, i: int) -> None:
    """One game, every event checked: fold without mutation, JSON round trip, views, legality."""
    seed = f"{variant}-checked-{i}".encode()
    events = game.setup(_options(variant, i), 2, Rng(seed, "setup"))
    state: dict[str, Any] = fold(game, events)
    version = len(events)
    commands = 0
    while not game.is_over(state):
        seat = game.to_move(state)[0]
        actions = game.legal_actions(state, seat)
        assert actions and game.legal_actions(state, 1 - seat) == []
        if commands % 7 == 0:
            for action in actions:
                game.decide(state, seat, action, Rng(seed, "probe"))
            with pytest.raises((IllegalMove,)):
                game.decide(state, seat, {"type": "lay", "card": "nope"}, Rng(seed, "probe"))
        bot = game.BOTS[_bots(i)[seat]]
        command = bot(game.view(state, seat), actions, Rng(seed, f"bot:v{version}"))
        for e in game.decide(state, seat, command, Rng(seed, f"v{version}")):
            frozen = copy.deepcopy(state)
            check_redacted(state, e)
            after = game.evolve(state, e)
            assert state == frozen, "evolve mutated its input"
            assert game.evolve(json.loads(json.dumps(state)), json.loads(json.dumps(e))) == after
            check_event(state, after, e)
            state = after
            version += 1
        check_state(state)
        check_views(state)
        commands += 1
    check_score(state)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("i", range(3))
def test_games_checked_after_every_event(variant: str, i: int) -> None:
    _play_checked(variant, i)


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("chunk", range(math.ceil(GAMES / CHUNK)))
def test_thousand_games_per_variant(variant: str, chunk: int) -> None:
    for i in range(chunk * CHUNK, min(GAMES, (chunk + 1) * CHUNK)):
        match = play(game, _bots(i), f"{variant}-{i}".encode(), _options(variant, i))
        state = match.state
        assert game.is_over(state) and game.to_move(state) == []
        check_state(state)
        check_views(state)
        check_score(state)
