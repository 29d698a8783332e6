"""Čarodění (Wiedźmy / Witchdom): 2–5 players, or solo against the Ostara automaton.

Commands, events and rulings are documented in this package's README and in
``seeds/carodeni/README.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.carodeni.bots import BOTS
from games.carodeni.content import INFO, catalog
from games.carodeni.rules import IRREVERSIBLE, decide, is_over, legal_actions, to_move
from games.carodeni.schemas import SCHEMAS
from games.carodeni.scoring import score
from games.carodeni.setup import check_seats, setup
from games.carodeni.state import evolve
from games.carodeni.views import recall, redact, view

# The optional part of the interface this game does without (games.interface.Rules).
redact_command = None  # a seat recalls its own commands whole

__all__ = [
    "BOTS",
    "IRREVERSIBLE",
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
    "redact_command",
    "score",
    "setup",
    "to_move",
    "view",
]

if TYPE_CHECKING:  # mypy checks this package against the interface whenever either changes
    import games.carodeni as _this
    from games.interface import Rules

    _RULES: Rules = _this
