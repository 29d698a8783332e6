"""The rules interface, checked the same way for every game the server hosts.

The platform relies on these properties without knowing any game: ``decide`` refuses bad input
only with the game's own errors and never changes the state it is given; ``legal_actions`` lists
only commands ``decide`` accepts; state, views and events survive JSON; bots answer with a legal
command; and the same seed gives the same game.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from types import ModuleType
from typing import Any

import pytest

import games
from games.interface import GameError, InvalidOptions
from games.rng import Rng
from games.simulate import play

EXPORTS = [
    "INFO",
    "setup",
    "decide",
    "evolve",
    "legal_actions",
    "view",
    "redact",
    "to_move",
    "is_over",
    "score",
    "catalog",
    "BOTS",
]


@pytest.fixture(params=games.known())
def game(request: pytest.FixtureRequest) -> ModuleType:
    return games.load(request.param)


def _seats(game: ModuleType) -> list[str]:
    return ["random"] * max(2, game.INFO.min_seats)


def _started(game: ModuleType, seed: bytes) -> Any:
    state = None
    for event in game.setup({}, len(_seats(game)), Rng(seed, "setup")):
        state = game.evolve(state, event)
    return state


def test_exports_the_whole_interface(game: ModuleType) -> None:
    missing = [name for name in EXPORTS if not hasattr(game, name)]
    assert not missing
    assert {"random", "default"} <= set(game.BOTS)
    assert game.INFO.id == game.__name__.split(".")[-1]
    json.dumps(game.catalog())


@pytest.mark.parametrize("options", [{"no-such-option": True}, {"arranged": "not an arrangement"}])
def test_bad_options_are_refused_as_invalid_options(game: ModuleType, options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        game.setup(options, game.INFO.max_seats, Rng(b"seed", "setup"))


def _mutations(command: dict[str, Any], rng: random.Random) -> list[Any]:
    garbage: list[Any] = [None, -1, 10**9, "", "nonsense", [], {}, [None], {"x": 1}, 3.5, True]
    out: list[Any] = [{}, {"type": None}, {"type": 7}, {"type": "no-such-command"}, [command], "take"]
    for key in command:
        out.append({k: v for k, v in command.items() if k != key})
        out.extend({**command, key: rng.choice(garbage)} for _ in range(3))
    out.append({**command, "unexpected": 1})
    return out


def test_decide_refuses_garbage_cleanly_and_never_mutates_state(game: ModuleType) -> None:
    rng = random.Random(5)
    for n in range(3):
        seed = f"contract-{n}".encode()
        match = play(game, _seats(game), seed)
        settled = set(match.settled[::7])
        state = None
        for i, event in enumerate(match.events, start=1):
            state = game.evolve(state, event)
            if i not in settled or game.is_over(state):
                continue
            frozen = copy.deepcopy(state)
            seat = game.to_move(state)[0]
            for legal in game.legal_actions(state, seat)[:3]:
                for command in _mutations(legal, rng):
                    with contextlib.suppress(GameError):
                        game.decide(state, seat, command, Rng(b"x", "v"))
            assert state == frozen, "decide changed the state it was given"


def test_every_listed_action_is_accepted_and_state_survives_json(game: ModuleType) -> None:
    match = play(game, _seats(game), b"contract")
    settled = set(match.settled[::5])
    state = None
    for i, event in enumerate(match.events, start=1):
        state = game.evolve(state, event)
        assert json.loads(json.dumps(state)) == state, f"state after event {i} is not plain JSON"
        for seat in [None, *range(len(_seats(game)))]:
            json.dumps(game.view(state, seat))
            json.dumps(game.redact(state, event, seat))
        if i in settled and not game.is_over(state):
            seat = game.to_move(state)[0]
            for action in game.legal_actions(state, seat):
                assert game.decide(state, seat, action, Rng(b"x", f"v{i}")), action


def test_the_same_seed_plays_the_same_game(game: ModuleType) -> None:
    seats = ["default", "random"] + ["random"] * (max(2, game.INFO.min_seats) - 2)
    first, again = play(game, seats, b"same"), play(game, seats, b"same")
    assert first.events == again.events
    assert play(game, seats, b"other").events != first.events
    totals = game.score(first.state)
    for seat in totals["seats"]:
        assert seat["total"] == sum(seat["breakdown"].values())


def test_no_seat_may_act_out_of_turn(game: ModuleType) -> None:
    state = _started(game, b"turns")
    movers = game.to_move(state)
    for seat in range(len(_seats(game))):
        if seat not in movers:
            assert game.legal_actions(state, seat) == []
