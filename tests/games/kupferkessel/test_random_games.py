"""Seeded random games through the engine, exactly as the platform plays them, with invariants:
every card exactly once, nothing hidden in any view or redacted event, scores equal to their
breakdowns, every listed action accepted, the state a JSON round trip away from itself."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

import games.kupferkessel as kk
from games.simulate import Match, play

from .invariants import check_legal_actions, check_secrets, check_state

GAMES = round(1000 * float(os.environ.get("KOTLIK_SLOW_SCALE", "1")))
#: Games replayed event by event with every invariant checked after each event.
STEPWISE = 100
OPTIONS: list[dict[str, Any]] = [
    {},
    {"recipes": True},
    {"direction": "counterclockwise"},
    {"recipes": True, "direction": "counterclockwise"},
]
PAIRINGS = [("random", "random"), ("default", "random"), ("random", "default"), ("default", "default")]


def _game(i: int) -> tuple[Match, dict[str, Any]]:
    options = OPTIONS[i % len(OPTIONS)]
    return play(kk, PAIRINGS[(i // len(OPTIONS)) % len(PAIRINGS)], f"kk-{i}".encode(), options), options


def _check_final(match: Match) -> None:
    state = match.state
    assert kk.is_over(state) and kk.to_move(state) == []
    check_state(state)
    assert match.events[-1]["type"] == "GameEnded"
    result = kk.score(state)
    for seat in result["seats"]:
        assert seat["total"] == sum(seat["breakdown"].values())
    best = max(s["total"] for s in result["seats"])
    assert result["winners"] == [s["seat"] for s in result["seats"] if s["total"] == best]
    run = 1
    turns = [e["next"] for e in match.events if e["type"] == "TurnEnded"]
    for before, after in zip(turns, turns[1:], strict=False):
        run = run + 1 if after == before else 1
        assert run <= 2, "a player was on turn more than twice in a row"


def _replay_stepwise(match: Match) -> None:
    state, dealt = None, False
    for n, event in enumerate(match.events, 1):
        folded = kk.evolve(state, event)
        if state is not None:
            assert kk.evolve(json.loads(json.dumps(state)), event) == folded
        state = folded
        dealt = dealt or event["type"] == "DeckStacked"
        if dealt:
            check_state(state)
            check_secrets(state, match.events[:n], with_log=n % 15 == 0)
            check_legal_actions(state)
    assert state == match.state


def _check_settled(match: Match) -> None:
    """Every state a client sees (after setup and after each command): the cards, the views, and
    the redacted log at one point halfway through."""
    state = None
    settled = set(match.settled)
    halfway = match.settled[len(match.settled) // 2]
    for n, event in enumerate(match.events, 1):
        state = kk.evolve(state, event)
        if n in settled:
            check_state(state)
            check_secrets(state, match.events[:n], with_log=n == halfway)


@pytest.mark.slow
def test_a_thousand_seeded_games_keep_every_invariant() -> None:
    lengths = []
    for i in range(GAMES):
        match, _ = _game(i)
        _check_final(match)
        if i % max(1, GAMES // STEPWISE) == 0:
            _replay_stepwise(match)
        else:
            _check_settled(match)
        lengths.append(match.commands)
    assert min(lengths) > 10


def test_a_few_seeded_games_keep_every_invariant() -> None:
    for i in range(8):
        match, _ = _game(i)
        _check_final(match)
        _replay_stepwise(match)


def test_the_same_seed_replays_the_same_game() -> None:
    assert _game(3)[0].events == _game(3)[0].events
