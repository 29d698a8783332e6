"""Every worked example of the rulebook, as a test."""

from __future__ import annotations

from games import skodakouzla as game

from .support import apply, main_phase, new_game, put, row_life, types, uid_in_hand


def _fireball_table() -> dict:
    state = main_phase(new_game(), 0, magic=3, hand=["ohniva_koule"])
    put(state, 1, "kostlivec")
    put(state, 1, "knihovnicka")
    return state


def test_basic_attack_of_3_through_kostlivec_into_knihovnicka() -> None:
    """„Základním útokem síly 3 je zcela zničen Kostlivec, který měl 2 životy. ... 1 život ztratí
    rovněž Knihovnička. ... Čaroděj útokem zasažen nebyl.“"""
    state = _fireball_table()
    fireball = uid_in_hand(state, 0, "ohniva_koule")
    state, events = apply(state, 0, {"type": "lay", "card": fireball, "from": "left"})
    assert row_life(state, 1) == [("knihovnicka", 1)]
    assert state["players"][1]["life"] == 7
    assert state["cards"][state["players"][1]["discard"][-1]] == "kostlivec"
    assert "CardDestroyed" in types(events)


def test_basic_attack_of_3_from_the_other_end() -> None:
    """„Hráč v příkladu mohl zvolit i jiný směr útoku a zaútočit od karty Knihovnička. V takovém
    případě by po útoku před čarodějem zůstal Kostlivec s jedním zbývajícím životem.“"""
    state = _fireball_table()
    fireball = uid_in_hand(state, 0, "ohniva_koule")
    state, _ = apply(state, 0, {"type": "lay", "card": fireball, "from": "right"})
    assert row_life(state, 1) == [("kostlivec", 1)]
    assert state["players"][1]["life"] == 7


def test_basic_attack_reaches_the_wizard_only_past_every_card() -> None:
    """„To by se stalo až ve chvíli, když by síla útoku převyšovala životy všech vyložených karet.“"""
    state = main_phase(new_game(), 0, magic=3, hand=["ohniva_koule"])
    put(state, 1, "kostlivec", life=1)
    fireball = uid_in_hand(state, 0, "ohniva_koule")
    state, _ = apply(state, 0, {"type": "lay", "card": fireball, "from": "left"})
    assert row_life(state, 1) == []
    assert state["players"][1]["life"] == 5


def test_kouzelny_sip_may_target_the_wizard_past_the_row() -> None:
    """„Může např. zaútočit přímo na čaroděje, i když jsou zde další vyložené karty.“"""
    state = main_phase(new_game(), 0, magic=3, hand=["kouzelny_sip"])
    put(state, 1, "kostlivec")
    arrow = uid_in_hand(state, 0, "kouzelny_sip")
    state, _ = apply(state, 0, {"type": "lay", "card": arrow, "target": "wizard"})
    assert state["players"][1]["life"] == 5
    assert row_life(state, 1) == [("kostlivec", 2)]


def test_kouzelny_sip_on_a_card_with_1_life_stops_there() -> None:
    """„Kdyby Kouzelný šíp vybral za cíl kartu, které zbývá jen 1 život, bude zničena pouze tato
    karta a útok tím končí, přestože má šíp sílu 2.“"""
    state = main_phase(new_game(), 0, magic=3, hand=["kouzelny_sip"])
    weak = put(state, 1, "kostlivec", life=1)
    put(state, 1, "knihovnicka")
    arrow = uid_in_hand(state, 0, "kouzelny_sip")
    state, _ = apply(state, 0, {"type": "lay", "card": arrow, "target": weak})
    assert row_life(state, 1) == [("knihovnicka", 2)]
    assert state["players"][1]["life"] == 7


def _dragon_turn(state: dict, drak: str) -> dict:
    state["active"] = 0
    state["phase"] = "effects"
    state["pending"] = [drak]
    return state


def test_drak_hits_carovne_trni_and_the_wizard_for_2_each() -> None:
    """„zraní Drak útokem kartu Čarovné trní i čaroděje, a oba cíle ztratí 2 životy. Čaroděj se
    stal druhým cílem proto, že ve hře nebyly další vyložené karty.“"""
    state = new_game()
    drak = put(state, 0, "drak")
    put(state, 1, "carovne_trni")
    state = _dragon_turn(state, drak)
    state, _ = apply(state, 0, {"type": "resolve", "card": drak, "option": 0, "from": "left"})
    assert row_life(state, 1) == [("carovne_trni", 2)]
    assert state["players"][1]["life"] == 5
    assert state["phase"] == "main"


def test_drak_dying_to_ohnive_brneni_still_hits_both_targets() -> None:
    """„Kdyby Drak v průběhu útoku zemřel (např. kvůli kartě Ohnivé brnění), útok přesto proběhne
    v plném rozsahu, tzn. oba po sobě následující cíle ztratí 2 životy.“"""
    state = new_game()
    drak = put(state, 0, "drak", life=2)
    put(state, 1, "ohnive_brneni")
    put(state, 1, "carovne_trni")
    state = _dragon_turn(state, drak)
    state, events = apply(state, 0, {"type": "resolve", "card": drak, "option": 0, "from": "left"})
    assert row_life(state, 1) == [("ohnive_brneni", 1), ("carovne_trni", 2)]
    assert state["players"][1]["life"] == 7
    assert row_life(state, 0) == []
    assert {"type": "CardDestroyed", "seat": 0, "card": drak, "magic": 0} in events


def test_drak_against_a_lone_wizard_deals_2_only() -> None:
    """„Když by před útokem Draka stál pouze samotný čaroděj, bude zraněn pouze za 2 životy.“"""
    state = new_game()
    drak = put(state, 0, "drak")
    state = _dragon_turn(state, drak)
    state, _ = apply(state, 0, {"type": "resolve", "card": drak, "option": 0, "from": "right"})
    assert state["players"][1]["life"] == 5


def test_drak_does_not_carry_past_a_target_with_1_life() -> None:
    """„Pokud by byl při útoku Draka počet životů jednoho z cílů pouze 1, útok tím přesto končí.“"""
    state = new_game()
    drak = put(state, 0, "drak")
    put(state, 1, "kostlivec", life=1)
    put(state, 1, "stit")
    state = _dragon_turn(state, drak)
    state, _ = apply(state, 0, {"type": "resolve", "card": drak, "option": 0, "from": "left"})
    assert row_life(state, 1) == [("stit", 1)]
    assert state["players"][1]["life"] == 7


def test_ledova_boure_hits_everything_and_freezes_knez_and_the_wizard() -> None:
    """„Ledová bouře v příkladu zasáhne Kněze, Štít i čaroděje a všichni zasažení ztratí 1 život.
    Ledová bouře navíc zmrazí Kněze a čaroděje. ... Kněz kvůli zmrazení nesmí následující kolo
    útočit ani odstranit kletbu a čaroděj nesmí vyložit kouzla se symbolem meče.“"""
    state = main_phase(new_game(), 0, magic=5, hand=["ledova_boure"])
    knez = put(state, 1, "knez")
    stit = put(state, 1, "stit")
    storm = uid_in_hand(state, 0, "ledova_boure")
    state, _ = apply(state, 0, {"type": "lay", "card": storm})
    foe = state["players"][1]
    assert row_life(state, 1) == [("knez", 2), ("stit", 2)]
    assert foe["life"] == 6
    assert foe["frozen"] and foe["row"][0]["frozen"] and not foe["row"][1]["frozen"]
    state, _ = apply(state, 0, {"type": "end_phase"})
    if state["phase"] == "colour":
        state, _ = apply(state, 0, {"type": "end_phase"})
    assert state["active"] == 1
    assert knez not in state["pending"]
    assert state["phase"] == "main"
    state = main_phase(state, 1, magic=3, hand=["ohniva_koule", "knihovnicka"])
    offered = {(a["type"], state["cards"].get(a.get("card", ""))) for a in game.legal_actions(state, 1)}
    assert ("lay", "ohniva_koule") not in offered
    assert ("lay", "knihovnicka") in offered
    state, _ = apply(state, 1, {"type": "end_phase"})
    if state["phase"] == "colour":
        state, _ = apply(state, 1, {"type": "end_phase"})
    assert not state["players"][1]["frozen"]
    assert all(not e["frozen"] for e in state["players"][1]["row"])
    assert stit in [e["uid"] for e in state["players"][1]["row"]]


def test_fire_wizard_lays_ohniva_koule_for_2_but_turns_it_into_3_magic() -> None:
    """„ohnivého čaroděje stojí vyložení karty Ohnivá koule jen 2 magie ... Když ohnivý čaroděj
    promění Ohnivou kouli v magii, získá za ní 3 žetony magie.“"""
    state = main_phase(new_game({"masters": ["fire", "ice"]}), 0, magic=2, hand=["ohniva_koule"])
    fireball = uid_in_hand(state, 0, "ohniva_koule")
    assert game.rules.lay_price(state, 0, fireball) == 2
    assert {"type": "lay", "card": fireball, "from": "left"} in game.legal_actions(state, 0)
    state, events = apply(state, 0, {"type": "turn_into_magic", "card": fireball})
    assert state["players"][0]["magic"] == 5


def test_strom_keeps_1_magic_and_gives_2_next_turn() -> None:
    """„Strom – Umožňuje uložení 1 magie ... Na začátku následujícího kola získáte celkem 2 magie,
    ale do Stromu můžete opět uložit pouze 1.“ — also in the turn it was laid."""
    state = main_phase(new_game(), 0, magic=5, hand=["strom"])
    strom = uid_in_hand(state, 0, "strom")
    state, _ = apply(state, 0, {"type": "lay", "card": strom, "end": "left"})
    state, _ = apply(state, 0, {"type": "store_magic", "card": strom})
    assert {"type": "store_magic", "card": strom} not in game.legal_actions(state, 0)
    state = _pass_turns(state, 2)
    assert state["active"] == 0
    assert state["players"][0]["magic"] == 1 + 2
    assert state["players"][0]["row"][0]["magic"] == 0


def test_a_frozen_strom_gives_nothing_and_keeps_its_magic() -> None:
    """„Pokud je Strom zmrazený, 2 magie nezískáváte a s uloženou magií toto kolo navíc nelze
    manipulovat.“"""
    state = new_game()
    strom = put(state, 0, "strom")
    state["players"][0]["row"][0]["magic"] = 1
    state["players"][0]["row"][0]["frozen"] = 2
    state["players"][0]["magic"] = 0
    state = main_phase(state, 1)
    state = _pass_turns(state, 1)
    p = state["players"][0]
    assert p["magic"] == 1 and p["row"][0]["magic"] == 1
    state = main_phase(state, 0, magic=3)
    assert {"type": "store_magic", "card": strom} not in game.legal_actions(state, 0)


def test_mrazive_brneni_freezes_the_attacker_for_its_next_turn_too() -> None:
    """„Krystal zmrazení vám zůstává do konce kola, v kterém jste ho obdrželi, celé soupeřovo
    kolo, a poté ještě v průběhu vašeho následujícího kola, na jehož konci krystal odeberete.“"""
    state = new_game()
    kostlivec = put(state, 0, "kostlivec")
    put(state, 1, "mrazive_brneni")
    state["phase"], state["pending"], state["turn"] = "effects", [kostlivec], 5
    state, _ = apply(state, 0, {"type": "resolve", "card": kostlivec, "option": 0, "from": "left"})
    assert state["players"][0]["row"][0]["frozen"] == 7
    state = _pass_turns(state, 1)
    assert state["players"][0]["row"][0]["frozen"]
    state = _pass_turns(state, 1)
    assert state["active"] == 0 and state["turn"] == 7
    assert kostlivec not in state["pending"] and state["players"][0]["row"][0]["frozen"]
    state = _pass_turns(state, 1)
    assert not state["players"][0]["row"][0]["frozen"]
    state = _pass_turns(state, 1)
    assert kostlivec in state["pending"]


def test_mrazive_brneni_freezes_a_wizard_attacking_with_a_spell() -> None:
    state = main_phase(new_game(), 0, magic=2, hand=["mec", "kletbicka"])
    put(state, 1, "mrazive_brneni")
    sword = uid_in_hand(state, 0, "mec")
    state, _ = apply(state, 0, {"type": "lay", "card": sword, "from": "left"})
    assert state["players"][0]["frozen"] == state["turn"] + 2
    assert not [a for a in game.legal_actions(state, 0) if a["type"] == "lay"]


def test_rytir_takes_1_less_from_creatures() -> None:
    """„Všechny útoky bytostí na Rytíře jsou o 1 sníženy. Tzn. v případě útoku o síle 1, bude
    výsledek 0 a rytíř zůstává nezraněn.“"""
    state = new_game()
    kostlivec = put(state, 0, "kostlivec")
    put(state, 1, "rytir")
    state["phase"], state["pending"] = "effects", [kostlivec]
    state, _ = apply(state, 0, {"type": "resolve", "card": kostlivec, "option": 0, "from": "left"})
    assert row_life(state, 1) == [("rytir", 4)]
    assert state["players"][1]["life"] == 7


def test_rytir_takes_full_damage_from_spells() -> None:
    state = main_phase(new_game(), 0, magic=2, hand=["kouzelna_sipka"])
    rytir = put(state, 1, "rytir")
    dart = uid_in_hand(state, 0, "kouzelna_sipka")
    state, _ = apply(state, 0, {"type": "lay", "card": dart, "target": rytir})
    assert row_life(state, 1) == [("rytir", 3)]


def test_a_frozen_rytir_takes_full_damage_from_creatures() -> None:
    """„Pokud má na sobě Rytíř krystal zmrazení, jeho schopnost je pozastavena a útoky bytostí ho
    zraňují běžným způsobem.“"""
    state = new_game()
    kostlivec = put(state, 0, "kostlivec")
    put(state, 1, "rytir", frozen=3)
    state["phase"], state["pending"] = "effects", [kostlivec]
    state, _ = apply(state, 0, {"type": "resolve", "card": kostlivec, "option": 0, "from": "left"})
    assert row_life(state, 1) == [("rytir", 3)]


def test_a_carrying_attack_loses_1_at_rytir() -> None:
    state = new_game()
    golem = put(state, 0, "ohnivy_elemental")
    put(state, 1, "rytir", life=1)
    state["phase"], state["pending"] = "effects", [golem]
    state, _ = apply(state, 0, {"type": "resolve", "card": golem, "option": 0, "from": "left"})
    assert row_life(state, 1) == []
    assert state["players"][1]["life"] == 7


def _pass_turns(state: dict, n: int) -> dict:
    """End ``n`` turns: creatures attack from the left, nothing else is done."""
    for _ in range(n):
        turn = state["turn"]
        while state["turn"] == turn and not game.is_over(state):
            seat = state["active"]
            actions = game.legal_actions(state, seat)
            resolves = [a for a in actions if a["type"] == "resolve"]
            command = resolves[0] if resolves else {"type": "end_phase"}
            state, _ = apply(state, seat, command)
    return state
