"""The pure rules engines, one package per game, all behind the interface in :mod:`games.interface`."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import cast

from games.interface import GameError, IllegalMove, InvalidOptions, NotYourTurn, Rules
from games.toolkit import check_seats


class UnknownGame(LookupError):
    """No package ``games.<id>``."""


class UnknownRulesVersion(LookupError):
    """A game package that does not keep the rules version asked for."""


def known() -> list[str]:
    """The ids of every game package."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


@cache
def load(game_id: str, rules_version: int | None = None) -> Rules:
    """The rules module of ``game_id``: the newest, or the one of ``rules_version``.

    A game is folded and decided by the rules version it started with, for ever; a package keeps
    each older version it has shipped as ``games/<id>/v<N>`` (see ``games/README.md``). The module
    is a :class:`~games.interface.Rules`, which mypy checks in each engine.
    """
    if game_id not in known():
        raise UnknownGame(f"no game {game_id!r}; known: {known()}")
    newest = importlib.import_module(f"games.{game_id}")
    if rules_version is None or rules_version == newest.INFO.rules_version:
        return cast(Rules, newest)
    name = f"games.{game_id}.v{rules_version}"
    try:
        older = importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise  # the kept version itself is broken: say so, do not call it unknown
        older = None
    if older is None or older.INFO.rules_version != rules_version:
        raise UnknownRulesVersion(
            f"{game_id} has no rules version {rules_version!r}; this server plays version "
            f"{newest.INFO.rules_version} and keeps {versions(game_id)}"
        ) from None
    return cast(Rules, older)


def versions(game_id: str) -> list[int]:
    """The rules versions of ``game_id`` this server can fold and decide, oldest first."""
    newest = load(game_id)
    kept = [
        int(m.name[1:])
        for m in pkgutil.iter_modules(importlib.import_module(f"games.{game_id}").__path__)
        if m.name[:1] == "v" and m.name[1:].isdigit()
    ]
    return sorted({*kept, newest.INFO.rules_version})


__all__ = [
    "GameError",
    "IllegalMove",
    "InvalidOptions",
    "NotYourTurn",
    "Rules",
    "UnknownGame",
    "UnknownRulesVersion",
    "check_seats",
    "known",
    "load",
    "versions",
]
