"""The bot levels a person may pick, as the catalog lists them: a name and a one-line description
in cs/pl/en (``seeds/levels.json``) and, per game, the strength ``bench/strength.py`` measured
(``seeds/<game>/strength.json``, written by its ``--record``). Both are data read once; nothing is
measured when a client asks.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from games.interface import Rules


@cache
def _described() -> dict[str, Any]:
    return dict(json.loads(resources.files("seeds").joinpath("levels.json").read_text(encoding="utf-8")))


@cache
def measured(game_id: str) -> dict[str, Any]:
    """``{bot: [match, ...]}`` as ``bench/strength.py --record`` stored it; ``{}`` before any run."""
    path = resources.files("seeds").joinpath(game_id, "strength.json")
    if not path.is_file():
        return {}
    return dict(json.loads(path.read_text(encoding="utf-8")))


def searches(bot: str) -> bool:
    """Whether the level ``bot`` searches, spending its whole budget of a core on each turn (its
    turns then run on a queue of their own: :mod:`workers.queues`)."""
    return bool(_described().get(bot, {}).get("searches", False))


def levels(game: Rules) -> list[dict[str, Any]]:
    """Each bot of ``game`` in its ``BOTS`` order: its name, its description, and the matches that
    measured it (each: the opponent, seats, games, win share with its 95 % interval, Elo, time per
    move)."""
    out = []
    for bot in game.BOTS:
        described = _described()[bot]
        out.append(
            {
                "bot": bot,
                "names": dict(described["names"]),
                "descriptions": dict(described["descriptions"]),
                "strength": list(measured(game.INFO.id).get(bot, [])),
            }
        )
    return out
