"""The game's facts and its catalog: the tile types of ``tiles.py`` (from ``seeds/carcassonne/``) and
the figures, with their names in cs/pl/en."""

from __future__ import annotations

from typing import Any

from games.carcassonne import tiles
from games.interface import GameInfo

INFO = GameInfo(
    id="carcassonne",
    name="Carcassonne + Mage & Witch",
    min_seats=2,
    max_seats=5,
    rules_version=1,
    names={
        "cs": "Carcassonne + Mág a čarodějnice",
        "pl": "Carcassonne + Mag i Czarownica",
        "en": "Carcassonne + Mage & Witch",
    },
)


def catalog() -> dict[str, Any]:
    """The 24 base tile types and the 8 Mage & Witch tiles, as data, with the figures."""
    return {
        "game": INFO.id,
        "names": dict(INFO.names),
        "halves": list(tiles.HALVES),
        "start_tile": tiles.START,
        "tiles": [
            {**t, "ids": [f"{t['id']}.{n}" for n in range(1, t["count"] + 1)]} for t in tiles.types().values()
        ],
        "figures": {
            "follower": {"names": {"cs": "Družiník", "pl": "Podwładny", "en": "Follower"}, "per_player": 7},
            "mage": {"names": {"cs": "Mág", "pl": "Mag", "en": "Mage"}},
            "witch": {"names": {"cs": "Čarodějnice", "pl": "Czarownica", "en": "Witch"}},
        },
        "roles": {
            "thief": {"names": {"cs": "Lupič", "pl": "Rozbójnik", "en": "Thief"}},
            "knight": {"names": {"cs": "Rytíř", "pl": "Rycerz", "en": "Knight"}},
            "monk": {"names": {"cs": "Mnich", "pl": "Mnich", "en": "Monk"}},
            "farmer": {"names": {"cs": "Sedlák", "pl": "Chłop", "en": "Farmer"}},
        },
    }
