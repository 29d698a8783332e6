"""Options, variants, modifications and arranged games."""

from __future__ import annotations

import pytest

from games import skodakouzla as game
from games.interface import InvalidOptions
from games.rng import Rng
from games.skodakouzla.content import card

from .support import apply, main_phase, new_game, put, uid_in_hand


@pytest.mark.parametrize(
    "options",
    [
        {"colour": 1},
        {"income": 4},
        {"income": -1},
        {"income": True},
        {"income": "1"},
        {"two_colours": ["fire"]},
        {"two_colours": ["fire", "fire"]},
        {"two_colours": "yes"},
        {"masters": ["fire"]},
        {"masters": ["neutral", "ice"]},
        {"shop_topdeck": 1},
        {"other_freeze": "no"},
        {"arranged": {"shop": ["drak", "drak"]}},
        {"arranged": {"decks": [["mec", "mec"], []]}},
        {"arranged": {"decks": [[]]}},
        {"arranged": {"shop": ["nope"]}},
        {"arranged": {"other": []}},
        {"arranged": []},
        {"two_colours": ["ice", "dark"], "arranged": {"shop": ["drak"]}},
    ],
)
def test_bad_options_are_refused(options: dict) -> None:
    with pytest.raises(InvalidOptions):
        game.setup(options, 2, Rng(b"x", "setup"))


def test_only_two_seats() -> None:
    with pytest.raises(InvalidOptions):
        game.setup({}, 3, Rng(b"x", "setup"))


def test_the_first_event_carries_options_seats_and_arranged() -> None:
    first = game.setup({}, 2, Rng(b"x", "setup"))[0]
    assert first["type"] == "GameStarted" and first["seats"] == 2 and first["arranged"] is False
    assert first["options"]["income"] == 1


def test_arranged_shop_and_decks_come_first() -> None:
    options = {
        "arranged": {
            "shop": ["drak", "vybuch", "rytir", "strom", "kletba", "knez", "upir"],
            "decks": [["ohniva_koule", "mec", "stit"], ["kostlivec"]],
        }
    }
    state = new_game(options)
    assert [state["cards"][u] for u in state["shop"]["offer"]] == [
        "drak",
        "vybuch",
        "rytir",
        "strom",
        "kletba",
        "knez",
    ]
    assert state["cards"][state["shop"]["deck"][0]] == "upir"
    assert [state["cards"][u] for u in state["players"][0]["hand"]] == ["ohniva_koule", "mec", "stit"]
    assert state["cards"][state["players"][1]["hand"][0]] == "kostlivec"
    assert state["arranged"] is True


def test_the_same_seed_gives_the_same_game() -> None:
    assert game.setup({}, 2, Rng(b"s", "setup")) == game.setup({}, 2, Rng(b"s", "setup"))
    assert game.setup({}, 2, Rng(b"s", "setup")) != game.setup({}, 2, Rng(b"t", "setup"))


def test_two_colours_keep_two_colours_and_neutral_in_the_shop() -> None:
    state = new_game({"two_colours": ["ice", "dark"]})
    colours = {card(state["cards"][u])["colour"] for u in state["shop"]["deck"] + state["shop"]["offer"]}
    assert colours == {"ice", "dark", "neutral"}
    assert len(state["shop"]["unused"]) == 28
    assert len(state["players"][0]["deck"]) + len(state["players"][0]["hand"]) == 13


def test_two_colours_at_random_are_recorded() -> None:
    first = game.setup({"two_colours": True}, 2, Rng(b"r", "setup"))[0]
    assert len(first["shop_colours"]) == 2


def test_duel_of_masters_starts_at_level_2() -> None:
    state = new_game({"masters": ["forest", "dark"]})
    assert [(p["level"], p["colour"], p["life"]) for p in state["players"]] == [
        (2, "forest", 8),
        (2, "dark", 8),
    ]


@pytest.mark.parametrize("cost, extra", [(3, 2), (4, 2), (5, 3), (6, 3)])
def test_shop_top_deck_rule(cost: int, extra: int) -> None:
    state = main_phase(new_game({"shop_topdeck": True}), 0, magic=cost + extra)
    shop = state["shop"]
    target = next(u for u in shop["deck"] if card(state["cards"][u])["cost"] == cost)
    at = shop["deck"].index(target)
    shop["deck"][at], shop["offer"][0] = shop["offer"][0], target
    assert {"type": "buy", "card": target, "top": True} in game.legal_actions(state, 0)
    state, _ = apply(state, 0, {"type": "buy", "card": target, "top": True})
    assert state["players"][0]["deck"][0] == target and state["players"][0]["magic"] == 0


def test_top_deck_buys_need_the_rule() -> None:
    state = main_phase(new_game(), 0, magic=20)
    assert not [a for a in game.legal_actions(state, 0) if a.get("top")]


def test_other_freeze_costs_the_income_and_the_discount_but_not_the_sword() -> None:
    state = main_phase(
        new_game({"other_freeze": True, "masters": ["fire", "fire"], "income": 2}),
        0,
        magic=3,
        hand=["zmrazeni"],
    )
    state, _ = apply(state, 0, {"type": "lay", "card": uid_in_hand(state, 0, "zmrazeni"), "target": "wizard"})
    state, _ = apply(state, 0, {"type": "end_phase"})
    assert state["active"] == 1 and state["players"][1]["magic"] == 0
    state = main_phase(state, 1, magic=3, hand=["ohniva_koule"])
    fireball = uid_in_hand(state, 1, "ohniva_koule")
    assert game.rules.lay_price(state, 1, fireball) == 3
    state, _ = apply(state, 1, {"type": "lay", "card": fireball, "from": "left"})


def test_standard_freeze_keeps_the_discount() -> None:
    state = main_phase(
        new_game({"masters": ["fire", "fire"]}), 1, magic=2, hand=["ohniva_koule", "pozehnani"]
    )
    state["players"][1]["frozen"] = 5
    fireball = uid_in_hand(state, 1, "ohniva_koule")
    assert game.rules.lay_price(state, 1, fireball) == 2
    lays = {a["card"] for a in game.legal_actions(state, 1) if a["type"] == "lay"}
    assert lays == {uid_in_hand(state, 1, "pozehnani")}


def test_masters_may_lay_own_colour_creatures_cheaper() -> None:
    state = main_phase(new_game({"masters": ["dark", "fire"]}), 0, magic=2, hand=["kostlivec"])
    put(state, 1, "stit")
    kostlivec = uid_in_hand(state, 0, "kostlivec")
    state, _ = apply(state, 0, {"type": "lay", "card": kostlivec, "end": "left"})
    assert state["players"][0]["magic"] == 0
