"""Phase 6: two of a colour remove a discard card, three make the level-2 wizard."""

from __future__ import annotations

import pytest

from games import skodakouzla as game
from games.interface import IllegalMove
from games.rng import Rng

from .support import apply, main_phase, new_game, put, uid_in_hand


def _lay_and_end(state: dict, hand: list[tuple[str, dict]]) -> dict:
    for card_id, choice in hand:
        state, _ = apply(state, 0, {"type": "lay", "card": uid_in_hand(state, 0, card_id), **choice})
    state, _ = apply(state, 0, {"type": "end_phase"})
    return state


def test_two_of_a_colour_remove_one_discard_card() -> None:
    state = main_phase(new_game(), 0, magic=10, hand=["kletbicka", "kostlivec", "mec"])
    state = _lay_and_end(state, [("kletbicka", {"from": "left"}), ("kostlivec", {"end": "left"})])
    assert state["phase"] == "colour" and state["colour"] == {"remove": True, "promote": []}
    mec = next(u for u in state["players"][0]["discard"] if state["cards"][u] == "mec")
    actions = game.legal_actions(state, 0)
    assert {"type": "remove_card", "card": mec} in actions
    assert not [a for a in actions if a["type"] == "promote"]
    state, _ = apply(state, 0, {"type": "remove_card", "card": mec})
    assert state["players"][0]["removed"] == [mec]
    assert state["active"] == 1


def test_a_card_laid_in_an_earlier_turn_counts_with_one_new() -> None:
    """„Podmínkou je, že vždy alespoň jedna z těchto karet musí být do hry nově vyložena v právě
    probíhajícím kole.“ — so the others may have been laid in earlier turns."""
    state = main_phase(new_game(), 0, magic=10, hand=["kletbicka", "mec"])
    put(state, 0, "kostlivec")
    state = _lay_and_end(state, [("kletbicka", {"from": "left"})])
    assert state["colour"]["remove"]


def test_no_reward_without_a_new_card() -> None:
    state = main_phase(new_game(), 0, magic=10, hand=["mec"])
    put(state, 0, "kostlivec")
    put(state, 0, "duch")
    state = _lay_and_end(state, [("mec", {"from": "left"})])
    assert state["active"] == 1


def test_neutral_cards_never_count() -> None:
    """„Za vyložení neutrálních karet žádnou z výše zmíněných herních výhod získat nelze.“"""
    state = main_phase(new_game(), 0, magic=10, hand=["mec", "stit", "knihovnicka"])
    state = _lay_and_end(
        state, [("mec", {"from": "left"}), ("stit", {"end": "left"}), ("knihovnicka", {"end": "left"})]
    )
    assert state["active"] == 1


def test_three_of_a_colour_promote_to_level_2_with_1_more_life() -> None:
    state = main_phase(new_game(), 0, magic=10, hand=["kletbicka", "kostlivec", "mec"])
    put(state, 0, "duch")
    state["players"][0]["life"] = 7
    state = _lay_and_end(state, [("kletbicka", {"from": "left"}), ("kostlivec", {"end": "left"})])
    assert state["colour"] == {"remove": True, "promote": ["dark"]}
    state, _ = apply(state, 0, {"type": "promote", "colour": "dark"})
    p = state["players"][0]
    assert p["level"] == 2 and p["colour"] == "dark" and p["life"] == 8
    assert state["phase"] == "colour"
    state, _ = apply(state, 0, {"type": "end_phase"})
    assert state["active"] == 1
    assert game.view(state, 0)["players"][0]["max_life"] == 8


def test_a_level_2_wizard_is_not_promoted_again() -> None:
    state = main_phase(
        new_game({"masters": ["ice", "fire"]}), 0, magic=10, hand=["kletbicka", "kostlivec", "mec"]
    )
    put(state, 0, "duch")
    state = _lay_and_end(state, [("kletbicka", {"from": "left"}), ("kostlivec", {"end": "left"})])
    assert state["colour"] == {"remove": True, "promote": []}


def test_the_removed_card_must_come_from_the_discard_pile() -> None:
    state = main_phase(new_game(), 0, magic=10, hand=["kletbicka", "kostlivec", "mec"])
    state = _lay_and_end(state, [("kletbicka", {"from": "left"}), ("kostlivec", {"end": "left"})])
    assert state["phase"] == "colour"
    kostlivec = state["players"][0]["row"][0]["uid"]
    with pytest.raises(IllegalMove):
        game.decide(state, 0, {"type": "remove_card", "card": kostlivec}, Rng(b"x", "y"))


def test_defences_count_at_the_colour_check() -> None:
    """„Při kontrole barvy magie počítejte všechny typy karet, tzn. kouzla, obrany i bytosti.“"""
    state = main_phase(new_game(), 0, magic=10, hand=["kosteny_plot", "mec"])
    put(state, 0, "kostlivec")
    state = _lay_and_end(state, [("kosteny_plot", {"end": "left"})])
    assert state["phase"] == "colour" and state["colour"] == {"remove": True, "promote": []}
