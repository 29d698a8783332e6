"""Kupferkessel Co. (Čarodějnický kotlík): the base game and the advanced game with recipes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.kupferkessel.bots import BOTS
from games.kupferkessel.content import INFO, catalog
from games.kupferkessel.rules import IRREVERSIBLE, decide, is_over, legal_actions, to_move
from games.kupferkessel.schemas import SCHEMAS
from games.kupferkessel.scoring import score
from games.kupferkessel.setup import setup
from games.kupferkessel.state import evolve
from games.kupferkessel.views import recall, redact, redact_command, view

# The optional part of the interface this game does without (games.interface.Rules).
check_seats = None  # no seat rules: its bots may sit at any seat

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
    import games.kupferkessel as _this
    from games.interface import Rules

    _RULES: Rules = _this
