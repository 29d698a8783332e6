"""Goals, the end of the game and the final scoring."""

from __future__ import annotations

import pytest

from games import carodeni as game
from games.interface import IllegalMove

from .support import apply, edit, give, new_game, only_player_lists, set_board, types

GOALS = [
    {"token": "G01", "side": "easy"},
    {"token": "G05", "side": "easy"},
    {"token": "G02", "side": "hard"},
    {"token": "G09", "side": "hard"},
    {"token": "G12", "side": "hard"},
]


def _game(seats: int = 2, **options: object) -> dict:
    if seats == 2 and "goals" not in options.get("arranged", {}):  # type: ignore[operator]
        options = {**options, "arranged": {"goals": GOALS}}
    s = edit(new_game(seats, **options))
    for loc in ("mountains", "forest", "lake"):
        set_board(s, loc, ["roots", "feathers", "mushrooms"])
    return s


def _finish_turn(s: dict, seat: int) -> tuple[dict, list[dict]]:
    """Spend a turn on tools (or rest when the hand is empty)."""
    events: list[dict] = []
    while game.to_move(s) == [seat]:
        actions = game.legal_actions(s, seat)
        pick = next((a for a in actions if a["type"] == "take" and a.get("item") == "tool"), None)
        pick = pick or next((a for a in actions if a["type"] in ("play", "end_turn")), actions[0])
        s, ev = apply(s, seat, pick, label=f"v{len(events)}-{s['round']}")
        events += ev
    return s, events


def _brew_red(s: dict, seat: int = 0) -> tuple[dict, list[dict]]:
    only_player_lists(s, seat, hand=["W03", "N1a", "N1b"], potions=["P01"])
    give(s, seat, herbs=1, berries=1)
    s, _ = apply(s, seat, {"type": "play", "witch": "W03"})
    s, _ = apply(s, seat, {"type": "take", "item": "tool", "location": "lake"})
    s, _ = apply(s, seat, {"type": "take", "item": "tool", "location": "lake"})
    return apply(s, seat, {"type": "brew", "potion": "P01", "payment": ["herbs", "berries"]})


def test_goals_are_claimed_at_once_and_only_once() -> None:
    s = _game()
    only_player_lists(s, 0, clan_witches=["W11"], clan_potions=["P02"])
    s, ev = _brew_red(s)
    claims = [e for e in ev if e["type"] == "GoalClaimed"]
    assert [(e["token"], e["side"], e["points"]) for e in claims] == [("G01", "easy", 3), ("G05", "easy", 3)]
    assert s["players"][0]["goals"] == [0, 1]
    assert game.score(s)["seats"][0]["breakdown"]["goals"] == 6
    assert s["end_round"] is None
    only_player_lists(s, 1, clan_witches=["W13", "W11"], clan_potions=["P03", "P04"])
    s, ev = _brew_red(s, 1)
    assert not any(e["type"] == "GoalClaimed" for e in ev)


def test_the_second_to_last_goal_triggers_the_end_after_one_more_round() -> None:
    s = _game()
    for g in s["goals"][2:4]:
        g["claimed_by"] = 1
    s["players"][1]["goals"] = [2, 3]
    s["goals"][1]["claimed_by"] = 1
    s["players"][1]["goals"].append(1)
    only_player_lists(s, 0, clan_witches=["W11"])
    s, ev = _brew_red(s)
    assert {"type": "EndTriggered", "reason": "goals", "last_round": 1} in ev
    assert not s["over"]
    ended = []
    while not s["over"]:
        seat = game.to_move(s)[0]
        s, ev = _finish_turn(s, seat)
        ended += [e for e in ev if e["type"] == "TurnEnded"]
    assert [(e["seat"], e["round"]) for e in ended] == [(1, 0), (0, 1), (1, 1)]
    assert s["end_reason"] == "goals" and game.to_move(s) == [] and game.legal_actions(s, 0) == []


def test_the_last_goal_can_still_be_claimed() -> None:
    s = _game()
    for i in range(4):
        s["goals"][i]["claimed_by"] = 1
    s["end_round"] = 1
    only_player_lists(s, 0, clan_potions=["P02", "P03"])
    s["goals"][4] = {"token": "G05", "side": "hard", "claimed_by": None}
    s, ev = _brew_red(s)
    assert any(e["type"] == "GoalClaimed" and e["goal"] == 4 for e in ev)


def test_an_empty_deck_triggers_the_end_and_the_set_aside_cards_refill_it() -> None:
    s = _game(3)
    s["witch_deck"] = s["witch_deck"][:1]
    aside = list(s["witch_aside"])
    s, _ = apply(s, 0, {"type": "play", "witch": "N1a"})
    s, ev = apply(s, 0, {"type": "take", "item": "witch", "location": "mountains"})
    assert types(ev) == ["ItemTaken", "SlotRefilled", "DeckRanOut", "EndTriggered"]
    assert ev[2]["aside"] == aside and s["witch_deck"] == aside and s["witch_aside"] == []
    assert s["end_round"] == 1 and s["end_reason"] == "witches_deck_ran_out"


def test_without_cards_set_aside_an_empty_slot_stays_empty() -> None:
    s = _game()
    s["potion_deck"] = []
    s, _ = apply(s, 0, {"type": "play", "witch": "N1a"})
    s, ev = apply(s, 0, {"type": "take", "item": "potion", "location": "mountains"})
    assert ev[1] == {"type": "SlotRefilled", "location": "mountains", "item": "potion", "card": None}
    assert {"type": "take", "item": "tool", "location": "mountains"} not in game.legal_actions(s, 0)


def test_nothing_left_at_a_location_forfeits_its_points() -> None:
    s = _game()
    set_board(s, "forest", [None, None, None], potion=None, witch=None)
    s, ev = apply(s, 0, {"type": "play", "witch": "N1a"})
    s, ev = apply(s, 0, {"type": "take", "item": "tool", "location": "mountains"})
    assert types(ev)[-2:] == ["ActionPointsForfeited", "TurnEnded"]


def test_final_scoring_breakdown() -> None:
    s = _game(animals=True)
    p = s["players"][0]
    p["clan_potions"] = ["P01", "P07", "S1"]
    p["clan_witches"] = ["W27", "W03"]
    p["clan_tools"] = ["P01", "P02", "P12"]
    p["clan_animals"] = ["W01", "W02", "W03"]
    p["ingredients"] = {"herbs": 2, "berries": 0, "mushrooms": 1, "roots": 1, "feathers": 0}
    s["goals"][0]["claimed_by"] = 0
    p["goals"] = [0]
    result = game.score(s)
    b = result["seats"][0]["breakdown"]
    assert b == {
        "potions": 3 + 9 + 2,
        "witches": 8 + 7,
        "tools": 3,
        "goals": 3,
        "ingredients": 3,
        "animals": 9,
    }
    assert result["seats"][0]["total"] == sum(b.values())
    assert result["winners"] == [0]
    p["clan_tools"] = ["P01", "P02", "P03", "P04", "P05", "P06"]
    p["ingredients"] = {k: 3 for k in p["ingredients"]}
    p["clan_animals"] = ["W01", "W02", "W03", "W04", "W05", "W06"]
    b = game.score(s)["seats"][0]["breakdown"]
    assert (b["tools"], b["ingredients"], b["animals"]) == (15, 5, 25)


def test_animals_score_only_in_the_variant_and_ties_share_the_win() -> None:
    s = _game()
    s["players"][0]["clan_animals"] = ["W01"]
    result = game.score(s)
    assert result["seats"][0]["breakdown"]["animals"] == 0
    assert result["winners"] == [0, 1]


def test_an_empty_location_waits_while_a_refresh_could_refill_it() -> None:
    s = _game()
    set_board(s, "mountains", [None, None, None], potion=None, witch=None)
    only_player_lists(s, 0, hand=["W41", "N1a", "N1b"])
    s, ev = apply(s, 0, {"type": "play", "witch": "W41"})
    assert types(ev) == ["WitchPlayed"]
    assert all(a["type"] == "refresh" for a in game.legal_actions(s, 0))
    s, ev = apply(s, 0, {"type": "refresh", "target": "ingredients", "location": "mountains"})
    assert all(ev[0]["drawn"]) and s["turn"]["ap"] == [2, 1, 0]


def test_a_trigger_on_the_last_turn_of_a_round_still_gives_one_more_round() -> None:
    """Both rulebooks: finish the current round (here it is finished) and play one more, so
    every seat, the first player included, has exactly one more turn."""
    s = _game()
    for i in range(3):
        s["goals"][i + 1]["claimed_by"] = 0
    s["players"][0]["goals"] = [1, 2, 3]
    s, _ = _finish_turn(s, 0)
    only_player_lists(s, 1, clan_witches=["W11"])
    s, ev = _brew_red(s, 1)
    assert {"type": "EndTriggered", "reason": "goals", "last_round": 1} in ev
    ended = []
    while not s["over"]:
        s, ev = _finish_turn(s, game.to_move(s)[0])
        ended += [(e["seat"], e["round"]) for e in ev if e["type"] == "TurnEnded"]
    assert ended == [(0, 1), (1, 1)]


def test_a_deck_running_out_after_the_goal_trigger_changes_nothing() -> None:
    s = _game(3)
    s["end_round"], s["end_reason"] = 1, "goals"
    s["witch_deck"] = s["witch_deck"][:1]
    s, _ = apply(s, 0, {"type": "play", "witch": "N1a"})
    s, ev = apply(s, 0, {"type": "take", "item": "witch", "location": "mountains"})
    assert "DeckRanOut" in types(ev) and "EndTriggered" not in types(ev)
    assert (s["end_round"], s["end_reason"]) == (1, "goals") and len(s["witch_deck"]) == 5


def test_the_refresh_stays_optional_where_nothing_is_left_to_take() -> None:
    """Refreshing is optional ("můžete" / "może"): with nothing at the location, the player may
    decline and forfeit those points instead of being made to refresh."""
    s = _game()
    set_board(s, "mountains", [None, None, None], potion=None, witch=None)
    only_player_lists(s, 0, hand=["W41", "N1a", "N1b"])
    s, _ = apply(s, 0, {"type": "play", "witch": "W41"})
    assert {"type": "refresh", "target": "none"} in game.legal_actions(s, 0)
    board = [dict(b, ingredients=list(b["ingredients"])) for b in s["board"]]
    s, ev = apply(s, 0, {"type": "refresh", "target": "none"})
    assert types(ev) == ["ActionPointsForfeited"] and ev[0]["location"] == "mountains"
    assert s["turn"]["ap"] == [0, 1, 0] and s["board"] == board
    assert not any(a["type"] == "refresh" for a in game.legal_actions(s, 0))
    s2 = _game()
    only_player_lists(s2, 0, hand=["W41", "N1a", "N1b"])
    s2, _ = apply(s2, 0, {"type": "play", "witch": "W41"})
    assert {"type": "refresh", "target": "none"} not in game.legal_actions(s2, 0)
    with pytest.raises(IllegalMove, match="declined by taking"):
        apply(s2, 0, {"type": "refresh", "target": "none"})
