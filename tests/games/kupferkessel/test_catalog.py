"""The content: 56 ingredient cards, special symbols on value-2 cards, 13 recipes, localized names."""

from __future__ import annotations

from collections import Counter

import games.kupferkessel as kk


def test_fourteen_ingredients_in_seven_colours_with_values_one_to_four() -> None:
    catalog = kk.catalog()
    cards = catalog["cards"]
    assert len(cards) == 56 and len({c["id"] for c in cards}) == 56
    assert Counter(c["ingredient"] for c in cards) == {i["id"]: 4 for i in catalog["ingredients"]}
    assert all(sorted(c["value"] for c in cards if c["ingredient"] == i["id"]) == [1, 2, 3, 4]
               for i in catalog["ingredients"])  # fmt: skip
    assert Counter(i["colour"] for i in catalog["ingredients"]) == {
        c: 2 for c in ("white", "black", "grey", "blue", "brown", "green", "purple")
    }


def test_one_plant_per_non_player_colour() -> None:
    plants = {i["id"]: i["colour"] for i in kk.catalog()["ingredients"] if i["plant"]}
    assert plants == {
        "roots": "grey",
        "moss": "blue",
        "mushrooms": "brown",
        "pumpkin": "green",
        "creeper": "purple",
    }


def test_special_symbols_only_on_value_two_cards() -> None:
    cards = kk.catalog()["cards"]
    assert all(c["value"] == 2 for c in cards if c["symbol"])
    assert Counter(c["symbol"] for c in cards if c["symbol"]) == {"explode": 7, "hat": 7}


def test_thirteen_recipes_worth_five_fifteen_and_ten() -> None:
    points = Counter(r["points"] for r in kk.catalog()["recipes"])
    assert points == {15: 5, 5: 2, 10: 6}


def test_the_rulebooks_named_cards_exist_with_czech_polish_and_english_names() -> None:
    by_id = {c["id"]: c for c in kk.catalog()["cards"]}
    for card_id in ("white-hair-2", "white-newt-eyes-3", "black-bottle-4", "grey-spider-web-1"):
        assert all(by_id[card_id]["names"][lang] for lang in ("cs", "pl", "en"))
    assert kk.INFO.id == "kupferkessel" and (kk.INFO.min_seats, kk.INFO.max_seats) == (2, 2)
