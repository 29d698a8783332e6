"""Views, redaction, bots and the arrangement of the solo game."""

from __future__ import annotations

import pytest

from games import carodeni as game
from games.interface import InvalidOptions
from games.rng import Rng

from .support import apply, edit, new_game, set_board


def test_a_hand_is_seen_only_by_its_seat() -> None:
    s = new_game(3)
    for seat in (None, 0, 1, 2):
        v = game.view(s, seat)
        for p in v["players"]:
            assert ("hand" in p) == (p["seat"] == seat)
            assert p["hand_count"] == 2
        assert v["witch_deck"] == len(s["witch_deck"]) and v["set_aside"] == {"witches": 5, "potions": 5}
    assert game.view(s, 1)["players"][1]["hand"] == ["N2a", "N2b"]


def test_witches_taken_to_hand_are_hidden_from_the_others() -> None:
    s = new_game(2)
    witch = s["board"][0]["witch"]
    s, ev = apply(s, 0, {"type": "play", "witch": "N1a"})
    s, ev = apply(s, 0, {"type": "take", "item": "witch", "location": "mountains"})
    assert witch in game.view(s, 0)["players"][0]["hand"]
    assert witch not in str(game.view(s, 1)["players"][0])
    assert game.view(s, 1)["players"][0]["hand_count"] == 2


def test_ostara_shuffles_are_redacted() -> None:
    s = new_game(2, solo=True)
    events = game.decide(s, 1, {"type": "ostara_turn"}, Rng(b"r", "v1"))
    shuffle = events[0]
    assert shuffle["type"] == "OstaraTokensShuffled" and len(shuffle["order"]) == 7
    assert game.redact(s, shuffle, 0) == {"type": "OstaraTokensShuffled", "stage": 0, "order": 7}
    drawn = events[1]
    assert game.redact(s, drawn, 0) == drawn


def test_arranged_ostara_starting_potion_and_tokens() -> None:
    s = new_game(
        2, solo=True, arranged={"ostara_starting_potion": "S5", "ostara_tokens": [["O3", "O1"], [], ["O7"]]}
    )
    assert s["players"][1]["potions"] == ["S5"]
    events = game.decide(s, 1, {"type": "ostara_turn"}, Rng(b"r", "v1"))
    assert events[0]["order"][:2] == ["O3", "O1"] and events[1]["token"] == "O3"
    bads: list[dict[str, object]] = [
        {"ostara_starting_potion": "S2"},
        {"ostara_tokens": [["O8"]]},
        {"ostara_tokens": [["O1", "O1"]]},
        {"ostara_tokens": [[], [], [], []]},
    ]
    for bad in bads:
        with pytest.raises(InvalidOptions):
            game.setup({"solo": True, "arranged": bad}, 2, Rng(b"r", "setup"))


def test_bots_choose_among_the_legal_actions() -> None:
    s = new_game(2)
    actions = game.legal_actions(s, 0)
    for name in ("random", "default"):
        assert game.BOTS[name](game.view(s, 0), actions, Rng(b"b", "x")) in actions
    solo = new_game(2, solo=True)
    assert game.BOTS["ostara"](game.view(solo, 1), game.legal_actions(solo, 1), Rng(b"b", "x")) == {
        "type": "ostara_turn"
    }


def test_default_bot_brews_when_it_can() -> None:
    from .test_turn import _brew_phase

    s = _brew_phase("W03", ["P01"], herbs=1, berries=1)
    choice = game.BOTS["default"](game.view(s, 0), game.legal_actions(s, 0), Rng(b"b", "x"))
    assert choice["type"] == "brew"


def test_the_set_aside_cards_that_become_a_deck_are_redacted() -> None:
    """When a deck runs out, the cards set aside become its deck: their order is hidden."""
    s = edit(new_game(3))
    s["witch_deck"] = s["witch_deck"][:1]
    s, _ = apply(s, 0, {"type": "play", "witch": "N1a"})
    s, ev = apply(s, 0, {"type": "take", "item": "witch", "location": "mountains"})
    ran_out = next(e for e in ev if e["type"] == "DeckRanOut")
    assert len(ran_out["aside"]) == 5
    for viewer in (None, 0, 1, 2):
        assert game.redact(s, ran_out, viewer) == dict(ran_out, aside=5)


def test_events_never_name_a_witch_in_another_seats_hand() -> None:
    s = edit(new_game(2))
    set_board(s, "mountains", witch="W14")
    s, _ = apply(s, 0, {"type": "play", "witch": "N1a"})
    s, ev = apply(s, 0, {"type": "take", "item": "witch", "location": "mountains"})
    taken = ev[0]
    assert taken["card"] == "W14" and game.redact(s, taken, 0) == taken
    for viewer in (None, 1):
        assert game.redact(s, taken, viewer) == dict(taken, card=None)
    while game.to_move(s) == [0]:
        s, _ = apply(s, 0, game.legal_actions(s, 0)[-1])
    s, _ = apply(s, 1, {"type": "play", "witch": "N2a"})
    while game.to_move(s) == [1]:
        s, _ = apply(s, 1, game.legal_actions(s, 1)[-1])
    s, ev = apply(s, 0, {"type": "rest"})
    rested = ev[0]
    assert rested["witches"] == ["N1a"] and game.redact(s, rested, 0) == rested
    assert game.redact(s, rested, 1) == dict(rested, witches=1)


def test_ostaras_witches_are_public() -> None:
    s = edit(new_game(2, solo=True))
    set_board(s, "mountains", witch="W14")
    s, ev = apply(s, 1, {"type": "ostara_turn"})
    for e in ev:
        if e["type"] == "ItemTaken":
            assert game.redact(s, e, 0) == e
