"""Škoda kouzla: the wizard deck-building duel (2 players), as a pure event-sourced decider."""

from __future__ import annotations

from games.interface import GameInfo
from games.skodakouzla.actions import legal_actions
from games.skodakouzla.bots import BOTS
from games.skodakouzla.rules import decide, setup
from games.skodakouzla.state import evolve
from games.skodakouzla.views import catalog, is_over, redact, score, to_move, view

INFO = GameInfo(id="skodakouzla", name="Škoda kouzla", min_seats=2, max_seats=2, rules_version=1)

__all__ = [
    "BOTS", "INFO", "catalog", "decide", "evolve", "is_over", "legal_actions", "redact", "score",
    "setup", "to_move", "view",
]
