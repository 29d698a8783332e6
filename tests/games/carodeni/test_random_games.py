"""Seeded random games through the rules interface, with invariants."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from games import carodeni as game
from games.interface import GameError
from games.rng import Rng
from games.simulate import fold, play

from .invariants import check_legal_actions, check_redacted, check_score, check_state, check_views

SOLO = {"novice", "experienced", "grandmaster"}

#: ``KOTLIK_SLOW_SCALE`` scales the slow suites' game counts (CI runs them smaller).
SCALE = float(os.environ.get("KOTLIK_SLOW_SCALE", "1"))


def _options(i: int, seats: int) -> dict[str, Any]:
    """Vary the options across games: the animal variant, animal goals, one extra hard goal."""
    options: dict[str, Any] = {}
    if i % 3 == 1:
        options.update(animals=True, animal_goals=i % 2 + 1)
    if i % 4 == 2:
        options["extra_hard_goal"] = True
    return options


def _check_end(match: Any) -> None:
    s = match.state
    assert game.is_over(s) and game.to_move(s) == []
    assert all(game.legal_actions(s, seat) == [] for seat in range(s["seats"]))
    check_state(s)
    check_views(s)
    check_score(s)


def _play_checked(bots: list[str], seed: bytes, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Like ``simulate.play``, checking after every event: invariants, JSON round trips, no
    mutation of the input state, and that every listed legal action is accepted by decide."""
    events = game.setup(dict(options), len(bots), Rng(seed, "setup"))
    state: dict[str, Any] = fold(game, events)
    step = 0
    while not game.is_over(state):
        seat = game.to_move(state)[0]
        actions = game.legal_actions(state, seat)
        assert actions
        if step % 7 == 0:
            check_legal_actions(state, seat, actions, Rng(seed, "probe"))
        for other in range(state["seats"]):
            if other != seat:
                assert game.legal_actions(state, other) == []
                with pytest.raises(GameError):
                    game.decide(state, other, actions[0], Rng(seed, "probe"))
        command = game.BOTS[bots[seat]](game.view(state, seat), actions, Rng(seed, f"bot:v{len(events)}"))
        for e in game.decide(state, seat, command, Rng(seed, f"v{len(events)}")):
            before = json.dumps(state, sort_keys=True)
            after = game.evolve(state, e)
            assert json.dumps(state, sort_keys=True) == before, "evolve mutated its input"
            assert game.evolve(json.loads(before), e) == after
            json.dumps(e)
            check_redacted(after, e)
            state = after
            events.append(e)
            check_state(state)
        if step % 5 == 0:
            check_views(state)
        step += 1
    assert fold(game, events) == state
    check_score(state)
    return events


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_checked_random_games(seats: int) -> None:
    for i in range(6):
        bots = ["random" if (i + s) % 2 else "default" for s in range(seats)]
        _play_checked(bots, f"checked-{seats}-{i}".encode(), _options(i, seats))


@pytest.mark.parametrize("difficulty", sorted(SOLO))
def test_checked_solo_games(difficulty: str) -> None:
    for i in range(6):
        options = {"solo": True, "difficulty": difficulty, **_options(i, 2)}
        options.pop("extra_hard_goal", None)
        events = _play_checked(["random" if i % 2 else "default", "ostara"], f"solo-{i}".encode(), options)
        assert sum(1 for e in events if e["type"] == "OstaraTokenDrawn") == 15


def test_setup_redaction_hides_the_orders() -> None:
    events = game.setup({"arranged": {"bag": ["herbs"]}}, 3, Rng(b"r", "setup"))
    state = game.evolve(None, events[0])
    for seat in (None, 0, 1):
        r = game.redact(state, events[0], seat)
        assert all(
            isinstance(r[k], int)
            for k in ("witch_deck", "potion_deck", "witch_aside", "potion_aside", "bag_plan")
        )
        assert "arranged" not in r["options"]


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_thousand_random_games(seats: int) -> None:
    for i in range(round(1000 * SCALE)):
        bots = ["random"] * seats if i % 4 else ["default"] + ["random"] * (seats - 1)
        _check_end(play(game, bots, f"many-{seats}-{i}".encode(), _options(i, seats)))


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", sorted(SOLO))
def test_five_hundred_solo_games(difficulty: str) -> None:
    for i in range(round(500 * SCALE)):
        options = {"solo": True, "difficulty": difficulty}
        if i % 2:
            options["animals"] = True
        bots = ["random" if i % 3 else "default", "ostara"]
        match = play(game, bots, f"solo-{difficulty}-{i}".encode(), options)
        _check_end(match)
        assert match.state["round"] == 15


@pytest.mark.slow
def test_default_bot_beats_random() -> None:
    wins = 0
    for i in range(200):
        me = i % 2
        bots = ["random", "random"]
        bots[me] = "default"
        result = game.score(play(game, bots, f"duel-{i}".encode()).state)
        totals = {e["seat"]: e["total"] for e in result["seats"]}
        wins += totals[me] > totals[1 - me]
    assert wins >= 160, wins
