"""The memory rule and secrets: views and the redacted log."""

from __future__ import annotations

import games.kupferkessel as kk
from games.kupferkessel.views import HIDDEN_ARRANGEMENT
from games.rng import Rng

from .invariants import hidden_from_table, leaked
from .support import apply, new_game, spot, table


def test_no_view_shows_a_cauldron_below_its_top_card_not_even_to_its_owner() -> None:
    state = table(cauldrons=(["grey-roots-1", "blue-moss-4", "brown-toad-3"], ["green-pumpkin-2"]))
    for seat in (0, 1, None):
        shown = kk.view(state, seat)
        assert shown["cauldrons"][0] == {"seat": 0, "colour": "white", "count": 3, "top": "brown-toad-3"}
        assert not leaked(shown, {"grey-roots-1", "blue-moss-4"})


def test_the_deck_order_is_never_shown_only_its_size() -> None:
    state = new_game()
    for seat in (0, 1, None):
        shown = kk.view(state, seat)
        assert shown["deck"] == 22
        assert not leaked(shown, set(state["deck"]))


def test_recipes_are_secret_to_their_owner() -> None:
    state = new_game({"recipes": True})
    mine, theirs = state["recipes"]
    assert kk.view(state, 0)["recipes"][0]["recipes"] == mine
    assert kk.view(state, 0)["recipes"][1] == {"seat": 1, "count": 2, "recipes": None}
    assert not leaked(kk.view(state, 0), set(theirs))
    assert not leaked(kk.view(state, None), set(mine) | set(theirs))


def test_once_over_every_cauldron_and_recipe_is_shown() -> None:
    state = new_game({"recipes": True})
    state = {**state, "cauldrons": [["grey-roots-1", "blue-moss-4"], state["cauldrons"][1]], "phase": "over"}
    shown = kk.view(state, 1)
    assert shown["cauldrons"][0]["cards"] == ["grey-roots-1", "blue-moss-4"]
    assert shown["recipes"][0]["recipes"] == state["recipes"][0]
    assert shown["deck_cards"] == state["deck"]


def two_turns_of_white() -> tuple[dict, list[dict]]:
    """White takes creeper 3 (from column 1), black creeper 1, white creeper 4 on top of creeper 3:
    the state then, and the log after setup."""
    state = table(
        grid={spot(2, 1): "purple-creeper-3", spot(2, 4): "purple-creeper-4", spot(3, 0): "purple-creeper-1"},
        cauldrons=(["grey-roots-1"], ["brown-toad-1"]),
        pawns=(0, 16),
    )
    log: list[dict] = []
    for seat, command in [
        (0, {"type": "move", "steps": 1}),
        (0, {"type": "take", "card": "purple-creeper-3"}),
        (1, {"type": "move", "steps": 1}),
        (1, {"type": "take", "card": "purple-creeper-1"}),
        (0, {"type": "move", "steps": 3}),
        (0, {"type": "take", "card": "purple-creeper-4"}),
    ]:
        state, events = apply(state, seat, command)
        log += events
    assert state["cauldrons"][0] == ["grey-roots-1", "purple-creeper-3", "purple-creeper-4"]
    return state, log


def test_the_log_hides_a_taken_card_and_where_it_lay_once_it_is_covered() -> None:
    state, log = two_turns_of_white()
    taken = next(e for e in log if e["type"] == "CardTaken")
    assert taken["card"] == "purple-creeper-3" and taken["line"] == "col1"
    for seat in (0, 1, None):
        assert kk.redact(state, taken, seat) == {
            **taken, "card": None, "line": None, "row": None, "col": None, "special": None,
        }  # fmt: skip
    last = log[-3]
    assert last["type"] == "CardTaken" and kk.redact(state, last, 1) == last


def test_the_log_hides_the_steps_a_covered_top_card_walked() -> None:
    """The steps of a move are the value of the mover's top card then: once that card is covered
    the table no longer shows them, nor where the walk went (from, to and jumped give them back)."""
    state, log = two_turns_of_white()
    moves = [e for e in log if e["type"] == "PawnMoved"]
    assert [(m["card"], m["steps"]) for m in moves] == [
        ("grey-roots-1", 1), ("brown-toad-1", 1), ("purple-creeper-3", 3),
    ]  # fmt: skip
    for seat in (0, 1, None):
        for move in moves:
            assert kk.redact(state, move, seat) == {
                "type": "PawnMoved", "seat": move["seat"], "card": None,
                "steps": None, "from": None, "to": None, "jumped": None, "line": None,
            }  # fmt: skip


def test_the_log_shows_the_walk_of_a_top_card_still_in_view() -> None:
    state = table(cauldrons=(["grey-roots-1", "blue-moss-4"], ["brown-toad-1"]), pawns=(1, 10))
    state, events = apply(state, 0, {"type": "move", "steps": 4})
    assert events[0]["line"] is None and events[0]["card"] == "blue-moss-4"
    assert kk.redact(state, events[0], 1) == events[0]


def test_the_log_hides_the_symbol_of_a_declined_card_once_covered() -> None:
    state = table(
        grid={spot(2, 1): "blue-moss-2", spot(2, 3): "purple-creeper-4", spot(3, 0): "purple-creeper-1"},
        cauldrons=(["grey-roots-1"], ["brown-toad-3", "brown-toad-1"]),
        pawns=(0, 16),
    )
    state, _ = apply(state, 0, {"type": "move", "steps": 1})
    state, _ = apply(state, 0, {"type": "take", "card": "blue-moss-2"})
    state, events = apply(state, 0, {"type": "decline"})
    declined = events[0]
    assert kk.redact(state, declined, 1) == declined
    state, _ = apply(state, 1, {"type": "move", "steps": 1})
    state, _ = apply(state, 1, {"type": "take", "card": "purple-creeper-1"})
    state, _ = apply(state, 0, {"type": "move", "steps": 2})
    state, _ = apply(state, 0, {"type": "take", "card": "purple-creeper-4"})
    assert kk.redact(state, declined, 1) == {**declined, "card": None, "special": None}


def test_the_log_hides_the_deck_the_arrangement_and_the_others_recipes() -> None:
    options = {"recipes": True, "arranged": {"cauldrons": ["grey-roots-1"]}}
    opening = kk.setup(options, 2, Rng(b"s", "setup"))
    state = new_game(options, seed=b"s")
    by_type = {e["type"]: e for e in opening}
    assert kk.redact(state, by_type["GameStarted"], 0)["options"]["arranged"] == HIDDEN_ARRANGEMENT
    assert kk.redact(state, by_type["DeckStacked"], None) == {"type": "DeckStacked", "count": 22}
    dealt = [e for e in opening if e["type"] == "RecipesDealt"]
    assert kk.redact(state, dealt[0], 0) == dealt[0]
    assert kk.redact(state, dealt[0], 1) == {"type": "RecipesDealt", "seat": 0, "recipes": None, "count": 2}
    secret = hidden_from_table(state)
    for event in opening:
        assert not leaked(kk.redact(state, event, 0), secret | set(state["recipes"][1]))


def test_once_over_the_log_is_whole() -> None:
    state = {**new_game(), "phase": "over"}
    event = {"type": "DeckStacked", "deck": state["deck"]}
    assert kk.redact(state, event, 0) == event
