"""Hidden information: hands and deck order; the shop, rows and discard piles are public."""

from __future__ import annotations

import json

from games import skodakouzla as game
from games.rng import Rng

from .invariants import check_views, hidden
from .support import apply, main_phase, new_game


def test_a_seat_sees_its_hand_but_not_the_others() -> None:
    state = new_game()
    mine = game.view(state, 0)
    assert [c["uid"] for c in mine["players"][0]["hand"]] == state["players"][0]["hand"]
    assert mine["players"][1]["hand"] is None and mine["players"][1]["hand_size"] == 5
    spectator = game.view(state, None)
    assert spectator["players"][0]["hand"] is None and spectator["players"][1]["hand"] is None
    check_views(state)


def test_no_view_shows_a_deck_order() -> None:
    state = new_game()
    for seat in (0, 1, None):
        text = json.dumps(game.view(state, seat))
        assert not any(f'"{u}"' in text for u in state["players"][0]["deck"] + state["shop"]["deck"])
        assert game.view(state, seat)["players"][0]["deck_size"] == len(state["players"][0]["deck"])
    assert hidden(state, 0)


def test_redaction_hides_shuffles_and_the_others_draws() -> None:
    events = game.setup({}, 2, Rng(b"r", "setup"))
    state = None
    for e in events:
        state = game.evolve(state, e)
        for seat in (0, 1, None):
            seen = game.redact(state, e, seat)
            if e["type"] in ("DeckShuffled", "ShopShuffled"):
                assert "deck" not in seen and seen["size"] == len(e["deck"])
            if e["type"] == "CardsDrawn":
                assert ("cards" in seen) == (seat == e["seat"])
                if seat != e["seat"]:
                    assert seen["count"] == len(e["cards"])
            if e["type"] == "ShopRefilled":
                assert seen == e


def test_score_is_each_wizards_life_and_the_survivor_wins() -> None:
    state = main_phase(new_game(), 0, magic=3)
    state["players"][1]["life"] = 2
    hand = [u for u in state["players"][0]["deck"] if state["cards"][u] == "ohniva_koule"]
    state["players"][0]["deck"].remove(hand[0])
    state["players"][0]["hand"].append(hand[0])
    state, events = apply(state, 0, {"type": "lay", "card": hand[0], "from": "left"})
    assert game.is_over(state) and game.to_move(state) == []
    assert events[-1] == {"type": "GameEnded", "winner": 0, "loser": 1}
    assert game.score(state) == {
        "seats": [
            {"seat": 0, "total": 7, "breakdown": {"life": 7}},
            {"seat": 1, "total": 0, "breakdown": {"life": 0}},
        ],
        "winners": [0],
    }
    assert game.legal_actions(state, 0) == [] and game.legal_actions(state, 1) == []


def test_an_arrangement_is_not_shown_while_the_game_runs() -> None:
    options = {"arranged": {"decks": [["mec", "stit", "kostlivec", "ohniva_koule"], []]}}
    events = game.setup(options, 2, Rng(b"a", "setup"))
    state = new_game(options)
    assert game.redact(state, events[0], 1)["options"]["arranged"] is True
    assert game.view(state, 1)["options"]["arranged"] is True
    assert "ohniva_koule" not in json.dumps(game.redact(state, events[0], 0)["options"])
