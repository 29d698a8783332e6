"""Čarodění (Wiedźmy / Witchdom): 2–5 players, or solo against the Ostara automaton.

Commands, events and rulings are documented in this package's README and in
``seeds/carodeni/README.md``.
"""

from __future__ import annotations

from games.carodeni.bots import BOTS
from games.carodeni.content import INFO, catalog
from games.carodeni.rules import decide, is_over, legal_actions, to_move
from games.carodeni.schemas import SCHEMAS
from games.carodeni.scoring import score
from games.carodeni.setup import check_seats, setup
from games.carodeni.state import evolve
from games.carodeni.views import recall, redact, view

__all__ = [
    "BOTS",
    "INFO",
    "SCHEMAS",
    "catalog",
    "check_seats",
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
