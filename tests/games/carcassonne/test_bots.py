"""The bots: legal choices from their own view, and the default bot beating the random one."""

from __future__ import annotations

import pytest

import games.carcassonne as game
from games.carcassonne import bots, search
from games.rng import Rng
from games.simulate import play

from .support import apply, fid, new_game, seg, turn


def test_both_bots_choose_among_the_legal_actions_in_every_phase() -> None:
    for name in ("random", "default"):
        m = play(game, [name, "default", "random"], f"bots-{name}".encode())
        assert game.is_over(m.state)
    s = new_game(["MW5.1"])
    for phase in ("tile", "magic", "follower"):
        assert s["phase"] == phase
        actions = game.legal_actions(s, 0)
        for name, bot in game.BOTS.items():
            choice = bot(game.view(s, 0), actions, Rng(b"b", name))
            assert choice in actions
        s, _ = apply(s, s["turn"], game.BOTS["default"](game.view(s, 0), actions, Rng(b"b", "x")))


def test_the_default_bot_puts_the_mage_on_its_own_feature_or_the_witch_on_a_rivals() -> None:
    s = new_game(["G.1", "U.1", "MW5.1"])
    s, _ = turn(s, 0, 1, 0, follower=0)  # seat 0: a knight in the city north of the start
    s, _ = turn(s, 1, 0, 1, follower=0)  # seat 1: a thief on the start road
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": 0, "y": -1, "rotation": 1})
    choice = game.BOTS["default"](game.view(s, 0), game.legal_actions(s, 0), Rng(b"b", "magic"))
    target = seg(s, choice["x"], choice["y"], choice["feature"])
    own_city = s["owner"][seg(s, 0, 1, 0)]
    rival_road = s["owner"][seg(s, 1, 0, 0)]
    assert (choice["figure"], s["owner"][target]) in (("mage", own_city), ("witch", rival_road))


def test_the_default_bot_keeps_its_followers_off_worthless_spots() -> None:
    s = new_game(["E.1"])
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": 0, "y": 1, "rotation": 2})  # completes a city of 2
    choice = game.BOTS["default"](game.view(s, 0), game.legal_actions(s, 0), Rng(b"b", "f"))
    assert choice == {"type": "place_follower", "feature": 0}, "a knight that scores at once and returns"


def test_the_search_prices_a_follower_in_hand_as_the_default_bot_prices_placing_it() -> None:
    """Placing a knight moves what the search's evaluation holds for the seat by the city's estimate
    less the default bot's price of a follower, and nothing for the others: were the hand worth
    less to the search than to its policy, it would spend followers its policy keeps."""
    s = new_game(["G.1", "U.1"], seats=3)
    s, _ = apply(s, 0, {"type": "place_tile", "x": 0, "y": 1, "rotation": 0})  # the start's city, open north
    placed, _ = apply(s, 0, {"type": "place_follower", "feature": 0})
    passed, _ = apply(s, 0, {"type": "pass"})
    city = fid(placed, 0, 1, 0)
    assert placed["features"][city]["open"] > 0 and placed["supply"][0] == 6
    worth = bots.estimate({**placed, "pack_size": len(placed["remaining"])}, city)
    price = bots.follower_price(7, len(placed["remaining"]))
    gained = [a - b for a, b in zip(search.holdings(placed), search.holdings(passed), strict=True)]
    assert gained == pytest.approx([worth - price, 0.0, 0.0])
    assert price > 0 and worth > 0


@pytest.mark.slow
def test_default_beats_random_in_at_least_90_percent_of_200_two_player_games() -> None:
    wins = 0
    for i in range(200):
        bots = ["default", "random"] if i % 2 == 0 else ["random", "default"]
        m = play(game, bots, f"carcassonne-bots-{i}".encode())
        totals = [x["total"] for x in game.score(m.state)["seats"]]
        me = bots.index("default")
        wins += totals[me] > totals[1 - me]
    assert wins >= 180, f"default won {wins} of 200"
