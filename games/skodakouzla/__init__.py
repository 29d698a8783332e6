"""Škoda kouzla: the wizard deck-building duel (2 players), as a pure event-sourced decider."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.skodakouzla.bots import BOTS
from games.skodakouzla.content import INFO, catalog
from games.skodakouzla.rules import IRREVERSIBLE, decide, is_over, legal_actions, to_move
from games.skodakouzla.schemas import SCHEMAS
from games.skodakouzla.scoring import score
from games.skodakouzla.setup import setup
from games.skodakouzla.state import evolve
from games.skodakouzla.views import recall, redact, view

# The optional parts of the interface this game does without (games.interface.Rules).
check_seats = None  # no seat rules: its bots may sit at any seat
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
    import games.skodakouzla as _this
    from games.interface import Rules

    _RULES: Rules = _this
