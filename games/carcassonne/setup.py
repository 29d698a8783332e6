"""Options, the arrangement and the opening events: the start tile on the map, then the first draw."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.carcassonne import tiles
from games.carcassonne.flow import draw
from games.carcassonne.state import evolve
from games.interface import Event, InvalidOptions
from games.rng import Rng
from games.toolkit import Recorder, check_option_keys, option

SEATS = (2, 5)
OPTION_KEYS = ("mage_witch", "arranged")


def _options(options: Mapping[str, Any]) -> tuple[bool, list[str]]:
    check_option_keys(options, OPTION_KEYS)
    mw = option(options, "mage_witch", True, bool, "mage_witch must be true or false")
    arranged = options.get("arranged", [])
    if not isinstance(arranged, list) or not all(isinstance(t, str) for t in arranged):
        raise InvalidOptions('arranged must be a list of tile ids such as "U.3"')
    known = set(tiles.tile_ids(mw)) - {tiles.START}
    bad = [t for t in arranged if t not in known]
    if bad:
        raise InvalidOptions(f"arranged holds tiles not in this game's pack (the start tile excluded): {bad}")
    if len(set(arranged)) != len(arranged):
        raise InvalidOptions("arranged names a tile more than once")
    return mw, list(arranged)


def setup(options: Mapping[str, Any], seats: int, rng: Rng) -> list[Event]:
    """The start tile on the map, then the first draw; ``arranged`` (a prefix of the pack) goes first."""
    if not isinstance(seats, int) or not SEATS[0] <= seats <= SEATS[1]:
        raise InvalidOptions(f"Carcassonne is for {SEATS[0]} to {SEATS[1]} players, not {seats}")
    mw, arranged = _options(options)
    started: Event = {
        "type": "GameStarted",
        "seats": seats,
        "options": dict(options),
        "arranged": bool(arranged),
        "mage_witch": mw,
        "start": {"tile": tiles.START, "x": 0, "y": 0, "rotation": 0},
    }
    log = Recorder(None, evolve)
    log.emit(started)
    draw(log, 0, rng)
    return log.events
