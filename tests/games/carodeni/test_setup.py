"""Setup by player count, options and arrangements."""

from __future__ import annotations

import pytest

from games import carodeni as game
from games.carodeni import content
from games.interface import InvalidOptions
from games.rng import Rng

from .support import new_game


def _started(seats: int = 2, **options: object) -> dict:
    return game.setup(dict(options), seats, Rng(b"s", "setup"))[0]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_board_has_three_ingredients_a_potion_and_a_witch_per_location(seats: int) -> None:
    s = new_game(seats)
    for b in s["board"]:
        assert len(b["ingredients"]) == 3 and all(b["ingredients"])
        assert b["potion"] in content.potions() and b["witch"] in content.witches()
    assert sum(s["bag"].values()) == 65 - 9


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_starting_potions_by_turn_order_and_novice_pairs(seats: int) -> None:
    s = new_game(seats)
    for seat, p in enumerate(s["players"]):
        assert p["potions"] == [f"S{seat + 1}"]
        assert sorted(p["hand"]) == [f"N{seat + 1}a", f"N{seat + 1}b"]
        pair = {content.novices()[n]["symbol"] for n in p["hand"]}
        assert len(pair) == 1


@pytest.mark.parametrize(("seats", "aside"), [(2, 0), (3, 5), (4, 5), (5, 5)])
def test_five_potions_and_five_witches_set_aside_with_three_or_more(seats: int, aside: int) -> None:
    s = new_game(seats)
    assert len(s["witch_aside"]) == aside and len(s["potion_aside"]) == aside
    assert len(s["witch_deck"]) == 50 - 3 - aside
    assert len(s["potion_deck"]) == 50 - 3 - aside


@pytest.mark.parametrize(("seats", "hard", "easy"), [(2, 3, 2), (3, 4, 2), (4, 4, 3), (5, 4, 4)])
def test_goals_by_player_count(seats: int, hard: int, easy: int) -> None:
    s = new_game(seats)
    sides = [g["side"] for g in s["goals"]]
    assert sides.count("hard") == hard and sides.count("easy") == easy
    assert not any(content.goals()[g["token"]]["animal"] for g in s["goals"])
    assert len({g["token"] for g in s["goals"]}) == len(s["goals"])
    extra = new_game(seats, extra_hard_goal=True)
    assert [g["side"] for g in extra["goals"]].count("hard") == hard + 1


def test_animal_goals_are_added_on_top_of_the_counts() -> None:
    s = new_game(2, animals=True, animal_goals=2)
    animal = [g for g in s["goals"] if content.goals()[g["token"]]["animal"]]
    assert len(s["goals"]) == 7 and len(animal) == 2


@pytest.mark.parametrize(
    "options",
    [
        {"colour": "red"},
        {"solo": "yes"},
        {"animal_goals": 1},
        {"animals": True, "animal_goals": 3},
        {"difficulty": "grandmaster"},
        {"solo": True, "difficulty": "legendary"},
        {"arranged": []},
        {"arranged": {"deck": []}},
        {"arranged": {"witch_deck": ["W01", "W01"]}},
        {"arranged": {"potion_deck": ["X99"]}},
        {"arranged": {"bag": ["gold"]}},
        {"arranged": {"goals": [{"token": "G01", "side": "hard"}]}},
        {"animals": True, "animal_goals": True},
    ],
)
def test_bad_options_are_refused(options: dict) -> None:
    with pytest.raises(InvalidOptions):
        game.setup(options, 2, Rng(b"s", "setup"))


@pytest.mark.parametrize("seats", [1, 6])
def test_seat_counts(seats: int) -> None:
    with pytest.raises(InvalidOptions):
        game.setup({}, seats, Rng(b"s", "setup"))
    with pytest.raises(InvalidOptions):
        game.setup({"solo": True}, 3, Rng(b"s", "setup"))


def test_arranged_decks_goals_and_bag() -> None:
    goals = [
        {"token": "G01", "side": "easy"},
        {"token": "G05", "side": "easy"},
        {"token": "G02", "side": "hard"},
        {"token": "G09", "side": "hard"},
        {"token": "G12", "side": "hard"},
    ]
    e = _started(
        arranged={
            "witch_deck": ["W27", "W01", "W02", "W40"],
            "potion_deck": ["P01", "P02", "P03", "P04"],
            "goals": goals,
            "bag": ["herbs", "berries", "roots"] * 3 + ["feathers"],
        }
    )
    assert e["arranged"] is True
    assert [b["witch"] for b in e["board"]] == ["W27", "W01", "W02"]
    assert [b["potion"] for b in e["board"]] == ["P01", "P02", "P03"]
    assert e["witch_deck"][0] == "W40" and e["potion_deck"][0] == "P04"
    assert all(b["ingredients"] == ["herbs", "berries", "roots"] for b in e["board"])
    assert e["bag_plan"] == ["feathers"]
    assert e["goals"] == goals
    assert _started()["arranged"] is False


def test_setup_is_deterministic_for_a_seed() -> None:
    assert _started(3) == _started(3)


def test_solo_setup() -> None:
    s = new_game(2, solo=True, difficulty="novice")
    assert s["order"] == [1, 0] and s["ostara"] == 1
    assert game.to_move(s) == [1]
    assert game.legal_actions(s, 1) == [{"type": "ostara_turn"}]
    assert game.legal_actions(s, 0) == []
    assert s["players"][0]["potions"] == ["S2"] and s["players"][0]["hand"] == ["N1a", "N1b"]
    assert s["players"][1]["hand"] == [] and len(s["players"][1]["potions"]) == 1
    assert s["players"][1]["potions"][0] in ("S1", "S3", "S4", "S5")
    assert [g["side"] for g in s["goals"]] == ["easy", "easy", "hard", "hard", "hard"]
    assert len(s["ostara_state"]["tokens"]) == 7
    assert len(new_game(2, solo=True, animals=True)["ostara_state"]["tokens"]) == 9


@pytest.mark.parametrize("difficulty", ["experienced", "grandmaster"])
def test_harder_solo_difficulties_use_five_hard_goals(difficulty: str) -> None:
    s = new_game(2, solo=True, difficulty=difficulty)
    assert [g["side"] for g in s["goals"]] == ["hard"] * 5


def test_catalog_has_every_component_with_three_languages() -> None:
    cat = game.catalog()
    assert len(cat["witches"]) == 50 and len(cat["potions"]) == 50
    assert len(cat["starting_potions"]) == 5 and len(cat["novices"]) == 10
    assert len(cat["goals"]) == 15 and len(cat["ostara_tokens"]) == 9
    assert sum(1 for t in cat["ostara_tokens"] if t["animal"]) == 2
    assert sum(i["count"] for i in cat["ingredients"]) == 65
    for group in (
        "witches",
        "potions",
        "starting_potions",
        "novices",
        "ingredients",
        "tools",
        "animals",
        "ostara_tokens",
    ):
        for item in cat[group]:
            assert all(item["names"][lang] for lang in ("cs", "pl", "en")), (group, item["id"])
