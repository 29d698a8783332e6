"""The memory rule reaches back: a replayed past table shows nothing the table no longer shows.

``view`` of a past state shows that moment's cauldron tops; asked for at every version, those views
would rebuild both cauldrons card by card. ``recall`` is what ``?at=`` shows of a running game.
"""

from __future__ import annotations

from typing import Any

import pytest

import games.kupferkessel as kk
from games.kupferkessel.views import visible_cards
from games.simulate import fold, play

from .invariants import hidden_from_table, leaked


def _states(seed: bytes, options: dict[str, Any]) -> list[Any]:
    """The state after every event of a seeded random game played to its end."""
    events = play(kk, ["random", "random"], seed, options).events
    states, state = [], None
    for event in events:
        state = fold(kk, [event], state)
        states.append(state)
    return states


@pytest.mark.parametrize("options", [{}, {"recipes": True}])
def test_no_past_table_shows_a_card_below_a_cauldron_top_now(options: dict[str, Any]) -> None:
    states = _states(b"recall", options)
    rebuilt = 0
    for n, now in enumerate(states[:-1]):
        if kk.is_over(now):
            break
        secret = hidden_from_table(now)
        for then in states[: n + 1 : 3]:
            for seat in (None, 0, 1):
                recalled = kk.recall(now, then, seat)
                assert not leaked(recalled, secret), (n, seat)
                cards = {c for row in recalled["grid"] for c in row if c}
                cards |= {c["top"] for c in recalled["cauldrons"] if c["top"]}
                assert cards <= visible_cards(now)
                walked = [p for p in recalled["pawns"] if p["position"] is not None]
                assert all(p["position"] == now["pawns"][p["seat"]] for p in walked)
                rebuilt += len(leaked(kk.view(then, seat), secret))
    assert rebuilt, "the past views this test replays must have shown cards covered since"


def test_the_present_and_a_finished_game_are_recalled_whole() -> None:
    states = _states(b"recall-end", {"recipes": True})
    assert kk.is_over(states[-1])
    for seat in (None, 0, 1):
        assert kk.recall(states[40], states[40], seat) == kk.view(states[40], seat)
        assert kk.recall(states[-1], states[30], seat) == kk.view(states[30], seat)


def test_a_seat_recalls_its_own_take_only_while_the_card_shows_and_never_a_moves_steps() -> None:
    states = _states(b"recall-commands", {})
    now = next(s for s in states if any(len(c) >= 3 for c in s["cauldrons"]) and not kk.is_over(s))
    covered = next(c for cauldron in now["cauldrons"] for c in cauldron[:-1])
    top = next(cauldron[-1] for cauldron in now["cauldrons"] if cauldron)
    assert kk.redact_command(now, {"type": "take", "card": covered}, 0) == {"type": "take", "card": None}
    assert kk.redact_command(now, {"type": "take", "card": top}, 0) == {"type": "take", "card": top}
    assert kk.redact_command(now, {"type": "move", "steps": 3}, 0) == {"type": "move", "steps": None}
    assert kk.redact_command(states[-1], {"type": "take", "card": covered}, 0)["card"] == covered
