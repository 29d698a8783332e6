"""The end: taking the last card of a row or column; keep it or set it aside, no special action."""

from __future__ import annotations

import pytest

import games.kupferkessel as kk
from games.interface import IllegalMove, NotYourTurn
from games.kupferkessel.content import card_spots, line_spots

from .support import NoRandom, apply, spot, table

EXPLODE = "blue-moss-2"


def column_1_with_only(card: str, deck: list[str] | None = None) -> dict:
    """Column 1 holds only ``card`` (at row 2), the deck is gone; white moves beside it."""
    grid: dict[int, str | None] = {s: None for s in line_spots("col1")}
    grid[spot(2, 1)] = card
    state = table(grid=grid, cauldrons=(["grey-roots-1"], ["brown-toad-1", "brown-toad-3"]), deck=deck or [])
    state, _ = apply(state, 0, {"type": "move", "steps": 1})
    return state


def test_taking_the_last_card_of_a_line_asks_keep_or_set_aside() -> None:
    state = column_1_with_only("purple-creeper-4")
    state, events = apply(state, 0, {"type": "take", "card": "purple-creeper-4"})
    assert events == [
        {
            "type": "CardTaken", "seat": 0, "card": "purple-creeper-4", "line": "col1",
            "row": 2, "col": 1, "last": True, "special": None,
        }
    ]  # fmt: skip
    assert kk.legal_actions(state, 0) == [{"type": "end", "keep": True}, {"type": "end", "keep": False}]
    assert not kk.is_over(state)


def test_keeping_the_last_card_puts_it_in_the_cauldron_and_ends_the_game() -> None:
    state = column_1_with_only("purple-creeper-4")
    state, _ = apply(state, 0, {"type": "take", "card": "purple-creeper-4"})
    state, events = apply(state, 0, {"type": "end", "keep": True})
    assert events == [
        {"type": "CardKept", "seat": 0, "card": "purple-creeper-4"},
        {"type": "GameEnded", "by": 0},
    ]
    assert state["cauldrons"][0][-1] == "purple-creeper-4"
    assert kk.is_over(state) and kk.to_move(state) == [] and kk.legal_actions(state, 1) == []


def test_setting_the_last_card_aside_leaves_it_out_of_the_cauldron() -> None:
    state = column_1_with_only("purple-creeper-4")
    state, _ = apply(state, 0, {"type": "take", "card": "purple-creeper-4"})
    state, events = apply(state, 0, {"type": "end", "keep": False})
    assert events[0] == {"type": "CardSetAside", "seat": 0, "card": "purple-creeper-4"}
    assert state["cauldrons"][0] == ["grey-roots-1"] and state["set_aside"] == ["purple-creeper-4"]
    assert kk.is_over(state) and state["ended_by"] == 0


def test_the_last_card_has_no_special_action() -> None:
    state = column_1_with_only(EXPLODE)
    state, events = apply(state, 0, {"type": "take", "card": EXPLODE})
    assert events[0]["last"] and events[0]["special"] is None
    state, _ = apply(state, 0, {"type": "end", "keep": True})
    assert state["cauldrons"][1] == ["brown-toad-1", "brown-toad-3"]


def test_the_end_decision_must_be_a_boolean() -> None:
    state = column_1_with_only("purple-creeper-4")
    state, _ = apply(state, 0, {"type": "take", "card": "purple-creeper-4"})
    for keep in ("yes", 1, None):
        with pytest.raises(IllegalMove, match="keep"):
            kk.decide(state, 0, {"type": "end", "keep": keep}, NoRandom())


def row_2_with_only_its_column_1_card() -> dict:
    """Row 2 keeps only its inner card at column 1, the deck is gone; white moves beside column 1."""
    grid: dict[int, str | None] = {s: None for s in line_spots("row2")}
    grid[spot(2, 1)] = "purple-creeper-4"
    state = table(grid=grid, cauldrons=(["grey-roots-1"], ["brown-toad-1"]), deck=[])
    state, _ = apply(state, 0, {"type": "move", "steps": 1})
    return state


def test_emptying_only_the_crossing_line_does_not_end_the_game() -> None:
    """GAMES.md: the player who takes the last card of the row or column *they take from* ends the
    game. Taking row 2's last card from column 1 leaves column 1 with cards, so play goes on."""
    state = row_2_with_only_its_column_1_card()
    state, events = apply(state, 0, {"type": "take", "card": "purple-creeper-4"})
    assert events[0]["last"] is False and events[-1] == {
        "type": "TurnEnded",
        "seat": 0,
        "next": 1,
        "extra": False,
    }
    assert not kk.is_over(state) and state["cauldrons"][0][-1] == "purple-creeper-4"
    assert not any(state["grid"][s] for s in line_spots("row2"))


def test_beside_an_emptied_line_the_pawn_takes_nothing_and_the_turn_ends() -> None:
    state = row_2_with_only_its_column_1_card()
    state, _ = apply(state, 0, {"type": "take", "card": "purple-creeper-4"})
    state = {**state, "pawns": [0, 6]}
    state, events = apply(state, 1, {"type": "move", "steps": 1})
    assert events == [
        {
            "type": "PawnMoved",
            "seat": 1,
            "card": "brown-toad-1",
            "steps": 1,
            "from": 6,
            "to": 7,
            "jumped": False,
            "line": "row2",
        },  # fmt: skip
        {"type": "TurnEnded", "seat": 1, "next": 0, "extra": False},
    ]
    assert state["phase"] == "move" and kk.to_move(state) == [0] and not kk.is_over(state)
    assert state["cauldrons"][1] == ["brown-toad-1"]
    with pytest.raises(IllegalMove):
        kk.decide(state, 0, {"type": "take", "card": "purple-creeper-4"}, NoRandom())


def only_row_3_and_4_edge_cards(black_top: str) -> dict:
    """The square holds two cards, reached only from rows 3 and 4; white (top 4) walks from beside
    row 1 with black right behind it."""
    grid: dict[int, str | None] = {s: None for s in card_spots()}
    grid[spot(3, 0)], grid[spot(4, 0)] = "purple-creeper-4", "purple-creeper-3"
    return table(grid=grid, cauldrons=(["grey-roots-4"], [black_top]), pawns=(19, 18), deck=[])


def test_the_game_ends_when_no_pawn_can_ever_reach_a_card_again() -> None:
    """With both tops 4 the walk repeats without ever stopping beside row 3 or 4: nobody can take
    again, so the game ends and nobody took a last card."""
    state, events = apply(only_row_3_and_4_edge_cards("blue-moss-4"), 0, {"type": "move", "steps": 4})
    assert [e["type"] for e in events] == ["PawnMoved", "TurnEnded", "GameEnded"]
    assert events[-1] == {"type": "GameEnded", "by": None}
    assert kk.is_over(state) and state["ended_by"] is None
    assert state["grid"][spot(3, 0)] == "purple-creeper-4"


def test_a_card_still_within_some_walk_keeps_the_game_going() -> None:
    state, events = apply(only_row_3_and_4_edge_cards("blue-moss-1"), 0, {"type": "move", "steps": 4})
    assert events[-1]["type"] == "TurnEnded" and not kk.is_over(state)


def test_a_line_with_cards_left_does_not_end_the_game() -> None:
    grid: dict[int, str | None] = {s: None for s in line_spots("col1")}
    grid[spot(2, 1)], grid[spot(4, 1)] = "purple-creeper-4", "purple-creeper-3"
    state = table(grid=grid, cauldrons=(["grey-roots-1"], ["brown-toad-1"]), deck=[])
    state, _ = apply(state, 0, {"type": "move", "steps": 1})
    state, events = apply(state, 0, {"type": "take", "card": "purple-creeper-4"})
    assert events[0]["last"] is False and events[-1]["type"] == "TurnEnded"


def test_after_the_end_no_command_is_accepted() -> None:
    state = column_1_with_only("purple-creeper-4")
    state, _ = apply(state, 0, {"type": "take", "card": "purple-creeper-4"})
    state, _ = apply(state, 0, {"type": "end", "keep": True})
    for seat in (0, 1):  # nobody may act any more: 409 in every game (issue 16), as over HTTP
        with pytest.raises(NotYourTurn, match="over"):
            kk.decide(state, seat, {"type": "move", "steps": 1}, NoRandom())
