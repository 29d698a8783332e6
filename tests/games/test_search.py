"""The search bot (``strong``, ``games/search.py``) of every game that has one: it reads only its seat's
information set, it is reproducible, it plays only legal commands, and it beats ``random``.

A bounded number of positions per game keeps this cheap in CI (seconds per game); the strength
figures themselves come from ``bench/strength.py``, not from here.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
from collections.abc import Mapping
from types import ModuleType
from typing import Any

import pytest

import games
from games.interface import Command, Rules, State
from games.rng import Rng
from games.search import FastRng, search
from games.simulate import play

#: Games lending the search what it needs (``games/<id>/search.py``), and those offering its level.
SEARCHED = [g for g in games.known() if importlib.util.find_spec(f"games.{g}.search") is not None]
OFFERED = [g for g in SEARCHED if "strong" in games.load(g).BOTS]
#: Seats and options each game is tried with.
SETTINGS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "kupferkessel": [(2, {}), (2, {"recipes": True})],
    "skodakouzla": [(2, {})],
    "carcassonne": [(3, {"mage_witch": True})],
    "carodeni": [(3, {})],
}
#: Positions per game and setting at which the bot is asked to move.
POSITIONS = 6
#: The match against ``random``: games, and the search's iterations a move.
ROUNDS = 6
SMALL_BUDGET = 40


def _lender(game_id: str) -> ModuleType:
    return importlib.import_module(f"games.{game_id}.search")


def _positions(game: Rules, seats: int, options: dict[str, Any], seed: bytes) -> list[State]:
    """Settled states of one seeded random game, spread over it, the game not over."""
    match = play(game, ["random"] * seats, seed, options)
    state, states = None, []
    for n, event in enumerate(match.events, start=1):
        state = game.evolve(state, event)
        if n in match.settled and not game.is_over(state):
            states.append(state)
    step = max(1, len(states) // POSITIONS)
    return states[step // 2 :: step][:POSITIONS]


@pytest.mark.parametrize("game_id", SEARCHED)
def test_a_determinization_is_a_state_the_seat_cannot_tell_from_the_true_one(game_id: str) -> None:
    """What the search samples agrees with everything the seat sees and may do (and so the search
    needs nothing but the view), yet differs from the true state where the seat cannot see."""
    game, lender = games.load(game_id), _lender(game_id)
    differs = 0
    for seats, options in SETTINGS[game_id]:
        for i, state in enumerate(_positions(game, seats, options, f"det-{game_id}".encode())):
            seat = game.to_move(state)[0]
            seen = game.view(state, seat)
            sampled = lender.determinize(seen, FastRng(i))
            assert game.view(sampled, seat) == seen, i
            assert game.legal_actions(sampled, seat) == game.legal_actions(state, seat), i
            differs += sampled != state
    assert differs, "no determinization differed from the true state: the hidden part was copied"


@pytest.mark.parametrize("game_id", SEARCHED)
def test_two_states_alike_to_the_seat_give_the_same_move(game_id: str) -> None:
    """Two true states that share the seat's information set (the second a determinization of the
    first: the same view, other hidden cards) get the same move under the same seed; and asked
    twice, the bot answers the same (iterations, not the clock, end its search)."""
    game, lender = games.load(game_id), _lender(game_id)
    lent = lender.searchable()
    seats, options = SETTINGS[game_id][0]
    for i, state in enumerate(_positions(game, seats, options, f"alike-{game_id}".encode())[:3]):
        seat = game.to_move(state)[0]
        other = lender.determinize(game.view(state, seat), FastRng(100 + i))
        moves = [
            search(lent, game.view(s, seat), game.legal_actions(s, seat), Rng(b"alike", f"v{i}"))
            for s in (state, other, state)
        ]
        assert moves[0] == moves[1] == moves[2], i


@pytest.mark.parametrize("game_id", SEARCHED)
def test_every_move_is_legal(game_id: str) -> None:
    game, lent = games.load(game_id), _lender(game_id).searchable()
    for seats, options in SETTINGS[game_id]:
        for i, state in enumerate(_positions(game, seats, options, f"legal-{game_id}".encode())):
            seat = game.to_move(state)[0]
            actions = game.legal_actions(state, seat)
            assert search(lent, game.view(state, seat), actions, Rng(b"legal", f"bot:v{i}")) in actions


@pytest.mark.parametrize("game_id", SEARCHED)
def test_a_tree_of_any_depth_plays_legal_moves_the_same_each_time(game_id: str) -> None:
    """Without a depth bound the tree grows below the root over every seat's commands (with
    ISMCTS's availability counts) and random playouts: still a legal command, the same when asked
    twice."""
    game = games.load(game_id)
    lent = dataclasses.replace(
        _lender(game_id).searchable(), depth=None, policy=None, playout=2, iterations=60
    )
    seats, options = SETTINGS[game_id][0]
    for i, state in enumerate(_positions(game, seats, options, f"tree-{game_id}".encode())):
        seat = game.to_move(state)[0]
        view, actions = game.view(state, seat), game.legal_actions(state, seat)
        moves = [search(lent, view, actions, Rng(b"tree", f"bot:v{i}")) for _ in range(2)]
        assert moves[0] in actions and moves[0] == moves[1], i


@pytest.mark.parametrize("game_id", [g for g in SEARCHED if _lender(g).searchable().width])
def test_the_root_weighs_only_the_commands_the_game_values_most(game_id: str) -> None:
    """With ``width``, the move is one of the ``width`` commands the game's ``appraise`` values most
    (a placement no one would play is never searched, so the budget is not spread over it)."""
    game = games.load(game_id)
    # two iterations: were the root not narrowed, they would try the first two commands listed
    lent = dataclasses.replace(_lender(game_id).searchable(), iterations=2)
    assert lent.appraise is not None and lent.width is not None
    seats, options = SETTINGS[game_id][0]
    narrowed = 0
    for n in range(4):
        for i, state in enumerate(_positions(game, seats, options, f"width-{game_id}-{n}".encode())):
            seat = game.to_move(state)[0]
            view, actions = game.view(state, seat), game.legal_actions(state, seat)
            if len(actions) <= lent.width:
                continue
            values = lent.appraise(view, actions)
            chosen = search(lent, view, actions, Rng(b"width", f"bot:v{i}"))
            assert values[actions.index(chosen)] >= sorted(values, reverse=True)[lent.width - 1], (n, i)
            narrowed += 1
    assert narrowed >= 4, "too few positions had more commands than the root weighs"


@pytest.mark.parametrize("game_id", OFFERED)
def test_the_search_beats_random(game_id: str) -> None:
    """A small fixed-seed match, seats rotated, the search on a small budget (to keep CI to
    seconds): it wins far more than its 1/N share, or the search has stopped working."""
    game = games.load(game_id)
    lent = dataclasses.replace(_lender(game_id).searchable(), iterations=SMALL_BUDGET)

    def small(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
        return search(lent, view, actions, rng)

    seats, options = SETTINGS[game_id][0]
    share = 0.0
    for i in range(ROUNDS):
        bots = ["random"] * seats
        bots[i % seats] = "small"
        with_small = _With(game, {**game.BOTS, "small": small})
        match = play(with_small, bots, f"match-{game_id}-{i}".encode(), options)  # type: ignore[arg-type]
        winners = game.score(match.state)["winners"]
        share += 1.0 / len(winners) if i % seats in winners else 0.0
    assert share / ROUNDS >= 0.75


class _With:
    """The rules with other ``BOTS``: what ``play`` sees."""

    def __init__(self, rules: Rules, bots: dict[str, Any]) -> None:
        self._rules, self.BOTS = rules, bots

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)
