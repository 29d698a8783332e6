"""``decide`` accepts exactly ``legal_actions``: every offered body, and no mutated one that is not
offered (compared as JSON, where ``true`` is not ``1``); malformed commands fail with IllegalMove
only, another seat's with NotYourTurn."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import skodakouzla as game
from games.interface import IllegalMove, NotYourTurn
from games.rng import Rng

from .support import new_game, put

JUNK: list[Any] = [
    None,
    0,
    1,
    -1,
    True,
    False,
    0.0,
    1.0,
    "left",
    "right",
    "wizard",
    "x",
    [],
    ["a"],
    [["a"]],
    {},
    "p0.01",
    "s01",
    "fire",
    2.5,
]
FIELDS = ["card", "end", "from", "target", "option", "top", "cards", "colour", "type"]


def _mutations(action: dict[str, Any], state: dict, rng: Rng) -> list[dict[str, Any]]:
    uids = list(state["cards"])
    out = []
    for _ in range(6):
        cmd = dict(action)
        key = FIELDS[rng.randbelow(len(FIELDS))]
        pool = JUNK + [uids[rng.randbelow(len(uids))]]
        if rng.randbelow(4) == 0 and key in cmd and key != "type":
            del cmd[key]
        else:
            cmd[key] = pool[rng.randbelow(len(pool))]
        out.append(cmd)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_decide_accepts_exactly_the_legal_actions(seed: int) -> None:
    rng = Rng(f"fuzz-{seed}".encode(), "fuzz")
    choices: list[dict[str, Any]] = [{}, {"shop_topdeck": True}, {"masters": ["fire", "dark"]}]
    options = choices[seed % 3]
    state = new_game(options, seed=f"fuzz-{seed}".encode())
    bots = ["random", "default"]
    steps = 0
    while not game.is_over(state) and steps < 400:
        seat = game.to_move(state)[0]
        actions = game.legal_actions(state, seat)
        listed = {json.dumps(a, sort_keys=True) for a in actions}
        for action in actions[:: max(1, len(actions) // 8)]:
            for cmd in _mutations(action, state, rng):
                try:
                    game.decide(state, seat, cmd, Rng(b"f", "v"))
                except IllegalMove:
                    continue
                assert json.dumps(cmd, sort_keys=True) in listed, cmd
        with pytest.raises(NotYourTurn):
            game.decide(state, 1 - seat, actions[0], Rng(b"f", "v"))
        command = game.BOTS[bots[steps % 2]](game.view(state, seat), actions, rng)
        for e in game.decide(state, seat, command, Rng(b"f", f"v{steps}")):
            state = game.evolve(state, e)
        steps += 1


@pytest.mark.parametrize("option", [0.0, 1.0, -0.0, True, False, "0", None])
def test_a_creatures_option_must_be_an_integer(option: Any) -> None:
    """``0.0`` once crashed with TypeError and ``true`` was taken as option 1 (Python's
    ``True == 1``) although ``legal_actions`` never lists it: both are IllegalMove."""
    state = new_game()
    knez = put(state, 0, "knez")
    state["players"][0]["curses"] = 2
    state["phase"], state["pending"] = "effects", [knez]
    assert {a["option"] for a in game.legal_actions(state, 0)} == {0, 1}
    for extra in ({}, {"from": "left"}):
        with pytest.raises(IllegalMove):
            game.decide(
                state, 0, {"type": "resolve", "card": knez, "option": option, **extra}, Rng(b"f", "v")
            )
