"""Setup, options and arranged games."""

from __future__ import annotations

from collections import Counter

import pytest

import games.kupferkessel as kk
from games.interface import InvalidOptions
from games.kupferkessel.content import CORNER_SPOTS, card_order, cards
from games.rng import Rng

from .invariants import all_cards_of
from .support import new_game

NON_PLAYER = [c for c in card_order() if cards()[c]["colour"] not in ("white", "black")]
PLAYER = [c for c in card_order() if cards()[c]["colour"] in ("white", "black")]


def events(options: dict | None = None, seed: bytes = b"s") -> list[dict]:
    return kk.setup(options or {}, 2, Rng(seed, "setup"))


def test_opening_events_and_the_first_carries_options_and_arranged() -> None:
    opening = events()
    assert [e["type"] for e in opening] == [
        "GameStarted", "GridLaid", "CauldronStarted", "CauldronStarted", "DeckStacked",
    ]  # fmt: skip
    assert opening[0] == {
        "type": "GameStarted", "options": {}, "seats": 2, "arranged": False,
        "direction": "clockwise", "recipes": False, "pawns": [0, 10],
    }  # fmt: skip


def test_square_of_32_cards_with_corners_a_deck_of_22_and_two_cauldrons() -> None:
    state = new_game()
    assert all(state["grid"][s] is None for s in CORNER_SPOTS)
    assert sum(1 for c in state["grid"] if c) == 32
    assert len(state["deck"]) == 22
    assert [len(c) for c in state["cauldrons"]] == [1, 1]
    assert Counter(all_cards_of(state)) == Counter(card_order())
    assert state["turn"] == 0 and state["phase"] == "move"


@pytest.mark.parametrize("seed", [b"a", b"b", b"c", b"d", b"e", b"f"])
def test_no_cauldron_starts_black_or_white(seed: bytes) -> None:
    state = new_game(seed=seed)
    assert all(cards()[c[0]]["colour"] not in ("white", "black") for c in state["cauldrons"])


def test_black_or_white_first_cards_go_under_the_deck_and_the_next_is_drawn() -> None:
    deck = NON_PLAYER[:32] + [PLAYER[0], PLAYER[1], NON_PLAYER[32], PLAYER[2], NON_PLAYER[33]]
    opening = events({"arranged": {"deck": deck}})
    assert opening[2] == {"type": "CauldronStarted", "seat": 0, "card": NON_PLAYER[32], "refused": PLAYER[:2]}
    assert opening[3] == {
        "type": "CauldronStarted",
        "seat": 1,
        "card": NON_PLAYER[33],
        "refused": PLAYER[2:3],
    }
    stacked = opening[4]["deck"]
    assert stacked[-3:] == PLAYER[:3]
    assert len(stacked) == 22


def test_the_same_seed_gives_the_same_game_and_another_seed_another() -> None:
    assert events(seed=b"x") == events(seed=b"x")
    assert events(seed=b"x") != events(seed=b"y")


def test_arranged_deck_is_consumed_first_then_the_seeded_stream_takes_over() -> None:
    prefix = list(reversed(card_order()))[:10]
    opening = events({"arranged": {"deck": prefix}}, seed=b"q")
    assert opening[0]["arranged"] is True
    row0 = opening[1]["grid"][0]
    assert row0[1:5] == prefix[:4] and opening[1]["grid"][1][0] == prefix[4]
    assert events({"arranged": {"deck": prefix}}, seed=b"q") == opening


def test_arranged_cauldrons_start_with_the_given_cards() -> None:
    opening = events({"arranged": {"cauldrons": ["grey-roots-3", "blue-moss-1"]}})
    assert opening[2]["card"] == "grey-roots-3" and opening[3]["card"] == "blue-moss-1"
    state = new_game({"arranged": {"cauldrons": ["grey-roots-3", "blue-moss-1"]}})
    assert Counter(all_cards_of(state)) == Counter(card_order())


def test_a_fully_arranged_deck_fixes_the_whole_table() -> None:
    firsts = ["grey-roots-1", "grey-roots-2"]
    deck = [c for c in card_order() if c not in firsts]
    state = new_game({"arranged": {"deck": deck, "cauldrons": firsts}}, seed=b"any")
    other = new_game({"arranged": {"deck": deck, "cauldrons": firsts}}, seed=b"other")
    assert state == other
    assert state["deck"] == deck[32:]


def test_advanced_game_deals_two_secret_recipes_each() -> None:
    opening = events({"recipes": True})
    dealt = [e for e in opening if e["type"] == "RecipesDealt"]
    assert [d["seat"] for d in dealt] == [0, 1]
    assert all(len(d["recipes"]) == 2 for d in dealt)
    assert len(set(dealt[0]["recipes"]) | set(dealt[1]["recipes"])) == 4
    arranged = events({"recipes": True, "arranged": {"recipes": ["plants", "last-card", "fewer-cards"]}})
    dealt = [e for e in arranged if e["type"] == "RecipesDealt"]
    assert dealt[0]["recipes"] == ["plants", "last-card"] and dealt[1]["recipes"][0] == "fewer-cards"


@pytest.mark.parametrize(
    "options, seats",
    [
        ({}, 3),
        ({}, 1),
        ({"variant": 1}, 2),
        ({"recipes": "yes"}, 2),
        ({"direction": "left"}, 2),
        ({"arranged": []}, 2),
        ({"arranged": {"hand": []}}, 2),
        ({"arranged": {"deck": ["no-such-card"]}}, 2),
        ({"arranged": {"deck": ["grey-roots-1", "grey-roots-1"]}}, 2),
        ({"arranged": {"deck": "grey-roots-1"}}, 2),
        ({"arranged": {"cauldrons": ["white-hair-3"]}}, 2),
        ({"arranged": {"cauldrons": ["grey-roots-1", "grey-roots-2", "grey-roots-3"]}}, 2),
        ({"arranged": {"cauldrons": ["grey-roots-1"], "deck": ["grey-roots-1"]}}, 2),
        ({"arranged": {"recipes": ["plants"]}}, 2),
        ({"recipes": True, "arranged": {"recipes": ["no-such-recipe"]}}, 2),
    ],
)
def test_invalid_options_and_arrangements_are_refused(options: dict, seats: int) -> None:
    with pytest.raises(InvalidOptions):
        kk.setup(options, seats, Rng(b"s", "setup"))


def test_counterclockwise_is_recorded() -> None:
    assert events({"direction": "counterclockwise"})[0]["direction"] == "counterclockwise"
    assert new_game({"direction": "counterclockwise"})["direction"] == "counterclockwise"
