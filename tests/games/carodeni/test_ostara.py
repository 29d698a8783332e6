"""The solo game against the Ostara automaton."""

from __future__ import annotations

import copy
import json

import pytest

from games import carodeni as game
from games.carodeni import content
from games.interface import IllegalMove
from games.rng import Rng

from .support import apply, edit, give, new_game, only_player_lists, set_board, stack_bag, types

HARD = [{"token": t, "side": "hard"} for t in ("G04", "G03", "G05", "G09", "G10")]


def _solo(difficulty: str = "experienced", tokens: list[str] | None = None, **options: object) -> dict:
    arranged: dict = {"ostara_tokens": [tokens or ["O1"]]}
    if difficulty != "novice":
        arranged["goals"] = HARD
    s = edit(new_game(2, solo=True, difficulty=difficulty, arranged=arranged, **options))
    for loc in ("mountains", "forest", "lake"):
        set_board(s, loc, ["roots", "feathers", "mushrooms"])
    only_player_lists(s, 1, potions=[])
    return s


def _chose(events: list[dict]) -> list[tuple]:
    return [(e["step"], e["choice"], e.get("location")) for e in events if e["type"] == "OstaraChose"]


def test_ostara_example_with_the_green_eight_point_witch() -> None:
    """The rulebooks' example: as many witches as potions, so a witch (first on the token); the
    leftmost goal wants a gold witch, none is on offer, the next a green one; of two green
    witches the one with 8 points (the bottom one). Then berries in the forest and herbs at the
    lake, for her red potion, which her red witch brews."""
    s = _solo()
    only_player_lists(s, 1, played=["W03", "W11"], potions=["S4", "P01"])
    set_board(s, "mountains", ["roots", "feathers", "mushrooms"], witch="W33")
    set_board(s, "forest", ["berries", "roots", "feathers"], witch="W14")
    set_board(s, "lake", ["feathers", "herbs", "roots"], witch="W28")
    stack_bag(s, ["roots", "roots"])
    s, ev = apply(s, 1, {"type": "ostara_turn"})
    assert ev[0]["type"] == "OstaraTokensShuffled" and ev[1] == {
        "type": "OstaraTokenDrawn",
        "seat": 1,
        "token": "O1",
    }
    chose = [e for e in ev if e["type"] == "OstaraChose"]
    assert (chose[0]["choice"], chose[0]["reason"]) == (
        "witch",
        "as many witches as potions (2): the first on the token",
    )
    assert (chose[1]["choice"], chose[1]["location"]) == ("W28", "lake")
    assert "goal G03" in chose[1]["reason"] and "most points (8)" in chose[1]["reason"]
    assert _chose(ev)[2:] == [("ingredient", "berries", "forest"), ("ingredient", "herbs", "lake")]
    brewed = next(e for e in ev if e["type"] == "PotionBrewed")
    assert (brewed["potion"], brewed["witch"], brewed["payment"]) == ("P01", "W03", ["herbs", "berries"])
    p = s["players"][1]
    assert p["played"] == ["W11", "W28"] and p["clan_witches"] == ["W03"] and p["potions"] == ["S4"]
    assert types(ev)[-1] == "TurnEnded" and game.to_move(s) == [0]


def test_fewer_witches_than_potions_takes_a_witch_and_vice_versa() -> None:
    s = _solo(tokens=["O2"])
    only_player_lists(s, 1, played=[], potions=["P11"])
    s2, ev = apply(s, 1, {"type": "ostara_turn"})
    assert _chose(ev)[0][:2] == ("potion|witch", "witch")
    only_player_lists(s, 1, played=["W03"], potions=[])
    s2, ev = apply(s, 1, {"type": "ostara_turn"})
    assert _chose(ev)[0][:2] == ("potion|witch", "potion")
    only_player_lists(s, 1, played=[], potions=[])
    s2, ev = apply(s, 1, {"type": "ostara_turn"})
    assert _chose(ev)[0][:2] == ("potion|witch", "potion")


def test_banner_criterion_and_topmost_fallback() -> None:
    s = _solo(tokens=["O2"])
    only_player_lists(s, 1, played=["W14"], potions=[])
    set_board(s, "mountains", potion="P01")
    set_board(s, "forest", potion="P12")
    set_board(s, "lake", potion="P20")
    s2, ev = apply(s, 1, {"type": "ostara_turn"})
    assert _chose(ev)[1] == ("potion", "P20", "lake")
    only_player_lists(s, 1, played=["W27"], potions=[])
    set_board(s, "mountains", potion="P02")
    set_board(s, "forest", potion="P12")
    set_board(s, "lake", potion="P14")
    s2, ev = apply(s, 1, {"type": "ostara_turn"})
    assert _chose(ev)[1] == ("potion", "P14", "lake")
    set_board(s, "mountains", potion="P32")
    set_board(s, "forest", potion="P12")
    set_board(s, "lake", potion="P22")
    s2, ev = apply(s, 1, {"type": "ostara_turn"})
    assert _chose(ev)[1] == ("potion", "P22", "lake")
    assert "topmost" not in next(e for e in ev if e.get("choice") == "P22")["reason"]
    set_board(s, "lake", potion="P02")
    s2, ev = apply(s, 1, {"type": "ostara_turn"})
    assert _chose(ev)[1] == ("potion", "P02", "lake")
    assert "goal G05" in next(e for e in ev if e.get("choice") == "P02")["reason"]
    set_board(s, "mountains", potion="P12")
    set_board(s, "forest", potion="P18")
    set_board(s, "lake", potion="P32")
    s2, ev = apply(s, 1, {"type": "ostara_turn"})
    assert _chose(ev)[1] == ("potion", "P12", "mountains")
    assert "topmost" in next(e for e in ev if e.get("choice") == "P12")["reason"]


def test_ingredient_priorities() -> None:
    """A potion she has a witch for first, then the fewest missing, the most points, the left."""
    s = _solo(tokens=["O7"])
    set_board(s, "mountains", ["roots", "mushrooms", "feathers"])
    set_board(s, "forest", ["berries", "herbs", "feathers"])
    set_board(s, "lake", ["roots", "berries", "herbs"])
    only_player_lists(s, 1, played=["W14"], potions=["P02", "P11"])
    give(s, 1, mushrooms=1)
    s2, ev = apply(s, 1, {"type": "ostara_turn"})
    ing = next(e for e in ev if e["type"] == "OstaraChose" and e["step"] == "ingredient")
    assert (ing["choice"], ing["location"], ing["reason"]) == ("berries", "forest", "for potion P11")
    only_player_lists(s, 1, played=["W03"], potions=["P04", "P01"])
    s2, ev = apply(s, 1, {"type": "ostara_turn"})
    ing = next(e for e in ev if e["type"] == "OstaraChose" and e["step"] == "ingredient")
    assert (ing["choice"], ing["reason"]) == ("berries", "for potion P01")


def test_she_brews_without_tools_and_pays_a_missing_ingredient_with_a_pair() -> None:
    s = _solo(tokens=["O7"])
    only_player_lists(s, 1, played=["W03"], potions=["P08"])
    give(s, 1, herbs=1, feathers=2)
    set_board(s, "mountains", ["mushrooms", "mushrooms", "mushrooms"])
    set_board(s, "forest", ["mushrooms", "mushrooms", "mushrooms"])
    set_board(s, "lake", ["mushrooms", "mushrooms", "mushrooms"])
    stack_bag(s, ["mushrooms"])
    s, ev = apply(s, 1, {"type": "ostara_turn"})
    brewed = next(e for e in ev if e["type"] == "PotionBrewed")
    assert brewed["payment"] == ["herbs", "pair:feathers"] and brewed["tools_to_clan"] == []
    assert s["players"][1]["clan_potions"] == ["P08"]


def test_animal_token_takes_the_first_new_animal_into_her_clan() -> None:
    s = _solo(tokens=["O8"], animals=True)
    only_player_lists(s, 1, clan_animals=["W01"])
    set_board(s, "mountains", witch="W06")
    set_board(s, "forest", witch="W02")
    s2, ev = apply(s, 1, {"type": "ostara_turn"})
    assert _chose(ev)[0] == ("animal", "raven", "forest")
    assert s2["players"][1]["clan_animals"] == ["W01", "W02"]
    set_board(s, "forest", witch="W11")
    set_board(s, "lake", witch="W16")
    s2, ev = apply(s, 1, {"type": "ostara_turn"})
    assert _chose(ev)[0][:2] == ("animal", None)
    assert [c[0] for c in _chose(ev)] == ["animal", "ingredient", "ingredient"]


def test_stages_reshuffle_her_tokens_and_the_game_lasts_fifteen_rounds() -> None:
    s = new_game(2, solo=True, difficulty="novice")
    shuffles, tokens = [], []
    rounds = 0
    while not s["over"]:
        seat = game.to_move(s)[0]
        actions = game.legal_actions(s, seat)
        bot = game.BOTS["ostara" if seat == 1 else "default"]
        cmd = bot(game.view(s, seat), actions, Rng(b"x", str(rounds)))
        s, ev = apply(s, seat, cmd, label=f"v{rounds}")
        rounds += 1
        shuffles += [e for e in ev if e["type"] == "OstaraTokensShuffled"]
        tokens += [e["token"] for e in ev if e["type"] == "OstaraTokenDrawn"]
    assert [e["stage"] for e in shuffles] == [0, 1, 2]
    assert all(sorted(e["order"]) == sorted(f"O{i}" for i in range(1, 8)) for e in shuffles)
    assert len(tokens) == 15 and s["round"] == 15 and s["end_reason"] == "fifteen_rounds"
    for stage in range(3):
        assert len(set(tokens[stage * 5 : stage * 5 + 5])) == 5


def test_novice_ostara_never_claims_goals_nor_pursues_them() -> None:
    s = _solo("novice")
    s["goals"] = [{"token": "G03", "side": "easy", "claimed_by": None}]
    only_player_lists(s, 1, played=["W03"], potions=["P01"], clan_witches=["W27"])
    give(s, 1, herbs=1, berries=1)
    set_board(s, "mountains", witch="W28")
    s2, ev = apply(s, 1, {"type": "ostara_turn"})
    assert not any(e["type"] == "GoalClaimed" for e in ev)
    assert "goals: none pursued on novice" in next(e for e in ev if e.get("step") == "witch")["reason"]


def test_experienced_ostara_claims_goals() -> None:
    s = _solo("experienced")
    s["goals"][0] = {"token": "G01", "side": "easy", "claimed_by": None}
    only_player_lists(s, 1, played=["W03"], potions=["P01"], clan_witches=["W11"])
    give(s, 1, herbs=1, berries=1)
    s, ev = apply(s, 1, {"type": "ostara_turn"})
    assert any(e["type"] == "GoalClaimed" and e["seat"] == 1 for e in ev)
    assert game.score(s)["seats"][1]["breakdown"]["goals"] == 3
    assert s["end_round"] is None


def _last_turn(difficulty: str) -> tuple[dict, list[dict]]:
    s = _solo(difficulty)
    s["round"] = 14
    s["turn"]["index"] = 1
    s["goals"][0]["claimed_by"] = 0
    s["players"][0]["goals"] = [0]
    s["players"][0]["hand"] = ["N1a", "N1b"]
    s, _ = apply(s, 0, {"type": "play", "witch": "N1a"})
    s, _ = apply(s, 0, {"type": "take", "item": "tool", "location": "mountains"})
    return apply(s, 0, {"type": "take", "item": "tool", "location": "forest"})


def test_grandmaster_ostara_gets_the_goals_nobody_claimed() -> None:
    s, ev = _last_turn("grandmaster")
    assert types(ev)[-6:] == ["TurnEnded"] + ["GoalClaimed"] * 4 + ["GameEnded"]
    assert s["over"] and s["players"][1]["goals"] == [1, 2, 3, 4]
    assert game.score(s)["seats"][1]["breakdown"]["goals"] == 24


def test_experienced_ostara_does_not_get_unclaimed_goals() -> None:
    s, ev = _last_turn("experienced")
    assert types(ev)[-2:] == ["TurnEnded", "GameEnded"] and s["players"][1]["goals"] == []


def test_ostara_never_scores_tools_and_only_she_plays_her_seat() -> None:
    s = _solo()
    s["players"][1]["clan_tools"] = ["P01", "P02"]
    assert game.score(s)["seats"][1]["breakdown"]["tools"] == 0
    with pytest.raises(IllegalMove, match="ostara_turn"):
        apply(s, 1, {"type": "rest"})
    assert content.ostara_tokens()["O1"]["take"][0] == "witch|potion"


def test_no_goal_or_deck_ends_the_solo_game_early() -> None:
    s = _solo()
    s["witch_deck"] = s["witch_deck"][:1]
    only_player_lists(s, 1, played=[], potions=["P01"])
    s, ev = apply(s, 1, {"type": "ostara_turn"})
    assert "DeckRanOut" in types(ev) and "EndTriggered" not in types(ev)


def test_deciding_leaves_every_seat_of_the_input_alone() -> None:
    """The player's last command gives Ostara the unclaimed goals (another seat's area): the
    state handed to ``decide`` must not change."""
    s = _solo("grandmaster")
    s["round"] = 14
    s["turn"]["index"] = 1
    s["players"][0]["hand"] = ["N1a", "N1b"]
    s, _ = apply(s, 0, {"type": "play", "witch": "N1a"})
    s, _ = apply(s, 0, {"type": "take", "item": "tool", "location": "mountains"})
    before = copy.deepcopy(s)
    events = game.decide(s, 0, {"type": "take", "item": "tool", "location": "forest"}, Rng(b"x", "v"))
    assert any(e["type"] == "GoalClaimed" and e["seat"] == 1 for e in events)
    assert json.dumps(s, sort_keys=True) == json.dumps(before, sort_keys=True)


def test_she_brews_one_potion_a_turn_the_most_points_first() -> None:
    """Ruling 6: of two potions she could brew, only the one with more points, by the first of
    her witches that carries its banner (all her witches are active)."""
    s = _solo(tokens=["O6"])
    only_player_lists(s, 1, played=["W14", "W03", "W11"], potions=["P01", "P02"])
    give(s, 1, herbs=1, berries=1, mushrooms=1, roots=1, feathers=1)
    s, ev = apply(s, 1, {"type": "ostara_turn"})
    brewed = [e for e in ev if e["type"] == "PotionBrewed"]
    assert [(e["potion"], e["witch"]) for e in brewed] == [("P02", "W03")]
    p = s["players"][1]
    assert p["potions"] == ["P01"] and p["played"][:2] == ["W14", "W11"] and len(p["played"]) == 3
