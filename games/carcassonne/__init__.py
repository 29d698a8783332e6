"""Carcassonne with the Mage & Witch expansion (on by default; ``{"mage_witch": false}``: base game)."""

from __future__ import annotations

from games.carcassonne.bots import BOTS
from games.carcassonne.content import INFO, catalog
from games.carcassonne.rules import decide, is_over, legal_actions, to_move
from games.carcassonne.schemas import SCHEMAS
from games.carcassonne.scoring import score
from games.carcassonne.setup import setup
from games.carcassonne.state import evolve
from games.carcassonne.views import recall, redact, view

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
