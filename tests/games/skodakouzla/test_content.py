"""The seeds: the starter deck as listed, the 67-card shop, the wizards and the level card."""

from __future__ import annotations

import json
from collections import Counter

from games import skodakouzla as game
from games.skodakouzla.content import (
    ALL_COLOURS,
    ATTACK_KINDS,
    TYPES,
    cards,
    choice_effect,
    curse_loss,
    levels,
    shop_cards,
    starter_deck,
    wizards,
)

STARTER = {
    "Meč": 2,
    "Štít": 2,
    "Požehnání": 2,
    "Kouzelná šípka": 2,
    "Křišťálová koule": 2,
    "Magický kámen": 2,
    "Kletbička": 2,
    "Knihovnička": 2,
    "Tajemný lektvar": 3,
    "Zmrazení": 3,
    "Kostlivec": 3,
    "Léčitelka": 3,
    "Ohnivá koule": 3,
}
NAMED = [
    "Rytíř",
    "Magický prsten",
    "Velká knihovna",
    "Strom",
    "Mrazivé brnění",
    "Ledová bouře",
    "Velké vysátí",
    "Kostěný plot",
    "Pekelné brnění",
    "Ledový štít",
    "Strážný",
    "Mrazivé posílení",
    "Zloděj",
    "Lektvar zuřivosti",
    "Obchodník",
    "Kletba",
    "Temné prokletí",
    "Kouzelný šíp",
    "Lučištník",
    "Drak",
    "Démonek",
    "Výbuch",
    "Tornádo",
    "Čarodějnice",
    "Upír",
    "Duch",
    "Ledový golem",
    "Kněz",
    "Čarovné trní",
    "Ohnivé brnění",
    "Vysátí magie",
]


def test_the_starter_deck_is_the_rulebooks_list() -> None:
    deck = [cards()[c] for c in starter_deck()]
    assert {c["names"]["cs"]: c["cost"] for c in deck} == STARTER
    assert len(deck) == 13


def test_the_shop_has_67_cards_of_cost_3_to_6_in_five_colours() -> None:
    shop = [cards()[c] for c in shop_cards()]
    assert len(shop) == 67
    assert {c["cost"] for c in shop} == {3, 4, 5, 6}
    assert set(Counter(c["colour"] for c in shop)) == set(ALL_COLOURS)
    assert {c["type"] for c in shop} == set(TYPES)


def test_every_card_the_rulebook_names_is_in_the_game() -> None:
    names = {c["names"]["cs"] for c in cards().values()}
    assert not set(NAMED) - names


def test_attack_types_are_the_ones_the_rulebook_lists() -> None:
    by_kind: dict[str, set[str]] = {k: set() for k in ATTACK_KINDS}
    for c in cards().values():
        for eff in c.get("effects", []) + c.get("acts", []):
            if eff["do"] == "attack":
                by_kind[eff["kind"]].add(c["names"]["cs"])
    assert by_kind["targeted"] == {"Kouzelný šíp", "Kouzelná šípka", "Lučištník", "Zmrazení"}
    assert by_kind["two"] == {"Drak", "Démonek", "Temné prokletí"}
    assert by_kind["area"] == {"Výbuch", "Tornádo", "Ledová bouře", "Velké vysátí"}


def test_every_card_is_well_formed() -> None:
    for c in cards().values():
        assert all(c["names"][lang] for lang in ("cs", "pl", "en"))
        assert c["colour"] in ALL_COLOURS and c["type"] in TYPES
        if c["type"] != "spell":
            assert c["life"] > 0 and "effects" not in c
        else:
            assert c["effects"] and "life" not in c
        assert not c.get("acts") or c["type"] == "creature"
        for effects in (c.get("effects", []), c.get("on_lay", [])):
            choosing = [e for e in effects if choice_effect([e])]
            assert len(choosing) <= 1, c["id"]


def test_wizards_and_the_level_card() -> None:
    assert len(wizards()) == 6
    assert sorted(w["colour"] for w in wizards() if w["level"] == 2) == ["dark", "fire", "forest", "ice"]
    assert levels()[1]["life"] == 7 and levels()[2]["life"] == 8
    assert [curse_loss(1, n) for n in (3, 4, 6, 7, 20)] == [0, 1, 1, 2, 2]
    assert [curse_loss(2, n) for n in (4, 5, 8, 9, 20)] == [0, 1, 1, 2, 2]


def test_the_catalog_is_json_with_names() -> None:
    catalog = json.loads(json.dumps(game.catalog()))
    assert len(catalog["cards"]) == len(cards())
    assert all(c["names"]["cs"] and c["names"]["pl"] and c["names"]["en"] for c in catalog["cards"])
    assert catalog["levels"]["2"]["life"] == 8
