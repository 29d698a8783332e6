"""Taking a card, the special symbols, refilling the square and passing the turn."""

from __future__ import annotations

from typing import Any

import pytest

import games.kupferkessel as kk
from games.interface import IllegalMove
from games.kupferkessel.content import line_spots

from .support import NoRandom, apply, spot, table

EXPLODE = "blue-moss-2"
HAT = "green-snake-skin-2"


def at_column_1(**kw: Any) -> dict:
    """White's pawn beside column 1 with a top card of value 1, moving from the top-left corner."""
    kw.setdefault("cauldrons", (["grey-roots-1"], ["brown-toad-1", "brown-toad-3"]))
    state = table(**kw)  # type: ignore[arg-type]
    state, _ = apply(state, 0, {"type": "move", "steps": 1})
    return state


def test_take_offers_every_card_of_the_line_edge_cards_included() -> None:
    state = at_column_1()
    offered = [a["card"] for a in kk.legal_actions(state, 0)]
    assert offered == [state["grid"][s] for s in line_spots("col1")]
    assert state["grid"][spot(0, 1)] in offered and state["grid"][spot(5, 1)] in offered


def test_a_card_of_another_line_cannot_be_taken() -> None:
    state = at_column_1()
    with pytest.raises(IllegalMove, match="column 1"):
        kk.decide(state, 0, {"type": "take", "card": state["grid"][spot(1, 2)]}, NoRandom())
    with pytest.raises(IllegalMove):
        kk.decide(state, 0, {"type": "take", "card": 7}, NoRandom())


def test_taken_card_covers_the_cauldron_and_the_deck_refills_the_spot() -> None:
    state = at_column_1(grid={spot(2, 1): "purple-creeper-4"})
    top_of_deck = state["deck"][0]
    state, events = apply(state, 0, {"type": "take", "card": "purple-creeper-4"})
    assert [e["type"] for e in events] == ["CardTaken", "SpotRefilled", "TurnEnded"]
    assert events[0] == {
        "type": "CardTaken", "seat": 0, "card": "purple-creeper-4", "line": "col1",
        "row": 2, "col": 1, "last": False, "special": None,
    }  # fmt: skip
    assert events[1] == {"type": "SpotRefilled", "row": 2, "col": 1, "card": top_of_deck}
    assert state["cauldrons"][0] == ["grey-roots-1", "purple-creeper-4"]
    assert state["grid"][spot(2, 1)] == top_of_deck and top_of_deck not in state["deck"]
    assert kk.to_move(state) == [1]
    assert kk.legal_actions(state, 1) == [{"type": "move", "steps": 3}]


def test_with_the_deck_gone_the_spot_stays_empty() -> None:
    state = at_column_1(grid={spot(2, 1): "purple-creeper-4"}, deck=[])
    state, events = apply(state, 0, {"type": "take", "card": "purple-creeper-4"})
    assert [e["type"] for e in events] == ["CardTaken", "TurnEnded"]
    assert state["grid"][spot(2, 1)] is None


def test_exploding_cauldron_sends_the_opponents_top_card_under_the_deck() -> None:
    state = at_column_1(grid={spot(2, 1): EXPLODE})
    deck = list(state["deck"])
    state, events = apply(state, 0, {"type": "take", "card": EXPLODE})
    assert events[0]["special"] == "explode" and len(events) == 1
    assert kk.legal_actions(state, 0) == [{"type": "explode"}, {"type": "decline"}]
    assert kk.legal_actions(state, 1) == []
    state, events = apply(state, 0, {"type": "explode"})
    assert events[0] == {
        "type": "CauldronExploded",
        "seat": 0,
        "victim": 1,
        "card": "brown-toad-3",
        "to": "deck",
    }
    assert state["cauldrons"][1] == ["brown-toad-1"]
    assert events[1] == {"type": "SpotRefilled", "row": 2, "col": 1, "card": deck[0]}
    assert state["deck"] == deck[1:] + ["brown-toad-3"]
    assert kk.to_move(state) == [1]


def test_exploding_with_no_deck_puts_the_card_out_of_the_game() -> None:
    state = at_column_1(grid={spot(2, 1): EXPLODE}, deck=[])
    state, _ = apply(state, 0, {"type": "take", "card": EXPLODE})
    state, events = apply(state, 0, {"type": "explode"})
    assert events[0]["to"] == "removed" and "brown-toad-3" in state["removed"]
    assert state["deck"] == [] and state["grid"][spot(2, 1)] is None


def test_a_cauldron_of_one_card_cannot_explode() -> None:
    state = at_column_1(grid={spot(2, 1): EXPLODE}, cauldrons=(["grey-roots-1"], ["brown-toad-1"]))
    state, events = apply(state, 0, {"type": "take", "card": EXPLODE})
    assert events[0]["special"] is None and events[-1]["type"] == "TurnEnded"
    assert state["cauldrons"][1] == ["brown-toad-1"]


def test_a_special_action_may_be_declined() -> None:
    state = at_column_1(grid={spot(2, 1): EXPLODE})
    state, _ = apply(state, 0, {"type": "take", "card": EXPLODE})
    state, events = apply(state, 0, {"type": "decline"})
    assert events[0] == {"type": "SpecialDeclined", "seat": 0, "card": EXPLODE, "special": "explode"}
    assert state["cauldrons"][1] == ["brown-toad-1", "brown-toad-3"]
    assert kk.to_move(state) == [1]


def test_the_wrong_special_is_refused() -> None:
    state = at_column_1(grid={spot(2, 1): EXPLODE})
    state, _ = apply(state, 0, {"type": "take", "card": EXPLODE})
    with pytest.raises(IllegalMove, match="symbol"):
        kk.decide(state, 0, {"type": "play_again"}, NoRandom())
    with pytest.raises(IllegalMove, match="special symbol"):
        kk.decide(state, 0, {"type": "move", "steps": 2}, NoRandom())


def test_wand_and_hat_give_another_turn_after_the_refill() -> None:
    state = at_column_1(grid={spot(2, 1): HAT})
    state, events = apply(state, 0, {"type": "take", "card": HAT})
    assert kk.legal_actions(state, 0) == [{"type": "play_again"}, {"type": "decline"}]
    state, events = apply(state, 0, {"type": "play_again"})
    assert [e["type"] for e in events] == ["ExtraTurnGranted", "SpotRefilled", "TurnEnded"]
    assert events[-1] == {"type": "TurnEnded", "seat": 0, "next": 0, "extra": True}
    assert kk.to_move(state) == [0]
    assert kk.legal_actions(state, 0) == [{"type": "move", "steps": 2}]


def test_never_more_than_two_turns_in_a_row() -> None:
    second_hat = "brown-mushrooms-2"
    state = at_column_1(grid={spot(2, 1): HAT, spot(1, 3): second_hat})
    state, _ = apply(state, 0, {"type": "take", "card": HAT})
    state, _ = apply(state, 0, {"type": "play_again"})
    state, _ = apply(state, 0, {"type": "move", "steps": 2})
    assert state["pawns"][0] == 3
    state, events = apply(state, 0, {"type": "take", "card": second_hat})
    assert events[0]["special"] is None
    assert events[-1] == {"type": "TurnEnded", "seat": 0, "next": 1, "extra": False}
    assert kk.to_move(state) == [1]


def test_exploding_still_works_on_an_extra_turn() -> None:
    state = at_column_1(grid={spot(2, 1): HAT, spot(1, 3): EXPLODE})
    state, _ = apply(state, 0, {"type": "take", "card": HAT})
    state, _ = apply(state, 0, {"type": "play_again"})
    state, _ = apply(state, 0, {"type": "move", "steps": 2})
    state, events = apply(state, 0, {"type": "take", "card": EXPLODE})
    assert events[0]["special"] == "explode"


def test_declining_the_hat_passes_the_turn() -> None:
    state = at_column_1(grid={spot(2, 1): HAT})
    state, _ = apply(state, 0, {"type": "take", "card": HAT})
    state, events = apply(state, 0, {"type": "decline"})
    assert events[-1] == {"type": "TurnEnded", "seat": 0, "next": 1, "extra": False}


def test_an_extra_turn_ending_beside_a_corner_passes_the_turn_and_the_hat_works_again() -> None:
    second_hat = "brown-mushrooms-2"
    state = table(
        grid={spot(2, 3): HAT, spot(2, 4): second_hat},
        cauldrons=(["grey-roots-1"], ["brown-toad-1"]),
        pawns=(2, 10),
    )
    state, _ = apply(state, 0, {"type": "move", "steps": 1})
    state, _ = apply(state, 0, {"type": "take", "card": HAT})
    state, _ = apply(state, 0, {"type": "play_again"})
    state, events = apply(state, 0, {"type": "move", "steps": 2})
    assert events[0]["to"] == 5 and events[0]["line"] is None
    assert events[-1] == {"type": "TurnEnded", "seat": 0, "next": 1, "extra": False}
    state, _ = apply(state, 1, {"type": "move", "steps": 1})
    state, events = apply(state, 1, {"type": "take", "card": second_hat})
    assert events[0]["special"] == "hat"
