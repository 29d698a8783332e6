"""The Mage & Witch rules and each footnote of the rulebook."""

from __future__ import annotations

import copy

import pytest

import games.carcassonne as game
from games.carcassonne import magic
from games.interface import IllegalMove
from games.rng import Rng

from .invariants import check_state
from .support import apply, fid, new_game, scored, seg, turn

RNG = Rng(b"x", "v")


def _targets(s: dict, figure: str) -> set[tuple[int, int, int]]:
    return {
        (a["x"], a["y"], a["feature"])
        for a in game.legal_actions(s, s["turn"])
        if a["type"] == "place_magic" and a["figure"] == figure
    }


def test_a_tile_with_the_mage_symbol_obliges_a_magic_figure_and_either_may_come_in() -> None:
    """Footnote 4 (1): neither figure out → one of them, the player's choice, is placed."""
    s = new_game(["MW5.1"])
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": 0, "y": 1, "rotation": 0})
    assert s["phase"] == "magic"
    assert _targets(s, "mage") and _targets(s, "mage") == _targets(s, "witch")
    with pytest.raises(IllegalMove):
        game.decide(s, 0, {"type": "pass"}, Rng(b"x", "v"))
    with pytest.raises(IllegalMove):
        game.decide(s, 0, {"type": "remove_magic", "figure": "mage"}, Rng(b"x", "v"))


def test_footnote_1_not_on_a_feature_the_new_tile_just_completed() -> None:
    s = new_game(["MW5.1"])
    # closes the start tile's city
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": 0, "y": 1, "rotation": 0})
    targets = _targets(s, "mage")
    assert (0, 0, 0) not in targets and (0, 1, 1) not in targets
    assert (0, 1, 0) in targets, "the new tile's other, incomplete city may take it"
    with pytest.raises(IllegalMove):
        game.decide(s, 0, {"type": "place_magic", "figure": "mage", "x": 0, "y": 0, "feature": 0}, RNG)


def test_footnote_2_any_tile_of_the_map_including_the_new_one() -> None:
    s = new_game(["MW5.1"])
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": 0, "y": 1, "rotation": 0})
    targets = _targets(s, "witch")
    assert (0, 0, 1) in targets, "the start tile's road"
    assert (0, 1, 0) in targets, "the tile just placed"
    assert all(x in (0,) for x, _, _ in targets)


def _mage_on_start_road() -> dict:
    s = new_game(["MW5.1", "U.1", "MW2.1", "V.1", "MW1.1"])
    s, _ = turn(s, 0, 1, 0, magic=("mage", 0, 0, 1))
    return s


def test_footnote_3_a_figure_moved_must_change_feature_and_never_joins_the_other() -> None:
    s = _mage_on_start_road()
    s, _ = turn(s, 1, 1, 0)
    # MW2 extends the mage's road
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": -1, "y": 0, "rotation": 0})
    road = fid(s, 0, 0, 1)
    mage_targets = _targets(s, "mage")
    witch_targets = _targets(s, "witch")
    road_segs = set(s["features"][road]["segs"])
    for x, y, f in mage_targets | witch_targets:
        assert seg(s, x, y, f) not in road_segs
    assert (1, 1, 0) in mage_targets, "another incomplete road"
    assert mage_targets == witch_targets


def test_footnote_4_with_one_figure_out_either_may_be_chosen() -> None:
    s = _mage_on_start_road()
    s, _ = turn(s, 1, 1, 0)
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": -1, "y": 0, "rotation": 0})
    assert _targets(s, "mage") and _targets(s, "witch"), "move the mage, or bring in the witch"
    s, _ = apply(s, s["turn"], {"type": "place_magic", "figure": "witch", "x": 1, "y": 1, "feature": 0})
    assert s["mage"] == seg(s, 0, 0, 1) and s["witch"] == seg(s, 1, 1, 0)


def _conflict() -> dict:
    """The mage on the start road, the witch on a separate road; a curve then joins the two."""
    s = _mage_on_start_road()
    s, _ = turn(s, 1, 1, 0)
    s, _ = turn(s, -1, 0, 0, magic=("witch", 1, 1, 0))
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": 1, "y": 0, "rotation": 1})
    return s


def test_footnote_4_with_both_figures_out_either_is_moved() -> None:
    s = _conflict()
    s, _ = apply(s, s["turn"], {"type": "place_magic", "figure": "mage", "x": 0, "y": 1, "feature": 0})
    s, _ = apply(s, s["turn"], {"type": "pass"})
    place = game.legal_actions(s, s["turn"])[0]
    s, _ = apply(s, s["turn"], place)  # MW1, wherever it fits first
    assert s["phase"] == "magic"
    mage_targets, witch_targets = _targets(s, "mage"), _targets(s, "witch")
    assert mage_targets and witch_targets
    mage_segs = set(s["features"][s["owner"][s["mage"]]]["segs"])
    witch_segs = set(s["features"][s["owner"][s["witch"]]]["segs"])
    for x, y, f in mage_targets | witch_targets:
        assert seg(s, x, y, f) not in mage_segs | witch_segs


def test_footnote_5_joining_the_two_figures_forces_a_move_to_another_incomplete_feature() -> None:
    s = _conflict()
    assert s["phase"] == "conflict"
    joined = fid(s, 0, 0, 1)
    assert s["owner"][s["mage"]] == s["owner"][s["witch"]] == joined
    actions = game.legal_actions(s, s["turn"])
    assert {a["type"] for a in actions} == {"place_magic"}
    assert {a["figure"] for a in actions} == {"mage", "witch"}
    for a in actions:
        assert s["owner"][seg(s, a["x"], a["y"], a["feature"])] != joined
        rec = s["features"][s["owner"][seg(s, a["x"], a["y"], a["feature"])]]
        assert rec["kind"] in ("road", "city") and rec["open"] > 0
    assert (0, 1, 0) in _targets(s, "witch"), "any tile, even one holding the other figure's feature"
    s, _ = apply(s, s["turn"], {"type": "place_magic", "figure": "witch", "x": -1, "y": 0, "feature": 0})
    assert s["phase"] == "follower", "a tile without the symbol then goes on to the follower"
    check_state(s)


def test_footnote_5_without_any_target_the_moved_figure_is_set_aside() -> None:
    s = _conflict()
    crafted = copy.deepcopy(s)
    joined = fid(s, 0, 0, 1)
    for key, rec in crafted["features"].items():
        if key != joined and rec["kind"] in ("road", "city"):
            rec["open"] = 0
    actions = game.legal_actions(crafted, crafted["turn"])
    assert actions == [
        {"type": "remove_magic", "figure": "mage"},
        {"type": "remove_magic", "figure": "witch"},
    ]
    crafted, _ = apply(crafted, crafted["turn"], {"type": "remove_magic", "figure": "witch"})
    assert crafted["witch"] is None and crafted["mage"] is not None and crafted["phase"] == "follower"


def test_footnote_6_the_conflict_is_settled_before_the_follower_and_the_scoring() -> None:
    s = _conflict()
    with pytest.raises(IllegalMove, match="share"):
        game.decide(s, s["turn"], {"type": "pass"}, Rng(b"x", "v"))
    with pytest.raises(IllegalMove):
        game.decide(s, s["turn"], {"type": "place_follower", "feature": 1}, Rng(b"x", "v"))


def test_conflict_on_a_mage_tile_is_settled_first_then_the_mage_symbol_acts() -> None:
    s = _mage_on_start_road()
    s, _ = turn(s, 1, 1, 0)
    s, _ = turn(s, -1, 0, 0, magic=("witch", 1, 1, 0))
    s, _ = turn(s, 1, 0, 1, magic=("mage", 0, 1, 0))  # the curve: resolve the conflict
    # MW1 joins nothing; both figures out, so one is moved again by the symbol
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": -1, "y": -1, "rotation": 2})
    assert s["phase"] == "magic"


def test_no_target_for_the_symbol_means_removing_a_figure_the_players_choice() -> None:
    s = _conflict()
    s, _ = apply(s, s["turn"], {"type": "place_magic", "figure": "witch", "x": -1, "y": 0, "feature": 0})
    s = {**s, "phase": "magic"}
    crafted = copy.deepcopy(s)
    for rec in crafted["features"].values():
        if rec["kind"] in ("road", "city"):
            rec["open"] = 0
    assert magic.options(crafted) == [
        {"type": "remove_magic", "figure": "mage"},
        {"type": "remove_magic", "figure": "witch"},
    ]
    crafted["witch"] = None
    assert magic.options(crafted) == [{"type": "remove_magic", "figure": "mage"}]
    crafted["mage"] = None
    assert magic.options(crafted) == []


def test_the_mage_returns_after_completion_without_followers() -> None:
    s = new_game(["MW5.1", "X.1", "W.1"])
    s, _ = turn(s, 0, 1, 0, magic=("mage", 0, 0, 1))
    s, _ = turn(s, 1, 0, 0)
    s, events = turn(s, -1, 0, 3)
    (road,) = scored(events)
    assert road["figure"] == "mage" and road["winners"] == [] and road["points"] == 0
    assert s["mage"] is None
    assert s["scores"][0]["roads"] == s["scores"][1]["roads"] == 0


def _end_now(s: dict) -> dict:
    """The pack emptied: the next draw ends the game (used to reach the final scoring quickly)."""
    return {**s, "discarded": s["discarded"] + s["remaining"], "remaining": [], "queue": []}


def test_end_of_game_the_mage_adds_1_per_tile_of_an_incomplete_city() -> None:
    s = new_game(["MW5.1", "E.1"])
    s, _ = turn(s, 0, -1, 1, magic=("mage", 0, -1, 0), follower=0)  # mage and knight in the east cap
    s = _end_now(s)
    s, events = turn(s, 0, 1, 2)
    assert s["phase"] == "over"
    (city,) = [e for e in scored(events) if e["kind"] == "city"]
    assert city["final"] and city["figure"] == "mage" and city["tiles"] == 1
    assert city["points"] == 2, "1 point for the tile + 1 for the mage"
    assert s["scores"][0]["cities"] == 2


def test_end_of_game_the_witch_halves_an_incomplete_road_rounded_up() -> None:
    s = new_game(["MW5.1", "U.1", "U.2"])
    s, _ = turn(s, 0, 1, 0, magic=("witch", 0, 0, 1))
    s, _ = turn(s, 1, 0, 1, follower=0)
    s = _end_now(s)
    s, events = turn(s, -1, 0, 1)
    (road,) = [e for e in scored(events) if e["kind"] == "road"]
    assert road["tiles"] == 3 and road["figure"] == "witch" and road["points"] == 2
    assert road["final"]


def _close_everything(mage: tuple[int, int, int]) -> dict:
    """A real game that leaves the start road as the last open road or city: MW5 closes the start
    city (the mage goes to ``mage``), E closes MW5's other cap, a monastery ends the road in the east
    with seat 0's thief on it, and caps are laid round the square west of the start tile, so that MW6
    there, drawn next, closes the road and the last city at once."""
    s = new_game(["MW5.1", "E.1", "A.1", "B.1", "E.2", "B.2", "E.3", "E.4", "MW6.1"])
    s, _ = turn(s, 0, 1, 0, magic=("mage", *mage))
    s, _ = turn(s, 0, 2, 2)
    s, _ = turn(s, 1, 0, 1, follower=1)
    for x, y, r in [(0, -1, 0), (-1, 1, 2), (-2, 1, 0), (-1, -1, 0), (-2, 0, 1)]:
        s, _ = turn(s, x, y, r)
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": -1, "y": 0, "rotation": 3})
    assert not [r for r in s["features"].values() if r["kind"] in ("road", "city") and r["open"]]
    return s


def test_no_incomplete_road_or_city_left_the_figure_on_the_map_must_be_removed() -> None:
    """Pozor: no incomplete road or city → a magic figure is removed from the map, even the mage on
    the road the tile just completed, which then scores without it (3, not 6)."""
    s = _close_everything(mage=(0, 0, 1))
    assert s["phase"] == "magic"
    assert game.legal_actions(s, s["turn"]) == [{"type": "remove_magic", "figure": "mage"}]
    with pytest.raises(IllegalMove):
        game.decide(s, s["turn"], {"type": "remove_magic", "figure": "witch"}, RNG)
    s, _ = apply(s, s["turn"], {"type": "remove_magic", "figure": "mage"})
    assert s["mage"] is None and s["phase"] == "follower"
    s, events = apply(s, s["turn"], {"type": "pass"})
    (road,) = scored(events)
    assert (road["tiles"], road["figure"], road["points"], road["winners"]) == (3, None, 3, [0])
    check_state(s)


def test_no_target_and_no_figure_on_the_map_the_symbol_asks_nothing() -> None:
    s = _close_everything(mage=(0, 1, 0))  # the mage went back when E closed MW5's north cap
    assert s["mage"] is None and s["witch"] is None
    assert s["phase"] == "follower"
    assert {"type": "pass"} in game.legal_actions(s, s["turn"])


def _mage_on_the_road_the_symbol_completes() -> dict:
    """The mage on the start road, a thief of seat 1 on it; MW1 then closes it at its trees."""
    s = new_game(["MW5.1", "A.1", "MW1.1"])
    s, _ = turn(s, 0, 1, 0, magic=("mage", 0, 0, 1))
    s, _ = turn(s, -1, 0, 3, follower=1)  # the monastery ends the road in the west
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": 1, "y": 0, "rotation": 0})
    assert s["phase"] == "magic" and s["features"][fid(s, 0, 0, 1)]["open"] == 0
    return s


def test_a_figure_on_the_feature_the_symbol_just_completed_may_move_away_before_the_scoring() -> None:
    s = _mage_on_the_road_the_symbol_completes()
    assert (1, 0, 2) in _targets(s, "mage")
    s, _ = apply(s, s["turn"], {"type": "place_magic", "figure": "mage", "x": 1, "y": 0, "feature": 2})
    s, events = apply(s, s["turn"], {"type": "pass"})
    (road,) = scored(events)
    assert (road["tiles"], road["figure"], road["points"], road["winners"]) == (3, None, 3, [1])
    assert s["mage"] == seg(s, 1, 0, 2)


def test_a_figure_left_on_the_feature_the_symbol_completed_scores_there_and_goes_back() -> None:
    s = _mage_on_the_road_the_symbol_completes()
    s, _ = apply(s, s["turn"], {"type": "place_magic", "figure": "witch", "x": 1, "y": 0, "feature": 2})
    s, events = apply(s, s["turn"], {"type": "pass"})
    (road,) = scored(events)
    assert (road["tiles"], road["figure"], road["points"], road["winners"]) == (3, "mage", 6, [1])
    assert s["mage"] is None and s["witch"] == seg(s, 1, 0, 2)


def test_a_road_leaving_and_reentering_one_tile_counts_it_once_for_the_mage_too() -> None:
    """MW1's east and north roads joined by three curves: five segments on four tiles."""
    s = new_game(["MW1.1", "V.1", "V.2", "V.3"])
    s, _ = turn(s, 0, 1, 2, magic=("mage", 0, 1, 3), follower=3)  # the east road of the trees
    s, _ = turn(s, 1, 1, 1)
    s, _ = turn(s, 1, 2, 0)
    s, events = turn(s, 0, 2, 3)
    (road,) = scored(events)
    assert len(s["features"][fid(s, 0, 1, 3)]["segs"]) == 5
    assert road["figure"] == "mage"
    assert (road["tiles"], road["points"], road["winners"]) == (4, 4 + 4, [0])
