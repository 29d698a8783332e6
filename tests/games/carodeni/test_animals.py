"""The animal variant: taking animals, taming one at the end of a turn without brewing."""

from __future__ import annotations

import pytest

from games import carodeni as game
from games.carodeni import content
from games.interface import IllegalMove

from .support import apply, edit, give, new_game, only_player_lists, set_board, types


def _game(**options: object) -> dict:
    s = edit(new_game(2, animals=True, **options))
    for loc in ("mountains", "forest", "lake"):
        set_board(s, loc, ["roots", "feathers", "mushrooms"])
    return s


def test_taking_an_animal_flips_the_witch_card() -> None:
    s = _game()
    set_board(s, "mountains", witch="W06")
    s, _ = apply(s, 0, {"type": "play", "witch": "N1a"})
    s, ev = apply(s, 0, {"type": "take", "item": "animal", "location": "mountains"})
    assert ev[0]["animal"] == "snake" and s["players"][0]["animals"] == ["W06"]
    assert s["board"][0]["witch"] not in (None, "W06")


def test_no_animals_without_the_variant() -> None:
    s = edit(new_game(2))
    s, _ = apply(s, 0, {"type": "play", "witch": "N1a"})
    assert not any(a.get("item") == "animal" for a in game.legal_actions(s, 0))
    with pytest.raises(IllegalMove, match="variant"):
        apply(s, 0, {"type": "take", "item": "animal", "location": "mountains"})


def _after_collect(s: dict, witch: str) -> dict:
    only_player_lists(s, 0, hand=[witch, "N1a", "N1b"])
    s, _ = apply(s, 0, {"type": "play", "witch": witch})
    while s["turn"]["phase"] == "collect":
        s, _ = apply(s, 0, next(a for a in game.legal_actions(s, 0) if a.get("item") == "tool"))
    return s


def test_snake_example() -> None:
    """The rulebooks' example: a red witch collects, no potion can be brewed, so the player
    tames the snake, paying one herbs token."""
    s = _game()
    only_player_lists(s, 0, animals=["W16"], potions=["P04"])
    give(s, 0, herbs=1)
    s = _after_collect(s, "W03")
    assert game.legal_actions(s, 0) == [{"type": "tame", "animal": "W16"}, {"type": "end_turn"}]
    s, ev = apply(s, 0, {"type": "tame", "animal": "W16"})
    assert ev[0] == {"type": "AnimalTamed", "seat": 0, "card": "W16", "animal": "snake", "paid": "herbs"}
    assert types(ev)[-1] == "TurnEnded"
    assert s["players"][0]["clan_animals"] == ["W16"] and s["players"][0]["ingredients"]["herbs"] == 0
    assert content.animal_price()["snake"] == "herbs"


def test_never_two_of_the_same_animal_and_the_price_must_be_paid() -> None:
    s = _game()
    only_player_lists(s, 0, animals=["W16", "W02"], clan_animals=["W06"])
    give(s, 0, herbs=1)
    s = _after_collect(s, "W03")
    assert s["over"] is False and game.to_move(s) == [1]
    s2 = _game()
    only_player_lists(s2, 0, animals=["W16"], clan_animals=["W06"])
    give(s2, 0, herbs=1, berries=1)
    only_player_lists(s2, 0, potions=["P01"])
    s2 = _after_collect(s2, "W03")
    with pytest.raises(IllegalMove, match="never a second"):
        apply(s2, 0, {"type": "tame", "animal": "W16"})


def test_novices_cannot_tame() -> None:
    s = _game()
    only_player_lists(s, 0, animals=["W16"])
    give(s, 0, herbs=1)
    s, _ = apply(s, 0, {"type": "play", "witch": "N1a"})
    s, _ = apply(s, 0, {"type": "take", "item": "tool", "location": "mountains"})
    s, ev = apply(s, 0, {"type": "take", "item": "tool", "location": "forest"})
    assert types(ev)[-1] == "TurnEnded" and s["players"][0]["clan_animals"] == []


def test_brewing_and_taming_exclude_each_other() -> None:
    s = _game()
    only_player_lists(s, 0, animals=["W16"], potions=["P01"])
    give(s, 0, herbs=2, berries=1)
    s = _after_collect(s, "W03")
    s, ev = apply(s, 0, {"type": "brew", "potion": "P01", "payment": ["herbs", "berries"]})
    assert types(ev)[-1] == "TurnEnded" and s["players"][0]["animals"] == ["W16"]


def test_an_animal_goal_is_claimed_when_taming() -> None:
    goals = [
        {"token": "G01", "side": "easy"},
        {"token": "G05", "side": "easy"},
        {"token": "G13", "side": "easy"},
        {"token": "G02", "side": "hard"},
        {"token": "G09", "side": "hard"},
        {"token": "G12", "side": "hard"},
    ]
    s = _game(animal_goals=1, arranged={"goals": goals})
    only_player_lists(s, 0, animals=["W16"], clan_animals=["W02"])
    give(s, 0, herbs=1)
    s = _after_collect(s, "W03")
    s, ev = apply(s, 0, {"type": "tame", "animal": "W16"})
    assert any(e["type"] == "GoalClaimed" and e["token"] == "G13" for e in ev)
    assert game.score(s)["seats"][0]["breakdown"]["animals"] == 4
