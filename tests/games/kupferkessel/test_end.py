"""The end: taking the last card of a row or column; keep it or set it aside, no special action."""

from __future__ import annotations

import pytest

import games.kupferkessel as kk
from games.interface import IllegalMove
from games.kupferkessel.content import line_spots

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


def test_emptying_the_crossing_line_also_ends_the_game() -> None:
    """Row 2 keeps only its inner card at column 1: taking it from column 1 removes the last card
    of a line ("poslední kartu nějaké řady"), so the game ends although column 1 is not empty."""
    grid: dict[int, str | None] = {s: None for s in line_spots("row2")}
    grid[spot(2, 1)] = "purple-creeper-4"
    state = table(grid=grid, cauldrons=(["grey-roots-1"], ["brown-toad-1"]), deck=[])
    state, _ = apply(state, 0, {"type": "move", "steps": 1})
    state, events = apply(state, 0, {"type": "take", "card": "purple-creeper-4"})
    assert events[0]["last"] is True
    assert any(state["grid"][s] for s in line_spots("col1"))


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
    for seat in (0, 1):
        with pytest.raises(IllegalMove, match="over"):
            kk.decide(state, seat, {"type": "move", "steps": 1}, NoRandom())
