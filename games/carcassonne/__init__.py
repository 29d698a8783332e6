"""Carcassonne with the Mage & Witch expansion (on by default; ``{"mage_witch": false}``: base game)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.carcassonne.bots import BOTS
from games.carcassonne.content import INFO, catalog
from games.carcassonne.rules import IRREVERSIBLE, decide, is_over, legal_actions, to_move
from games.carcassonne.schemas import SCHEMAS
from games.carcassonne.scoring import score
from games.carcassonne.setup import setup
from games.carcassonne.state import evolve
from games.carcassonne.views import recall, redact, view

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
    import games.carcassonne as _this
    from games.interface import Rules

    _RULES: Rules = _this
