"""``/catalog``: each game's content (cards, tiles) with localized names."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

import games
from games.levels import levels
from service.contract.document import OPTIONAL

blp = Blueprint("catalog", __name__, url_prefix="/api/v1/catalog", description="Game content")

#: What ``/catalog`` answers, for the document (the view's dict is sent as it is).
NAMES = {
    "type": "object",
    "additionalProperties": {"type": "string"},
    "description": "by language: cs, pl, en",
}
#: One match ``bench/strength.py --record`` stored for a level (``seeds/<game>/strength.json``).
MATCH = {
    "type": "object",
    "description": "a measured match: the level at one seat, `against` at every other",
    "properties": {
        "against": {"type": "string", "description": "the other seats' level"},
        "seats": {"type": "integer"},
        "games": {"type": "integer"},
        "wins": {"type": "number", "description": "a shared win counted in part", OPTIONAL: True},
        "share": {"type": "number", "description": "wins per game; an equal player's is 1/seats"},
        "low": {"type": "number", "description": "the share's 95 % interval (Wilson), its lower end"},
        "high": {"type": "number", "description": "the interval's upper end"},
        "elo": {"type": "integer", "description": "the Elo difference the share implies against the field"},
        "median_ms": {"type": "number", "description": "CPU milliseconds a move, median"},
        "p99_ms": {"type": "number", "description": "CPU milliseconds a move, 99th percentile"},
    },
}
#: A bot level a seat may be given (``POST /games``' ``{"bot": ...}``).
LEVEL = {
    "type": "object",
    "properties": {
        "bot": {"type": "string"},
        "names": NAMES,
        "descriptions": {**NAMES, "description": "one line, by language: cs, pl, en"},
        "strength": {"type": "array", "items": MATCH, "description": "empty: not measured"},
    },
}
GAMES = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "game": {"type": "string"},
            "name": {"type": "string"},
            "names": NAMES,
            "seats": {
                "type": "object",
                "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}},
            },
            "rules_version": {"type": "integer"},
            "bots": {"type": "array", "items": {"type": "string"}},
            "levels": {
                "type": "array",
                "items": LEVEL,
                "description": "the bots in the order they are offered",
            },
        },
    },
}
#: What ``/catalog/{game}`` answers: each game's own content, and its options' JSON Schema.
CONTENT = {
    "type": "object",
    "description": "The game's content (cards, tiles...) as the game describes it",
    "properties": {"options": {"type": "object", "description": "The options' JSON Schema (draft 2020-12)"}},
    "additionalProperties": True,
}


def _json(schema: dict[str, Any]) -> dict[Any, Any]:
    return {200: {"content": {"application/json": {"schema": schema}}}}


@blp.route("")
class Games(MethodView):
    @blp.response(200)
    @blp.doc(responses=_json(GAMES))
    def get(self) -> list[dict[str, Any]]:
        """The games this server hosts, with their bot levels (``levels``: each named and described in
        cs/pl/en, with the strength ``bench/strength.py`` measured; data, not measured here)."""
        out = []
        for game_id in games.known():
            info = games.load(game_id).INFO
            out.append(
                {
                    "game": info.id,
                    "name": info.name,
                    "names": dict(info.names),
                    "seats": {"min": info.min_seats, "max": info.max_seats},
                    "rules_version": info.rules_version,
                    "bots": sorted(games.load(game_id).BOTS),
                    "levels": levels(games.load(game_id)),
                }
            )
        return out


@blp.route("/<game>")
class Catalog(MethodView):
    @blp.response(200)
    @blp.doc(responses=_json(CONTENT))
    def get(self, game: str) -> dict[str, Any]:
        """One game's content, and under ``options`` the JSON Schema of its options: allowed values,
        defaults and names and descriptions in cs/pl/en, enough to build a "new game" form."""
        rules = games.load(game)
        content = dict(rules.catalog())
        schemas = rules.SCHEMAS
        if schemas is not None:
            content["options"] = schemas["options"]
        return content
