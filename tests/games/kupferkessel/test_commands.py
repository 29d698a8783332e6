"""Command validation and the purity of decide and evolve."""

from __future__ import annotations

import copy
import json

import pytest

import games.kupferkessel as kk
from games.interface import IllegalMove, NotYourTurn

from .support import NoRandom, apply, spot, table


def test_only_the_seat_to_move_may_act() -> None:
    state = table()
    assert kk.legal_actions(state, 1) == []
    with pytest.raises(NotYourTurn, match="white"):
        kk.decide(state, 1, {"type": "move", "steps": 2}, NoRandom())


@pytest.mark.parametrize("command", [None, [], "move", {"steps": 3}, {"type": 5}])
def test_a_command_is_an_object_with_a_type(command: object) -> None:
    with pytest.raises(IllegalMove, match="type"):
        kk.decide(table(), 0, command, NoRandom())


def test_unknown_commands_are_refused_naming_the_real_ones() -> None:
    with pytest.raises(IllegalMove, match="move, take, explode, play_again, decline, end"):
        kk.decide(table(), 0, {"type": "draw"}, NoRandom())


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(IllegalMove, match="only the fields type, steps"):
        kk.decide(table(), 0, {"type": "move", "steps": 3, "card": "x"}, NoRandom())


@pytest.mark.parametrize(
    "command, rule",
    [
        ({"type": "take", "card": "grey-roots-4"}, "first move"),
        ({"type": "explode"}, "first move"),
        ({"type": "play_again"}, "first move"),
        ({"type": "decline"}, "first move"),
        ({"type": "end", "keep": True}, "first move"),
    ],
)
def test_commands_out_of_turn_order_are_refused(command: dict, rule: str) -> None:
    with pytest.raises(IllegalMove, match=rule):
        kk.decide(table(), 0, command, NoRandom())


def test_moving_twice_is_refused() -> None:
    state, _ = apply(table(), 0, {"type": "move", "steps": 3})
    with pytest.raises(IllegalMove, match="take a card"):
        kk.decide(state, 0, {"type": "move", "steps": 3}, NoRandom())


def test_decide_and_evolve_leave_the_state_alone_and_survive_json() -> None:
    state = table(
        grid={spot(3, 3): "blue-moss-2"}, cauldrons=(["grey-roots-3"], ["brown-toad-1", "brown-toad-4"])
    )
    before = copy.deepcopy(state)
    for command in (
        {"type": "move", "steps": 3},
        {"type": "take", "card": "blue-moss-2"},
        {"type": "explode"},
    ):
        events = kk.decide(state, 0, command, NoRandom())
        assert state == before
        new = state
        for event in events:
            snapshot = copy.deepcopy(new)
            folded = kk.evolve(new, event)
            assert new == snapshot
            assert kk.evolve(json.loads(json.dumps(new)), json.loads(json.dumps(event))) == folded
            new = folded
        state, before = new, copy.deepcopy(new)
    assert state["cauldrons"][1] == ["brown-toad-1"]
