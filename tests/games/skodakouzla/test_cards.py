"""The cards the rulebook names or explains behave as it says."""

from __future__ import annotations

import pytest

from games import skodakouzla as game
from games.interface import IllegalMove
from games.rng import Rng

from .support import apply, main_phase, new_game, put, row_life, uid_in_hand


def _creature_turn(state: dict, seat: int, uid: str) -> dict:
    state["active"], state["phase"], state["pending"] = seat, "effects", [uid]
    return state


def _lay(state: dict, card_id: str, **choice: str) -> tuple[dict, list]:
    return apply(state, 0, {"type": "lay", "card": uid_in_hand(state, 0, card_id), **choice})


def test_zmrazeni_targets_only_creatures_and_wizards() -> None:
    state = main_phase(new_game(), 0, magic=3, hand=["zmrazeni"])
    stit = put(state, 1, "stit")
    kostlivec = put(state, 1, "kostlivec")
    zmrazeni = uid_in_hand(state, 0, "zmrazeni")
    targets = {
        a.get("target")
        for a in game.legal_actions(state, 0)
        if a.get("card") == zmrazeni and a["type"] == "lay"
    }
    assert targets == {"wizard", kostlivec}
    with pytest.raises(IllegalMove):
        game.decide(state, 0, {"type": "lay", "card": zmrazeni, "target": stit}, Rng(b"x", "y"))
    state, _ = _lay(state, "zmrazeni", target=kostlivec)
    assert row_life(state, 1) == [("stit", 3), ("kostlivec", 1)]
    assert state["players"][1]["row"][1]["frozen"]


def test_defences_are_never_frozen() -> None:
    state = main_phase(new_game(), 0, magic=3, hand=["ledovy_bodec"])
    put(state, 1, "carovne_trni")
    state, events = _lay(state, "ledovy_bodec", **{"from": "left"})
    assert not state["players"][1]["row"][0]["frozen"]
    assert not [e for e in events if e["type"] == "Frozen"]


def test_a_frozen_creature_neither_attacks_nor_uses_its_ability() -> None:
    state = main_phase(new_game(), 1)
    put(state, 0, "kostlivec", frozen=3)
    put(state, 0, "zlodej", frozen=3)
    do_end = apply(state, 1, {"type": "end_phase"})[0]
    if do_end["phase"] == "colour":
        do_end = apply(do_end, 1, {"type": "end_phase"})[0]
    assert do_end["active"] == 0 and do_end["phase"] == "main" and do_end["pending"] == []


def test_heal_stops_at_the_maximum_and_never_reaches_defences() -> None:
    state = main_phase(new_game(), 0, magic=4, hand=["regenerace"])
    vila = put(state, 0, "lesni_vila", life=1)
    stit = put(state, 0, "stit", life=1)
    state["players"][0]["life"] = 6
    regen = uid_in_hand(state, 0, "regenerace")
    targets = {a["target"] for a in game.legal_actions(state, 0) if a["type"] == "lay" and a["card"] == regen}
    assert targets == {"wizard", vila}
    assert stit not in targets
    state, _ = _lay(state, "regenerace", target="wizard")
    assert state["players"][0]["life"] == 7


def test_heal_of_a_creature_stops_at_its_printed_life() -> None:
    state = main_phase(new_game(), 0, magic=4, hand=["regenerace"])
    vila = put(state, 0, "lesni_vila", life=1)
    state, _ = _lay(state, "regenerace", target=vila)
    assert row_life(state, 0) == [("lesni_vila", 2)]


def test_add_life_may_exceed_the_maximum_and_reaches_defences() -> None:
    state = main_phase(new_game(), 0, magic=3, hand=["mrazive_posileni"])
    stit = put(state, 0, "stit")
    posileni = uid_in_hand(state, 0, "mrazive_posileni")
    targets = {
        a["target"] for a in game.legal_actions(state, 0) if a["type"] == "lay" and a["card"] == posileni
    }
    assert targets == {stit}
    state, _ = _lay(state, "mrazive_posileni", target=stit)
    assert row_life(state, 0) == [("stit", 5)]


def test_add_life_needs_a_laid_card() -> None:
    state = main_phase(new_game(), 0, magic=3, hand=["mrazive_posileni"])
    assert not [a for a in game.legal_actions(state, 0) if a["type"] == "lay"]


def test_ledovy_stit_adds_life_once_when_laid() -> None:
    state = main_phase(new_game(), 0, magic=3, hand=["ledovy_stit"])
    kostlivec = put(state, 0, "kostlivec")
    state, _ = _lay(state, "ledovy_stit", end="right", target=kostlivec)
    assert row_life(state, 0) == [("kostlivec", 4), ("ledovy_stit", 3)]
    state = main_phase(state, 0)
    state, _ = apply(state, 0, {"type": "end_phase"})
    assert row_life(state, 0) == [("kostlivec", 4), ("ledovy_stit", 3)]


def test_strazny_adds_1_life_to_each_other_card_when_laid() -> None:
    state = main_phase(new_game(), 0, magic=4, hand=["strazny"])
    put(state, 0, "stit")
    put(state, 0, "kostlivec")
    state, _ = _lay(state, "strazny", end="left")
    assert row_life(state, 0) == [("strazny", 3), ("stit", 4), ("kostlivec", 3)]


@pytest.mark.parametrize(
    "card_id, curses, damage",
    [
        ("kosteny_plot", 1, 0),
        ("pekelne_brneni", 1, 1),
        ("ohnive_brneni", 0, 2),
    ],
)
def test_reactions_fire_even_when_the_card_is_destroyed(card_id: str, curses: int, damage: int) -> None:
    state = main_phase(new_game(), 0, magic=3, hand=["ohniva_koule"])
    put(state, 1, card_id, life=1)
    state, _ = _lay(state, "ohniva_koule", **{"from": "left"})
    assert row_life(state, 1) == []
    assert state["players"][0]["curses"] == curses
    assert state["players"][0]["life"] == 7 - damage


def test_a_reaction_hurts_the_attacking_creature() -> None:
    state = new_game()
    kostlivec = put(state, 0, "kostlivec")
    put(state, 1, "ohnive_brneni")
    state = _creature_turn(state, 0, kostlivec)
    state, _ = apply(state, 0, {"type": "resolve", "card": kostlivec, "option": 0, "from": "left"})
    assert row_life(state, 0) == []
    assert state["players"][0]["life"] == 7


def test_magicky_prsten_shields_the_wizard_from_attack_spells_and_their_curse() -> None:
    state = main_phase(new_game(), 0, magic=6, hand=["kletbicka", "kouzelna_sipka"])
    prsten = put(state, 1, "magicky_prsten")
    dart = uid_in_hand(state, 0, "kouzelna_sipka")
    targets = {a["target"] for a in game.legal_actions(state, 0) if a["type"] == "lay" and a["card"] == dart}
    assert targets == {prsten}
    state, _ = _lay(state, "kletbicka", **{"from": "left"})
    state, _ = _lay(state, "kouzelna_sipka", target=prsten)
    assert state["players"][1]["curses"] == 0
    assert state["players"][1]["life"] == 7
    assert row_life(state, 1) == []


def test_magicky_prsten_does_not_stop_creatures() -> None:
    state = new_game()
    kostlivec = put(state, 0, "kostlivec")
    put(state, 1, "magicky_prsten", life=1)
    state = _creature_turn(state, 0, kostlivec)
    state, _ = apply(state, 0, {"type": "resolve", "card": kostlivec, "option": 0, "from": "left"})
    assert row_life(state, 1) == []
    state["pending"] = [kostlivec]
    state["phase"] = "effects"
    state, _ = apply(state, 0, {"type": "resolve", "card": kostlivec, "option": 0, "from": "left"})
    assert state["players"][1]["life"] == 6


def test_lektvar_zurivosti_makes_every_creature_attack_and_knez_must_attack() -> None:
    state = main_phase(new_game(), 0, magic=4, hand=["lektvar_zurivosti"])
    knez = put(state, 0, "knez")
    vila = put(state, 0, "lesni_vila")
    kostlivec = put(state, 0, "kostlivec")
    state["players"][0]["curses"] = 3
    state, _ = _lay(state, "lektvar_zurivosti")
    assert state["pending"] == [knez, kostlivec]
    actions = game.legal_actions(state, 0)
    assert {a["type"] for a in actions} == {"resolve"}
    assert {a["option"] for a in actions if a["card"] == knez} == {0}
    assert vila not in {a["card"] for a in actions}
    state, _ = apply(state, 0, {"type": "resolve", "card": knez, "option": 0, "from": "left"})
    state, _ = apply(state, 0, {"type": "resolve", "card": kostlivec, "option": 0, "from": "left"})
    assert state["players"][1]["life"] == 5 and state["players"][0]["curses"] == 3
    assert {"type": "end_phase"} in game.legal_actions(state, 0)


def test_knez_attacks_or_lifts_a_curse_in_phase_3() -> None:
    state = new_game()
    knez = put(state, 0, "knez")
    state = _creature_turn(state, 0, knez)
    assert {a["option"] for a in game.legal_actions(state, 0)} == {0}
    state["players"][0]["curses"] = 2
    assert {a["option"] for a in game.legal_actions(state, 0)} == {0, 1}
    state, _ = apply(state, 0, {"type": "resolve", "card": knez, "option": 1})
    assert state["players"][0]["curses"] == 1


def test_obchodnik_makes_the_first_purchase_cheaper() -> None:
    state = main_phase(new_game(), 0, magic=20)
    put(state, 0, "obchodnik")
    first, second = state["shop"]["offer"][:2]
    cost1 = game.rules.card_of(state, first)["cost"]
    cost2 = game.rules.card_of(state, second)["cost"]
    state, _ = apply(state, 0, {"type": "buy", "card": first})
    state, _ = apply(state, 0, {"type": "buy", "card": second})
    assert state["players"][0]["magic"] == 20 - (cost1 - 1) - cost2


def test_obchodnik_laid_this_turn_gives_no_discount_yet() -> None:
    state = main_phase(new_game(), 0, magic=20)
    put(state, 0, "obchodnik", new=True)
    first = state["shop"]["offer"][0]
    cost = game.rules.card_of(state, first)["cost"]
    state, _ = apply(state, 0, {"type": "buy", "card": first})
    assert state["players"][0]["magic"] == 20 - cost


def test_zlodej_gains_magic_to_use_in_the_turn() -> None:
    state = new_game()
    zlodej = put(state, 0, "zlodej")
    state = _creature_turn(state, 0, zlodej)
    before = state["players"][0]["magic"]
    state, _ = apply(state, 0, {"type": "resolve", "card": zlodej, "option": 0})
    assert state["players"][0]["magic"] == before + 2


def test_kletba_curses_the_wizard_even_when_the_attack_stops_in_the_row() -> None:
    state = main_phase(new_game(), 0, magic=4, hand=["kletba"])
    put(state, 1, "carovne_trni")
    state, _ = _lay(state, "kletba", **{"from": "left"})
    assert row_life(state, 1) == [("carovne_trni", 2)]
    assert state["players"][1]["curses"] == 2 and state["players"][1]["life"] == 7


def test_temne_prokleti_hits_two_in_a_row_and_curses() -> None:
    state = main_phase(new_game(), 0, magic=6, hand=["temne_prokleti"])
    put(state, 1, "stit")
    put(state, 1, "knihovnicka")
    put(state, 1, "kostlivec")
    state, _ = _lay(state, "temne_prokleti", **{"from": "right"})
    assert row_life(state, 1) == [("stit", 3)]
    assert state["players"][1]["curses"] == 2 and state["players"][1]["life"] == 7


def test_velke_vysati_heals_per_creature_and_wizard_hit() -> None:
    state = main_phase(new_game(), 0, magic=6, hand=["velke_vysati"])
    state["players"][0]["life"] = 3
    put(state, 1, "kostlivec")
    put(state, 1, "stit")
    state, _ = _lay(state, "velke_vysati")
    assert row_life(state, 1) == [("kostlivec", 1), ("stit", 2)]
    assert state["players"][1]["life"] == 6
    assert state["players"][0]["life"] == 5


def test_vybuch_area_attack_hits_the_wizard_and_every_card() -> None:
    state = main_phase(new_game(), 0, magic=5, hand=["vybuch"])
    put(state, 1, "kostlivec")
    put(state, 1, "hradba")
    state, _ = _lay(state, "vybuch")
    assert row_life(state, 1) == [("hradba", 4)]
    assert state["players"][1]["life"] == 5


def test_upir_heals_its_wizard_when_it_attacks() -> None:
    state = new_game()
    upir = put(state, 0, "upir")
    state["players"][0]["life"] = 4
    state = _creature_turn(state, 0, upir)
    state, _ = apply(state, 0, {"type": "resolve", "card": upir, "option": 0, "from": "left"})
    assert state["players"][1]["life"] == 5 and state["players"][0]["life"] == 5


def test_carodejnice_curses_with_its_attack() -> None:
    state = new_game()
    witch = put(state, 0, "carodejnice")
    state = _creature_turn(state, 0, witch)
    state, _ = apply(state, 0, {"type": "resolve", "card": witch, "option": 0, "from": "left"})
    assert state["players"][1]["curses"] == 2 and state["players"][1]["life"] == 6


def test_ledovy_golem_freezes_the_creatures_it_hits() -> None:
    state = new_game()
    golem = put(state, 0, "ledovy_golem")
    put(state, 1, "rytir")
    state = _creature_turn(state, 0, golem)
    state, _ = apply(state, 0, {"type": "resolve", "card": golem, "option": 0, "from": "left"})
    assert row_life(state, 1) == [("rytir", 3)]
    assert state["players"][1]["row"][0]["frozen"]


def test_lucistnik_shoots_one_chosen_target() -> None:
    state = new_game()
    archer = put(state, 0, "lucistnik")
    put(state, 1, "stit")
    kostlivec = put(state, 1, "kostlivec")
    state = _creature_turn(state, 0, archer)
    state, _ = apply(state, 0, {"type": "resolve", "card": archer, "option": 0, "target": kostlivec})
    assert row_life(state, 1) == [("stit", 3), ("kostlivec", 1)]


def test_vysati_magie_takes_the_stored_magic() -> None:
    state = main_phase(new_game(), 0, magic=3, hand=["vysati_magie"])
    put(state, 1, "knihovnicka")
    state["players"][1]["row"][0]["magic"] = 2
    state, _ = _lay(state, "vysati_magie")
    assert state["players"][1]["row"][0]["magic"] == 0
    assert state["players"][0]["magic"] == 2


def test_kristalova_koule_draws_2_and_tajemny_lektvar_lifts_2_curses() -> None:
    state = main_phase(new_game(), 0, magic=5, hand=["kristalova_koule", "tajemny_lektvar"])
    state["players"][0]["curses"] = 3
    state, _ = _lay(state, "tajemny_lektvar")
    assert state["players"][0]["curses"] == 1
    state, _ = _lay(state, "kristalova_koule")
    assert len(state["players"][0]["hand"]) == 2


def test_magicky_kamen_gives_1_magic_each_turn_after_it_is_laid() -> None:
    state = main_phase(main_phase(new_game(), 0), 1)
    put(state, 0, "magicky_kamen")
    state["players"][0]["magic"] = 0
    state, _ = apply(state, 1, {"type": "end_phase"})
    assert state["players"][0]["magic"] == 2


def test_a_reaction_that_kills_the_attacking_wizard_ends_the_game() -> None:
    state = main_phase(new_game(), 0, magic=3, hand=["ohniva_koule"])
    put(state, 1, "ohnive_brneni")
    state["players"][0]["life"] = 2
    state, events = _lay(state, "ohniva_koule", **{"from": "left"})
    assert game.is_over(state) and state["winner"] == 1
    assert events[-1] == {"type": "GameEnded", "winner": 1, "loser": 0}


def test_the_game_ends_at_the_first_wizard_death_mid_attack() -> None:
    state = main_phase(new_game(), 0, magic=5, hand=["vybuch"])
    put(state, 1, "ohnive_brneni")
    state["players"][1]["life"] = 2
    state["players"][0]["life"] = 1
    state, events = _lay(state, "vybuch")
    assert events[-1]["type"] == "GameEnded"
    assert state["winner"] == 0 and state["players"][0]["life"] == 1


def test_a_card_destroyed_in_the_middle_of_the_row_closes_the_gap() -> None:
    """„Pokud se v rámci útoku stane, že je zničena karta uprostřed vyložené řady, zbylé karty je
    nutné sesunout k sobě“ — the next basic attack from the right meets Kostlivec, then Štít."""
    state = main_phase(new_game(), 0, magic=5, hand=["kouzelny_sip", "mec"])
    put(state, 1, "stit")
    middle = put(state, 1, "knihovnicka", life=1)
    put(state, 1, "kostlivec")
    state, _ = _lay(state, "kouzelny_sip", target=middle)
    assert row_life(state, 1) == [("stit", 3), ("kostlivec", 2)]
    state, _ = _lay(state, "mec", **{"from": "right"})
    assert row_life(state, 1) == [("stit", 3)]


def test_magicky_prsten_lets_spells_without_a_sword_through() -> None:
    """„Jiná kouzla (např. Křištálová koule nebo Vysáti magie) nemají v popisu karty symbol meče,
    a lze je tedy použít.“"""
    state = main_phase(new_game(), 0, magic=3, hand=["vysati_magie"])
    put(state, 1, "magicky_prsten")
    put(state, 1, "knihovnicka")
    state["players"][1]["row"][1]["magic"] = 2
    state, _ = _lay(state, "vysati_magie")
    assert state["players"][1]["row"][1]["magic"] == 0 and state["players"][0]["magic"] == 2
