"""Čarodění (Wiedźmy / Witchdom): 2–5 players, or solo against the Ostara automaton.

Commands, events and rulings are documented in this package's README and in
``seeds/carodeni/README.md``.
"""

from __future__ import annotations

from typing import Any

from games.carodeni import content, scoring, views
from games.carodeni.bots import BOTS
from games.carodeni.rules import decide, is_over, legal_actions, to_move
from games.carodeni.schemas import SCHEMAS
from games.carodeni.setup import setup
from games.carodeni.state import State, evolve
from games.interface import Event, GameInfo

INFO = GameInfo(
    id="carodeni",
    name="Čarodění",
    min_seats=2,
    max_seats=5,
    rules_version=1,
    names={"cs": "Čarodění", "pl": "Wiedźmy", "en": "Witchdom"},
)


def view(state: State, seat: int | None) -> dict[str, Any]:
    return views.view(state, seat)


def recall(now: State, then: State, seat: int | None) -> dict[str, Any]:
    """A past table as ``seat`` may recall it while the game runs: exactly what it saw then
    (its own hand was its own; nothing shown face up is hidden again later)."""
    return view(then, seat)


def redact(state: State, event: Event, seat: int | None) -> Event:
    return views.redact(state, event, seat)


def score(state: State) -> dict[str, Any]:
    return scoring.score(state)


def catalog() -> dict[str, Any]:
    return {"game": INFO.id, "names": dict(INFO.names), **content.catalog()}


__all__ = [
    "BOTS", "INFO", "SCHEMAS", "catalog", "decide", "evolve", "is_over", "legal_actions", "recall", "redact",
    "score", "setup", "to_move", "view",
]
