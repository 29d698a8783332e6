"""The Mage & Witch rulebook's worked examples, played move by move."""

from __future__ import annotations

from .invariants import check_state
from .support import apply, new_game, scored, total, turn


def test_example_1_city_of_8_tiles_2_shields_with_the_mage_scores_28_for_each_majority_player() -> None:
    s = new_game(["G.1", "E.1", "N.1", "MW5.1", "R.1", "F.1", "F.2", "E.2"])
    s, _ = turn(s, 0, 1, 0, follower=0)  # red: a knight in the city north of the start tile
    s, _ = turn(s, 1, 1, 0, follower=0)  # blue: a knight in a separate city cap
    s, _ = turn(s, 0, 2, 2)
    s, _ = turn(s, 0, -1, 1, magic=("mage", 0, 1, 0))  # the mage joins red's city
    s, _ = turn(s, 1, 2, 3)  # the two cities become one
    s, _ = turn(s, 1, 3, 1)
    s, _ = turn(s, 1, 4, 1)
    s, events = turn(s, 1, 5, 2)  # completed: 8 tiles, 2 shields
    (city,) = scored(events)
    assert (city["kind"], city["tiles"], city["figure"]) == ("city", 8, "mage")
    assert city["points"] == 28 and city["winners"] == [0, 1]
    assert s["scores"][0]["cities"] == 28 and s["scores"][1]["cities"] == 28
    assert s["mage"] is None, "the mage goes back beside the board after the scoring"
    assert s["supply"] == [7, 7]
    check_state(s)


def test_example_2_road_of_5_with_the_witch_scores_3_and_road_of_3_with_the_mage_scores_6() -> None:
    s = new_game(["U.1", "U.2", "B.1", "X.1", "U.3", "A.1", "MW5.1", "MW1.1", "W.1"])
    s, _ = turn(s, 1, 0, 1)
    s, _ = turn(s, -1, 0, 1, follower=0)  # blue's thief
    s, _ = turn(s, 1, 1, 0)
    s, _ = turn(s, -2, 0, 0)
    s, _ = turn(s, 2, 1, 0, follower=0)  # red's thief
    s, _ = turn(s, 2, 2, 0)
    s, _ = turn(s, 0, 1, 0, magic=("mage", 2, 1, 0))
    s, _ = turn(s, -2, 1, 0, magic=("witch", -1, 0, 0))
    s, events = turn(s, 2, 0, 1)  # red completes both roads at once
    by_winner = {e["winners"][0]: e for e in scored(events)}
    assert by_winner[1]["tiles"] == 5 and by_winner[1]["figure"] == "witch" and by_winner[1]["points"] == 3
    assert by_winner[0]["tiles"] == 3 and by_winner[0]["figure"] == "mage" and by_winner[0]["points"] == 6
    assert (total(s, 0), total(s, 1)) == (6, 3)
    assert s["mage"] is None and s["witch"] is None
    check_state(s)


def test_the_magic_step_comes_before_the_follower_and_scoring() -> None:
    s = new_game(["MW5.1"])
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": 0, "y": -1, "rotation": 1})
    assert s["phase"] == "magic"
    from games.carcassonne import legal_actions

    assert {a["type"] for a in legal_actions(s, 0)} == {"place_magic"}
