"""Invariants every reachable Kupferkessel state keeps, checked by the random-game tests: ``check_state``
(every card exactly once), ``check_secrets`` (nothing hidden in a view or the redacted log),
``check_legal_actions``; and the lookups they and the view tests share (``all_cards_of``,
``hidden_from_table``, ``leaked``)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import games.kupferkessel as kk
from games.kupferkessel.content import card_order
from games.kupferkessel.views import TELLING_FIELDS

from .support import NoRandom, card

ALL_CARDS = frozenset(card_order())


def all_cards_of(state: Any) -> list[str]:
    """Every card wherever it is: the square, the cauldrons, the deck, set aside, out of the game,
    and the last card awaiting the end decision."""
    out = [c for c in state["grid"] if c]
    for cauldron in state["cauldrons"]:
        out += cauldron
    out += state["deck"] + state["set_aside"] + state["removed"]
    if state["phase"] == "end" and state["pending"] is not None:
        out.append(state["pending"])
    return out


def hidden_from_table(state: Any) -> set[str]:
    """Cards no one may see during play: below a cauldron's top, in the deck, out of the game."""
    hidden = set(state["deck"]) | set(state["removed"])
    for cauldron in state["cauldrons"]:
        hidden |= set(cauldron[:-1])
    return hidden


def leaked(data: Any, secret: set[str]) -> set[str]:
    """The ids of ``secret`` that appear as strings anywhere in ``data``."""
    text = json.dumps(data)
    return {s for s in secret if f'"{s}"' in text}


def check_state(state: Any) -> None:
    """Every card exactly once, the pawns on different spots, the state a JSON round trip away from itself."""
    assert Counter(all_cards_of(state)) == Counter({c: 1 for c in ALL_CARDS})
    assert state["pawns"][0] != state["pawns"][1]
    assert json.loads(json.dumps(state)) == state


def check_secrets(state: Any, events: list[dict[str, Any]], with_log: bool) -> None:
    """No view, nor (``with_log``) the log as ``redact`` shows it, names a hidden card or another
    seat's recipes."""
    if kk.is_over(state):
        return
    hidden = hidden_from_table(state)
    recipes = state["recipes"]
    for seat in (0, 1, None):
        secret = hidden | ({r for s in (0, 1) if s != seat for r in recipes[s]})
        assert not leaked(kk.view(state, seat), secret)
        if with_log:
            log = [kk.redact(state, e, seat) for e in events]
            assert not leaked(log, secret)
            _check_no_telling_fields(log)


def _check_no_telling_fields(log: list[dict[str, Any]]) -> None:
    """A step count is shown only beside the face-up card it is the value of; nothing else tells
    about a hidden card (where it lay, where its walk went, its symbol)."""
    for event in log:
        if event["type"] == "PawnMoved" and event["steps"] is not None:
            assert event["card"] is not None and event["steps"] == card(event["card"])["value"]
        if "card" in event and event["card"] is None:
            assert all(event[f] is None for f in TELLING_FIELDS.get(event["type"], ())), event


def check_legal_actions(state: Any) -> None:
    """``decide`` accepts every action ``legal_actions`` lists, for both seats, without drawing."""
    for seat in (0, 1):
        for action in kk.legal_actions(state, seat):
            kk.decide(state, seat, action, NoRandom())
