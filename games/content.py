"""Game content loaded from ``seeds/<game>/``: data shipped with the code, read once.

The folder keeps its old name; everywhere else "seed" means the random secret a game's
:class:`games.rng.Rng` is keyed with, never content.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_content(game_id: str, name: str) -> Any:
    """The parsed ``seeds/<game_id>/<name>.json``; cached because content never changes at run time."""
    text = resources.files("seeds").joinpath(game_id, f"{name}.json").read_text(encoding="utf-8")
    return json.loads(text)
