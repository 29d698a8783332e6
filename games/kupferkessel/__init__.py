"""Kupferkessel Co. (Čarodějnický kotlík): the base game and the advanced game with recipes."""

from __future__ import annotations

from games.kupferkessel.bots import BOTS
from games.kupferkessel.content import INFO, catalog
from games.kupferkessel.rules import decide, is_over, legal_actions, to_move
from games.kupferkessel.schemas import SCHEMAS
from games.kupferkessel.scoring import score
from games.kupferkessel.setup import setup
from games.kupferkessel.state import evolve
from games.kupferkessel.views import recall, redact, redact_command, view

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
    "redact_command",
    "score",
    "setup",
    "to_move",
    "view",
]
