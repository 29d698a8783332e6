"""Škoda kouzla: the wizard deck-building duel (2 players), as a pure event-sourced decider."""

from __future__ import annotations

from games.skodakouzla.bots import BOTS
from games.skodakouzla.content import INFO, catalog
from games.skodakouzla.rules import decide, is_over, legal_actions, to_move
from games.skodakouzla.schemas import SCHEMAS
from games.skodakouzla.scoring import score
from games.skodakouzla.setup import setup
from games.skodakouzla.state import evolve
from games.skodakouzla.views import recall, redact, view

__all__ = [
    "BOTS",
    "INFO",
    "SCHEMAS",
    "catalog",
    "decide",
    "evolve",
    "is_over",
    "legal_actions",
    "recall",
    "redact",
    "score",
    "setup",
    "to_move",
    "view",
]
