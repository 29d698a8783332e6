"""The eight phases of a turn, the first hands, drawing and the shop."""

from __future__ import annotations

import pytest

from games import skodakouzla as game
from games.interface import IllegalMove, NotYourTurn
from games.rng import Rng
from games.skodakouzla.content import starter_deck

from .support import apply, main_phase, new_game, put, types, uid_in_hand


def _end_turn(state: dict) -> tuple[dict, list]:
    seat = state["active"]
    state, events = apply(state, seat, {"type": "end_phase"})
    if state["phase"] == "colour" and state["active"] == seat:
        state, more = apply(state, seat, {"type": "end_phase"})
        events += more
    return state, events


def test_first_player_starts_with_3_cards_the_second_prepares_5() -> None:
    state = new_game()
    assert state["active"] == 0 and state["turn"] == 1 and state["phase"] == "main"
    assert len(state["players"][0]["hand"]) == 3
    assert len(state["players"][1]["hand"]) == 5
    assert len(state["players"][0]["deck"]) == len(starter_deck()) - 3
    assert len(state["shop"]["offer"]) == 6


def test_every_later_hand_is_5_cards() -> None:
    state, _ = _end_turn(new_game())
    assert len(state["players"][0]["hand"]) == 5


def test_a_draw_from_an_empty_deck_reshuffles_the_discard_pile() -> None:
    state = main_phase(new_game(), 0)
    p = state["players"][0]
    p["discard"].extend(p["deck"][2:])
    p["deck"] = p["deck"][:2]
    state, events = _end_turn(state)
    assert types(events).count("DeckShuffled") == 1
    assert len(state["players"][0]["hand"]) == 5
    shuffled = next(e for e in events if e["type"] == "DeckShuffled")
    assert shuffled["seat"] == 0


def test_curse_check_level_1() -> None:
    for curses, lost in ((3, 0), (4, 1), (6, 1), (7, 2), (12, 2)):
        state = main_phase(new_game(), 0)
        state["players"][1]["curses"] = curses
        state, _ = _end_turn(state)
        assert state["players"][1]["life"] == 7 - lost, curses


def test_curse_check_level_2() -> None:
    for curses, lost in ((4, 0), (5, 1), (8, 1), (9, 2)):
        state = main_phase(new_game({"masters": ["ice", "fire"]}), 0)
        state["players"][1]["curses"] = curses
        state, _ = _end_turn(state)
        assert state["players"][1]["life"] == 8 - lost, curses


def test_curses_can_end_the_game_at_the_check() -> None:
    state = main_phase(new_game(), 0)
    state["players"][1]["curses"] = 7
    state["players"][1]["life"] = 2
    state, events = _end_turn(state)
    assert game.is_over(state) and state["winner"] == 0
    assert events[-1]["type"] == "GameEnded"


@pytest.mark.parametrize("income", [0, 1, 2, 3])
def test_magic_income(income: int) -> None:
    state = main_phase(new_game({"income": income}), 0)
    state, _ = _end_turn(state)
    assert state["players"][1]["magic"] == income


def test_creatures_laid_earlier_must_act_before_the_main_phase() -> None:
    state = main_phase(new_game(), 0)
    kostlivec = put(state, 1, "kostlivec")
    state, _ = _end_turn(state)
    assert state["phase"] == "effects" and state["pending"] == [kostlivec]
    actions = game.legal_actions(state, 1)
    assert {a["type"] for a in actions} == {"resolve"}
    with pytest.raises(IllegalMove):
        game.decide(state, 1, {"type": "end_phase"}, Rng(b"x", "y"))
    state, _ = apply(state, 1, {"type": "resolve", "card": kostlivec, "option": 0, "from": "left"})
    assert state["phase"] == "main" and state["players"][0]["life"] == 6


def test_a_creature_acts_first_in_the_turn_after_it_is_laid() -> None:
    state = main_phase(new_game(), 0, magic=3, hand=["kostlivec"])
    kostlivec = uid_in_hand(state, 0, "kostlivec")
    state, _ = apply(state, 0, {"type": "lay", "card": kostlivec, "end": "left"})
    assert not state["pending"]
    state, _ = _end_turn(state)
    state, _ = _end_turn(state)
    assert state["pending"] == [kostlivec]


def test_turning_a_card_into_magic_yields_its_value() -> None:
    state = main_phase(new_game(), 0, hand=["kostlivec", "mec"])
    state, _ = apply(state, 0, {"type": "turn_into_magic", "card": uid_in_hand(state, 0, "kostlivec")})
    state, _ = apply(state, 0, {"type": "turn_into_magic", "card": uid_in_hand(state, 0, "mec")})
    assert state["players"][0]["magic"] == 5
    assert len(state["players"][0]["discard"]) == 2


def test_a_bought_card_goes_to_the_discard_pile_and_the_shop_refills_at_the_end() -> None:
    state = main_phase(new_game(), 0, magic=6)
    uid = state["shop"]["offer"][0]
    cost = game.rules.card_of(state, uid)["cost"]
    state, _ = apply(state, 0, {"type": "buy", "card": uid})
    assert state["players"][0]["discard"] == [uid]
    assert state["players"][0]["magic"] == 6 - cost
    assert len(state["shop"]["offer"]) == 5
    state, _ = _end_turn(state)
    assert len(state["shop"]["offer"]) == 6


def test_buying_needs_the_magic() -> None:
    state = main_phase(new_game(), 0, magic=2)
    uid = state["shop"]["offer"][0]
    assert not [a for a in game.legal_actions(state, 0) if a["type"] == "buy"]
    with pytest.raises(IllegalMove):
        game.decide(state, 0, {"type": "buy", "card": uid}, Rng(b"x", "y"))


def test_swapping_shop_cards_costs_1_and_removes_them_from_the_game() -> None:
    state = main_phase(new_game(), 0, magic=1)
    gone = state["shop"]["offer"][:2]
    state, _ = apply(state, 0, {"type": "swap_shop", "cards": gone})
    assert state["players"][0]["magic"] == 0
    assert state["shop"]["removed"] == gone
    assert len(state["shop"]["offer"]) == 6 and not set(gone) & set(state["shop"]["offer"])
    assert not [a for a in game.legal_actions(state, 0) if a["type"] == "swap_shop"]


def test_an_empty_shop_deck_is_rebuilt_from_removed_cards() -> None:
    state = main_phase(new_game(), 0, magic=1)
    shop = state["shop"]
    shop["removed"], shop["deck"] = shop["deck"], []
    state, events = apply(state, 0, {"type": "swap_shop", "cards": shop["offer"][:2]})
    assert "ShopShuffled" in types(events) and len(state["shop"]["offer"]) == 6


@pytest.mark.parametrize("count", [1, 2])
def test_a_shop_swap_exchanges_one_or_two_cards_for_as_many_new_ones(count: int) -> None:
    """„za 1 magii vyměnit až 2 libovolné karty z nabídky obchodu“ — „odstranit 1–2 libovolné karty
    ... místo nich vyložte dvě nové“: an exchange, so the offer stays at six cards."""
    state = main_phase(new_game(), 0, magic=1)
    offer, top = list(state["shop"]["offer"]), state["shop"]["deck"][:count]
    state, _ = apply(state, 0, {"type": "swap_shop", "cards": offer[:count]})
    assert state["shop"]["offer"] == offer[count:] + top
    assert state["shop"]["removed"] == offer[:count]
    assert state["players"][0]["magic"] == 0


@pytest.mark.parametrize("end", ["left", "right"])
def test_permanents_join_the_row_at_either_end(end: str) -> None:
    state = main_phase(new_game(), 0, magic=2, hand=["stit"])
    first = put(state, 0, "knihovnicka")
    stit = uid_in_hand(state, 0, "stit")
    state, _ = apply(state, 0, {"type": "lay", "card": stit, "end": end})
    row = [e["uid"] for e in state["players"][0]["row"]]
    assert row == ([stit, first] if end == "left" else [first, stit])
    assert state["players"][0]["row"][0 if end == "left" else 1]["life"] == 3


def test_a_coloured_spell_resolves_at_once_and_waits_above_the_discard_pile() -> None:
    """„Pokud vyložíte karty kouzel ohnivé, ledové, lesní nebo temné magie, položte je těsně nad
    svůj odhazovací balíček ... Poté co dokončíte fázi kontroly, přesuňte i tyto karty na
    odhazovací balíček.“"""
    state = main_phase(new_game(), 0, magic=3, hand=["ohniva_koule"])
    koule = uid_in_hand(state, 0, "ohniva_koule")
    state, _ = apply(state, 0, {"type": "lay", "card": koule, "from": "left"})
    assert state["players"][1]["life"] == 4
    assert state["players"][0]["limbo"] == [koule] and koule not in state["players"][0]["discard"]
    state, _ = _end_turn(state)
    assert koule in state["players"][0]["discard"] or koule in state["players"][0]["hand"]


def test_a_neutral_spell_goes_straight_onto_the_discard_pile() -> None:
    """„Vyložené karty typu kouzlo položte rovnou na svůj odhazovací balíček“ — only the coloured
    ones wait above it for the colour check."""
    state = main_phase(new_game(), 0, magic=2, hand=["mec"])
    mec = uid_in_hand(state, 0, "mec")
    state, _ = apply(state, 0, {"type": "lay", "card": mec, "from": "left"})
    assert state["players"][1]["life"] == 5
    assert state["players"][0]["limbo"] == [] and state["players"][0]["discard"] == [mec]


def test_a_neutral_spell_laid_this_turn_can_leave_the_game_at_the_colour_check() -> None:
    """It is on the discard pile at the check, so it may be the card removed from the game."""
    state = main_phase(new_game(), 0, magic=10, hand=["mec", "kletbicka", "kostlivec"])
    for card_id, choice in (
        ("mec", {"from": "left"}),
        ("kletbicka", {"from": "left"}),
        ("kostlivec", {"end": "left"}),
    ):
        state, _ = apply(state, 0, {"type": "lay", "card": uid_in_hand(state, 0, card_id), **choice})
    mec = state["players"][0]["discard"][0]
    state, _ = apply(state, 0, {"type": "end_phase"})
    assert state["phase"] == "colour"
    state, _ = apply(state, 0, {"type": "remove_card", "card": mec})
    assert mec in state["players"][0]["removed"]


def test_phase_5_discards_the_hand_and_returns_magic_but_not_stored_magic() -> None:
    state = main_phase(new_game(), 0, magic=3, hand=["mec", "stit"])
    kniha = put(state, 0, "knihovnicka")
    state, _ = apply(state, 0, {"type": "store_magic", "card": kniha})
    state, _ = apply(state, 0, {"type": "store_magic", "card": kniha})
    assert {"type": "store_magic", "card": kniha} not in game.legal_actions(state, 0)
    state, events = _end_turn(state)
    returned = next(e for e in events if e["type"] == "MagicReturned")
    assert returned["amount"] == 1
    assert next(e for e in events if e["type"] == "HandDiscarded")["cards"]
    state, _ = _end_turn(state)
    assert state["players"][0]["magic"] == 1 + 2


def test_a_destroyed_store_loses_its_magic() -> None:
    state = main_phase(new_game(), 1, magic=3, hand=["ohniva_koule"])
    put(state, 0, "knihovnicka")
    state["players"][0]["row"][0]["magic"] = 2
    before = state["players"][0]["magic"]
    state, events = apply(
        state, 1, {"type": "lay", "card": uid_in_hand(state, 1, "ohniva_koule"), "from": "left"}
    )
    assert next(e for e in events if e["type"] == "CardDestroyed")["magic"] == 2
    assert state["players"][0]["magic"] == before


def test_not_your_turn_and_unknown_commands() -> None:
    state = new_game()
    with pytest.raises(NotYourTurn):
        game.decide(state, 1, {"type": "end_phase"}, Rng(b"x", "y"))
    with pytest.raises(IllegalMove):
        game.decide(state, 0, {"type": "dance"}, Rng(b"x", "y"))
    with pytest.raises(IllegalMove):
        game.decide(state, 0, {"type": "end_phase", "extra": 1}, Rng(b"x", "y"))
    assert game.legal_actions(state, 1) == []
    assert game.to_move(state) == [0]


def test_thaw_comes_at_the_end_of_the_frozen_wizards_own_turn() -> None:
    state = main_phase(new_game(), 0, magic=3, hand=["zmrazeni"])
    state, _ = apply(state, 0, {"type": "lay", "card": uid_in_hand(state, 0, "zmrazeni"), "target": "wizard"})
    assert state["players"][1]["frozen"] == 2
    state, _ = _end_turn(state)
    assert state["players"][1]["frozen"]
    state, events = _end_turn(state)
    assert {"type": "Thawed", "seat": 1, "targets": ["wizard"]} in events
    assert not state["players"][1]["frozen"]
