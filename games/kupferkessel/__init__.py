"""Kupferkessel Co. (Čarodějnický kotlík): the base game and the advanced game with recipes."""

from __future__ import annotations

import copy
from typing import Any

from games.content import load_seed
from games.interface import GameInfo
from games.kupferkessel.bots import BOTS
from games.kupferkessel.content import card_order, cards, ingredients, recipes
from games.kupferkessel.rules import decide, is_over, legal_actions, to_move
from games.kupferkessel.schemas import SCHEMAS
from games.kupferkessel.scoring import score
from games.kupferkessel.setup import setup
from games.kupferkessel.state import evolve
from games.kupferkessel.views import recall, redact, redact_command, view

INFO = GameInfo(
    id="kupferkessel",
    name="Kupferkessel Co.",
    min_seats=2,
    max_seats=2,
    rules_version=1,
    names={"cs": "Čarodějnický kotlík", "pl": "Czarodziejski kociołek", "en": "Kupferkessel Co."},
)


def catalog() -> dict[str, Any]:
    """The cards, ingredients, colours, symbols and recipes, each with ``names`` in cs/pl/en; a
    copy, so a caller cannot change the cached seeds."""
    seed = load_seed("kupferkessel", "ingredients")
    return copy.deepcopy(
        {
            "game": INFO.id,
            "names": dict(INFO.names),
            "colours": seed["colours"],
            "symbols": seed["symbols"],
            "ingredients": list(ingredients().values()),
            "cards": [cards()[c] for c in card_order()],
            "recipes": list(recipes().values()),
        }
    )


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
