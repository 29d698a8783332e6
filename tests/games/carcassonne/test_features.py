"""Base-game features: merging across tiles, completion, follower legality, majorities, fields."""

from __future__ import annotations

import pytest

import games.carcassonne as game
from games.carcassonne import scoring
from games.interface import IllegalMove, NotYourTurn
from games.rng import Rng

from .invariants import check_deep, check_state
from .support import apply, fid, new_game, scored, turn


def _end_now(s: dict) -> dict:
    """The pack emptied: the end of the current turn is the end of the game."""
    return {**s, "discarded": s["discarded"] + s["remaining"], "remaining": [], "queue": []}


def test_a_city_closed_by_several_caps_scores_2_per_tile_and_returns_the_knight() -> None:
    s = new_game(["R.1", "E.1", "E.2"])
    s, _ = turn(s, 0, 1, 2, follower=0)
    assert s["supply"] == [6, 7]
    s, _ = turn(s, -1, 1, 1)
    s, events = turn(s, 1, 1, 3)
    (city,) = scored(events)
    assert (city["kind"], city["tiles"], city["points"], city["winners"]) == ("city", 4, 8, [0])
    assert s["scores"][0]["cities"] == 8 and s["supply"] == [7, 7]
    check_deep(s)


def test_a_city_completed_with_shields_scores_2_per_shield() -> None:
    s = new_game(["F.1", "E.1"])
    s, _ = turn(s, 0, 1, 1, follower=0)  # the shield tile, city running north-south
    s, events = turn(s, 0, 2, 2)
    (city,) = scored(events)
    assert (city["tiles"], city["points"]) == (3, 3 * 2 + 2)


def test_a_road_from_a_monastery_to_a_junction_scores_1_per_tile() -> None:
    s = new_game(["A.1", "W.1"])
    s, _ = turn(s, 1, 0, 1, follower=1)  # thief on the monastery's road
    s, events = turn(s, -1, 0, 3)
    (road,) = scored(events)
    assert (road["kind"], road["tiles"], road["points"], road["winners"]) == ("road", 3, 3, [0])
    assert s["supply"] == [7, 7]


def test_a_road_loop_of_four_curves_completes() -> None:
    s = new_game(["V.1", "V.2", "V.3", "V.4"])
    s, _ = turn(s, 0, -1, 3, follower=0)
    s, _ = turn(s, 1, -1, 0)
    s, _ = turn(s, 0, -2, 2)
    assert s["features"][fid(s, 0, -1, 0)]["open"] == 2
    s, events = turn(s, 1, -2, 1)
    (road,) = scored(events)
    assert (road["tiles"], road["points"], road["winners"]) == (4, 4, [0])
    check_deep(s)


def test_no_follower_on_a_feature_already_occupied_through_a_merge() -> None:
    s = new_game(["U.1", "U.2"])
    s, _ = turn(s, 1, 0, 1, follower=0)
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": 2, "y": 0, "rotation": 1})
    options = game.legal_actions(s, 1)
    assert {"type": "place_follower", "feature": 0} not in options
    assert {"type": "place_follower", "feature": 1} in options and {"type": "pass"} in options
    with pytest.raises(IllegalMove, match="occupies"):
        game.decide(s, 1, {"type": "place_follower", "feature": 0}, Rng(b"x", "v"))


def test_a_follower_may_go_onto_a_feature_its_tile_completes_and_comes_straight_back() -> None:
    s = new_game(["E.1"])
    s, events = turn(s, 0, 1, 2, follower=0)
    (city,) = scored(events)
    assert (city["points"], city["winners"]) == (4, [0])
    assert s["supply"] == [7, 7]


def test_joined_roads_with_one_thief_each_score_in_full_for_both() -> None:
    s = new_game(["U.1", "V.1", "V.2", "V.3"])
    s, _ = turn(s, 1, 0, 1, follower=0)
    s, _ = turn(s, 1, -1, 3, follower=0)
    s, _ = turn(s, 2, -1, 1)
    s = _end_now(s)
    s, events = turn(s, 2, 0, 0)
    road = fid(s, 0, 0, 1)
    assert sorted(seat for seat, _ in s["features"][road]["followers"]) == [0, 1]
    (final,) = [e for e in scored(events) if e["kind"] == "road"]
    assert final["final"] and final["tiles"] == 5 and final["winners"] == [0, 1]
    assert s["scores"][0]["roads"] == s["scores"][1]["roads"] == 5


def test_the_majority_takes_all_the_points_and_a_tie_shares_them_in_full() -> None:
    rec = {"followers": [[0, "1:0"], [2, "2:0"], [0, "3:0"], [1, "4:0"]]}
    assert scoring.majority(rec) == [0]
    rec = {"followers": [[0, "1:0"], [2, "2:0"], [1, "4:0"], [2, "5:0"], [0, "6:0"]]}
    assert scoring.majority(rec) == [0, 2]
    assert scoring.majority({"followers": []}) == []


def test_a_field_touching_two_completed_cities_scores_6_and_tied_farmers_both_score() -> None:
    s = new_game(["H.1", "U.1", "E.1", "E.2"])
    s, _ = turn(s, 0, 1, 1, follower=2)  # seat 0 farmer between the two caps; the start city closes
    s, _ = turn(s, 1, 0, 1, follower=2)  # seat 1 farmer north of the road, a separate field for now
    assert fid(s, 0, 1, 2) != fid(s, 1, 0, 2)
    s, _ = turn(s, 0, 2, 2)  # the second city closes
    s = _end_now(s)
    s, events = turn(s, 1, 1, 0)  # a cap whose field joins the two farms
    assert fid(s, 0, 1, 2) == fid(s, 1, 0, 2)
    (farm,) = [e for e in scored(events) if e["kind"] == "field"]
    assert farm["winners"] == [0, 1]
    assert farm["points"] == 6, "2 completed cities; the open cap does not count"
    assert s["scores"][0]["fields"] == s["scores"][1]["fields"] == 6
    rec = s["features"][fid(s, 0, 1, 2)]
    touched = {s["owner"][c] for c in rec["cities"]}
    assert len(rec["cities"]) == 4 and len(touched) == 3, "the start city is reached twice, counted once"
    check_deep(s)


def test_farmers_never_return() -> None:
    s = new_game(["H.1", "E.1"])
    s, _ = turn(s, 0, 1, 1, follower=2)
    s, _ = turn(s, 0, 2, 2)
    assert s["supply"][0] == 6


def test_a_monastery_surrounded_scores_9() -> None:
    s = new_game(["B.1", "V.1", "V.2", "E.1", "E.2", "E.3", "E.4", "E.5"])
    s, _ = turn(s, 0, -1, 0, follower=0)
    for x, y, r in [(1, 0, 1), (-1, 0, 2), (1, -1, 1), (-1, -1, 3), (0, -2, 2), (1, -2, 1)]:
        s, events = turn(s, x, y, r)
        assert not scored(events)
    s, events = turn(s, -1, -2, 3)
    (mon,) = scored(events)
    assert (mon["kind"], mon["points"], mon["winners"]) == ("monastery", 9, [0])
    assert s["supply"][0] == 7


def test_an_unfinished_monastery_scores_1_plus_its_neighbours_at_the_end() -> None:
    s = new_game(["B.1", "V.1"])
    s, _ = turn(s, 0, -1, 0, follower=0)
    s = _end_now(s)
    s, events = turn(s, 1, 0, 1)  # a neighbour diagonal to the monastery
    (mon,) = [e for e in scored(events) if e["kind"] == "monastery"]
    assert mon["final"] and mon["points"] == 1 + 2


def test_an_unfinished_city_scores_1_per_tile_and_shield_at_the_end() -> None:
    s = new_game(["F.1", "U.1"])
    s, _ = turn(s, 0, 1, 1, follower=0)
    s = _end_now(s)
    s, events = turn(s, 1, 0, 1)
    (city,) = [e for e in scored(events) if e["kind"] == "city"]
    assert city["final"] and city["points"] == 2 + 1


def test_the_game_ends_when_the_pack_is_empty_and_nothing_more_is_accepted() -> None:
    s = new_game(["U.1"])
    s = _end_now(s)
    s, events = turn(s, 1, 0, 1)
    assert events[-1]["type"] == "GameEnded"
    assert game.is_over(s) and game.to_move(s) == [] and game.legal_actions(s, 0) == []
    with pytest.raises(NotYourTurn):  # nobody may act any more: 409 in every game (issue 16)
        game.decide(s, 1, {"type": "pass"}, Rng(b"x", "v"))


def test_a_tile_that_fits_nowhere_is_discarded_and_another_drawn() -> None:
    s = new_game(["E.1", "C.1", "U.1"])
    s, events = turn(s, 0, 1, 2)
    kinds = [(e["type"], e.get("tile")) for e in events if e["type"] in ("TileDiscarded", "TileDrawn")]
    assert kinds == [("TileDiscarded", "C.1"), ("TileDrawn", "U.1")]
    assert s["discarded"] == ["C.1"] and s["current"] == "U.1" and s["turn"] == 1
    check_state(s)


def test_a_tile_whose_two_caps_join_one_city_counts_once() -> None:
    s = new_game(["I.1", "N.1", "N.2", "N.3"])
    s, _ = turn(s, 0, -1, 2, follower=0)  # two caps, east and south
    s, _ = turn(s, 1, -1, 3)
    s, _ = turn(s, 1, -2, 0)
    s, events = turn(s, 0, -2, 1)  # the ring closes: both caps are one city
    (city,) = scored(events)
    assert len(s["features"][fid(s, 0, -1, 0)]["segs"]) == 5
    assert (city["tiles"], city["points"], city["winners"]) == (4, 8, [0])
