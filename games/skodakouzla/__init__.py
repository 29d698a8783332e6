"""Škoda kouzla: the wizard deck-building duel (2 players), as a pure event-sourced decider."""

from __future__ import annotations

from typing import Any

from games.interface import GameInfo
from games.skodakouzla import views
from games.skodakouzla.actions import legal_actions
from games.skodakouzla.bots import BOTS
from games.skodakouzla.rules import decide, setup
from games.skodakouzla.schemas import SCHEMAS
from games.skodakouzla.state import evolve
from games.skodakouzla.views import is_over, recall, redact, score, to_move, view

INFO = GameInfo(
    id="skodakouzla",
    name="Škoda kouzla",
    min_seats=2,
    max_seats=2,
    rules_version=1,
    names={"cs": "Škoda kouzla", "pl": "Szkoda zaklęć", "en": "A Waste of Spells"},
)


def catalog() -> dict[str, Any]:
    """Every card, wizard and the level card, each with ``names`` in cs/pl/en."""
    return {"game": INFO.id, "names": dict(INFO.names), **views.catalog()}

__all__ = [
    "BOTS", "INFO", "SCHEMAS", "catalog", "decide", "evolve", "is_over", "legal_actions", "recall", "redact",
    "score", "setup", "to_move", "view",
]
