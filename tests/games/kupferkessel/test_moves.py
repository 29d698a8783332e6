"""Moving the pawn: exactly the top card's value in steps, around 20 positions, jumping the other pawn."""

from __future__ import annotations

import pytest

import games.kupferkessel as kk
from games.interface import IllegalMove
from games.kupferkessel.content import line_at, line_spots

from .support import NoRandom, apply, table


def test_twenty_positions_corners_and_lines_clockwise_from_top_left() -> None:
    assert [line_at(p) for p in range(20)] == [
        None, "col1", "col2", "col3", "col4",
        None, "row1", "row2", "row3", "row4",
        None, "col4", "col3", "col2", "col1",
        None, "row4", "row3", "row2", "row1",
    ]  # fmt: skip


def test_each_line_is_six_cards_edge_cards_included() -> None:
    assert line_spots("col1") == (1, 7, 13, 19, 25, 31)
    assert line_spots("row4") == (24, 25, 26, 27, 28, 29)


def test_white_starts_beside_a_corner_opposite_black() -> None:
    state = table()
    assert kk.to_move(state) == [0]
    assert state["pawns"] == [0, 10]


def test_the_only_move_is_the_value_of_the_top_card() -> None:
    state = table(cauldrons=(["grey-roots-1", "blue-moss-3"], ["brown-toad-1"]))
    assert kk.legal_actions(state, 0) == [{"type": "move", "steps": 3}]
    for steps in (1, 2, 4, "3", 3.0, True, None):
        with pytest.raises(IllegalMove, match="exactly 3 steps"):
            kk.decide(state, 0, {"type": "move", "steps": steps}, NoRandom())
    with pytest.raises(IllegalMove):
        kk.decide(state, 0, {"type": "move"}, NoRandom())


def test_a_true_is_not_one_step() -> None:
    state = table(cauldrons=(["grey-roots-1"], ["brown-toad-1"]))
    with pytest.raises(IllegalMove):
        kk.decide(state, 0, {"type": "move", "steps": True}, NoRandom())


def test_clockwise_move_lands_beside_a_column_and_asks_for_a_take() -> None:
    state, events = apply(
        table(cauldrons=(["grey-roots-3"], ["brown-toad-1"])), 0, {"type": "move", "steps": 3}
    )
    assert events == [
        {
            "type": "PawnMoved",
            "seat": 0,
            "card": "grey-roots-3",
            "steps": 3,
            "from": 0,
            "to": 3,
            "jumped": False,
            "line": "col3",
        }  # fmt: skip
    ]
    assert state["pawns"] == [3, 10]
    assert {a["type"] for a in kk.legal_actions(state, 0)} == {"take"}


def test_counterclockwise_option_walks_the_other_way() -> None:
    state = table(cauldrons=(["grey-roots-3"], ["brown-toad-1"]), direction="counterclockwise")
    state, events = apply(state, 0, {"type": "move", "steps": 3})
    assert events[0]["to"] == 17 and events[0]["line"] == "row3"


def test_passing_the_other_pawn_jumps_it_without_counting_the_step() -> None:
    state = table(cauldrons=(["grey-roots-3"], ["brown-toad-1"]), pawns=(0, 2))
    _, events = apply(state, 0, {"type": "move", "steps": 3})
    assert events[0]["to"] == 4 and events[0]["jumped"] is True


def test_no_step_ends_on_the_other_pawn() -> None:
    state = table(cauldrons=(["grey-roots-1"], ["brown-toad-1"]), pawns=(0, 1))
    _, events = apply(state, 0, {"type": "move", "steps": 1})
    assert events[0]["to"] == 2 and events[0]["jumped"] is True


def test_jumping_wraps_around_the_top_left_corner() -> None:
    state = table(cauldrons=(["brown-toad-1"], ["grey-roots-2"]), pawns=(0, 19), turn=1)
    _, events = apply(state, 1, {"type": "move", "steps": 2})
    assert events[0]["from"] == 19 and events[0]["to"] == 2 and events[0]["jumped"]


def test_ending_beside_a_corner_card_ends_the_turn_without_a_card() -> None:
    state = table(cauldrons=(["grey-roots-4"], ["brown-toad-1"]), pawns=(1, 10))
    grid_before = list(state["grid"])
    state, events = apply(state, 0, {"type": "move", "steps": 4})
    assert [e["type"] for e in events] == ["PawnMoved", "TurnEnded"]
    assert events[0]["line"] is None and events[0]["to"] == 5
    assert events[1] == {"type": "TurnEnded", "seat": 0, "next": 1, "extra": False}
    assert state["grid"] == grid_before and state["cauldrons"][0] == ["grey-roots-4"]
    assert kk.to_move(state) == [1]


def test_counterclockwise_walk_jumps_the_other_pawn_too() -> None:
    state = table(cauldrons=(["grey-roots-2"], ["brown-toad-1"]), pawns=(0, 19), direction="counterclockwise")
    _, events = apply(state, 0, {"type": "move", "steps": 2})
    assert events[0]["to"] == 17 and events[0]["jumped"] is True and events[0]["line"] == "row3"
