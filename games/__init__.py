"""The pure rules engines, one package per game, all behind the interface in :mod:`games.interface`."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType

from games.interface import GameError, IllegalMove, InvalidOptions, NotYourTurn


class UnknownGame(LookupError):
    """No package ``games.<id>``."""


def known() -> list[str]:
    """The ids of every game package."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


@cache
def load(game_id: str) -> ModuleType:
    """The rules module of ``game_id``."""
    if game_id not in known():
        raise UnknownGame(f"no game {game_id!r}; known: {known()}")
    return importlib.import_module(f"games.{game_id}")


__all__ = ["GameError", "IllegalMove", "InvalidOptions", "NotYourTurn", "UnknownGame", "known", "load"]
