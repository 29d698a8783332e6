"""Carcassonne + Mage & Witch described as JSON Schema: its options, commands, events and view.

Pure data in the format of ``games/README.md`` ("Schemas"); ``tests/games/test_schemas.py`` checks
every command ``legal_actions`` lists, every event ``setup``/``decide`` make (as stored and as
``redact`` shows them to each seat) and every view against it over seeded random games.
Coordinates, rotations, edge halves and feature indices are as ``games/carcassonne/README.md``
describes them.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

SEAT: Schema = {"type": "integer", "minimum": 0, "maximum": 4}
SEATS: Schema = {"type": "array", "items": SEAT, "maxItems": 5}
COUNT: Schema = {"type": "integer", "minimum": 0}
#: 80 tiles at most, the start tile at (0, 0): no square lies further out.
COORD: Schema = {"type": "integer", "minimum": -80, "maximum": 80}
ROTATION: Schema = {"type": "integer", "minimum": 0, "maximum": 3, "description": "quarter turns clockwise"}
FEATURE: Schema = {
    "type": "integer",
    "minimum": 0,
    "maximum": 7,
    "description": "the index of a feature in its tile type's `features` (`GET /catalog/carcassonne`)",
}
TILE: Schema = {
    "type": "string",
    "pattern": "^([A-X]|MW[1-8])\\.[0-9]+$",
    "description": "a physical tile, `<type>.<n>` (`tiles[].ids` of `GET /catalog/carcassonne`)",
}
TILE_TYPE: Schema = {"type": "string", "pattern": "^([A-X]|MW[1-8])$"}
FIGURE: Schema = {"enum": ["mage", "witch"]}
KIND: Schema = {"enum": ["road", "city", "monastery", "field"]}
ROLE: Schema = {"enum": ["thief", "knight", "monk", "farmer"]}
SIDE: Schema = {"enum": ["N", "E", "S", "W"]}
HALF: Schema = {"enum": ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"]}
#: A feature of a placed tile, ``<placement index>:<feature index>``.
SEGMENT: Schema = {"type": "string", "pattern": "^[0-9]+:[0-7]$", "description": "`<tile index>:<feature>`"}
FEATURE_ID: Schema = {"type": "string", "pattern": "^[0-9]+$", "description": "a feature record's key"}
PARTS: tuple[str, ...] = ("roads", "cities", "monasteries", "fields")


def _names(cs: str, pl: str, en: str) -> dict[str, str]:
    return {"cs": cs, "pl": pl, "en": en}


def _object(required: list[str] | None = None, **fields: Schema) -> Schema:
    return _record(fields, required)


def _record(fields: dict[str, Schema], required: list[str] | None = None) -> Schema:
    """An object of exactly these fields, all of them required unless ``required`` says which
    (an empty list is left out: OpenAPI 3.0 wants at least one)."""
    required = list(fields) if required is None else required
    out: Schema = {"type": "object", "additionalProperties": False, "properties": fields}
    return {**out, "required": required} if required else out


def _map(values: Schema, description: str) -> Schema:
    """An object used as a lookup table: any key, each value alike."""
    return {"type": "object", "additionalProperties": values, "description": description}


MAGE_WITCH_OPTION: Schema = {
    "type": "boolean",
    "default": True,
    "title": "Mage & Witch",
    "description": "play with the Mage & Witch expansion (8 more tiles, the mage and the witch)",
    "x-names": _names("Mág a čarodějnice", "Mag i Czarownica", "Mage & Witch"),
    "x-descriptions": _names(
        "Hrát s rozšířením Mág a čarodějnice (8 kartiček navíc, mág a čarodějnice).",
        "Gra z dodatkiem Mag i Czarownica (8 dodatkowych płytek, mag i czarownica).",
        "Play with the Mage & Witch expansion (8 more tiles, the mage and the witch).",
    ),
}

ARRANGED: Schema = {
    "type": "array",
    "items": TILE,
    "uniqueItems": True,
    "maxItems": 79,
    "title": "Arranged tiles",
    "description": "the first tiles drawn, in order (the start tile excluded); then the seeded draw",
    "x-names": _names("Připravené pořadí kartiček", "Ułożona kolejność płytek", "Arranged tiles"),
    "x-descriptions": _names(
        "Pevné pořadí prvních tažených kartiček místo náhody (výuka, hádanky, přehrávání partií).",
        "Ustalona kolejność pierwszych dobieranych płytek zamiast losowania (nauka, zagadki, powtórki).",
        "A fixed order for the first tiles drawn instead of chance (teaching, puzzles, replays).",
    ),
    "x-form": False,
}

OPTIONS: Schema = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"mage_witch": MAGE_WITCH_OPTION, "arranged": ARRANGED},
}


def _command(name: str, description: str, /, **fields: Schema) -> Schema:
    return {
        "type": "object",
        "description": description,
        "additionalProperties": False,
        "required": ["type", *fields],
        "properties": {"type": {"const": name}, **fields},
    }


COMMANDS: dict[str, Schema] = {
    "place_tile": _command(
        "place_tile",
        "lay the drawn tile at `(x, y)` (x east, y north), touching the map, every edge matching",
        x=COORD,
        y=COORD,
        rotation=ROTATION,
    ),
    "place_magic": _command(
        "place_magic",
        "place or move the mage or the witch onto an incomplete road or city",
        figure=FIGURE,
        x=COORD,
        y=COORD,
        feature=FEATURE,
    ),
    "remove_magic": _command(
        "remove_magic", "set the mage or the witch aside when it can go nowhere", figure=FIGURE
    ),
    "place_follower": _command(
        "place_follower", "put a follower on a free feature of the tile just laid", feature=FEATURE
    ),
    "pass": _command("pass", "place no follower this turn"),
}


def _event(name: str, /, **fields: Schema) -> Schema:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["type", *fields],
        "properties": {"type": {"const": name}, **fields},
    }


POSITION: Schema = _object(x=COORD, y=COORD, feature=FEATURE)
BREAKDOWN: Schema = _record(dict.fromkeys(PARTS, COUNT))
SCORE: Schema = _object(
    seats={
        "type": "array",
        "minItems": 2,
        "maxItems": 5,
        "items": _object(seat=SEAT, total=COUNT, breakdown=BREAKDOWN),
    },
    winners={**SEATS, "minItems": 1},
)

EVENTS: dict[str, Schema] = {
    "GameStarted": _event(
        "GameStarted",
        seats={"type": "integer", "minimum": 2, "maximum": 5},
        options={**OPTIONS, "description": "as given; `arranged` is hidden while the game runs"},
        arranged={"type": "boolean"},
        mage_witch={"type": "boolean"},
        start=_object(tile={"const": "D.1"}, x={"const": 0}, y={"const": 0}, rotation={"const": 0}),
    ),
    "TileDrawn": _event("TileDrawn", seat=SEAT, tile=TILE),
    "TileDiscarded": _event("TileDiscarded", seat=SEAT, tile=TILE),
    "TilePlaced": _event("TilePlaced", seat=SEAT, tile=TILE, x=COORD, y=COORD, rotation=ROTATION),
    "MagicFigurePlaced": _event(
        "MagicFigurePlaced",
        seat=SEAT,
        figure=FIGURE,
        x=COORD,
        y=COORD,
        feature=FEATURE,
        **{"from": {"anyOf": [POSITION, {"type": "null"}], "description": "null: from beside the board"}},
    ),
    "MagicFigureRemoved": _event("MagicFigureRemoved", seat=SEAT, figure=FIGURE),
    "FollowerPlaced": _event(
        "FollowerPlaced", seat=SEAT, x=COORD, y=COORD, feature=FEATURE, kind=KIND, role=ROLE
    ),
    "FollowerSkipped": _event("FollowerSkipped", seat=SEAT),
    "FeatureScored": _event(
        "FeatureScored",
        feature=FEATURE_ID,
        kind=KIND,
        tiles={"type": "integer", "minimum": 1},
        points={**COUNT, "description": "to each winner"},
        winners=SEATS,
        figure={"enum": ["mage", "witch", None]},
        followers={"type": "array", "items": _object(seat=SEAT, x=COORD, y=COORD, feature=FEATURE)},
        final={"type": "boolean", "description": "scored at the end of the game"},
    ),
    "GameEnded": _event("GameEnded", score=SCORE),
}

#: One tile type's layout, as in the catalog.
TILE_FEATURE: Schema = _object(
    required=["kind"],
    kind=KIND,
    edges={"type": "array", "items": SIDE, "description": "the sides a road or city reaches"},
    shield={"type": "boolean"},
    halves={"type": "array", "items": HALF, "description": "the edge halves a field reaches"},
    cities={"type": "array", "items": FEATURE, "description": "the cities on the tile a field touches"},
)
FEATURE_RECORD: Schema = _object(
    required=["kind", "segs", "open", "shields", "followers"],
    kind=KIND,
    segs={"type": "array", "items": SEGMENT, "minItems": 1},
    open={**COUNT, "description": "open edges (roads, cities) or missing neighbours (monasteries)"},
    shields=COUNT,
    followers={
        "type": "array",
        "items": {
            "type": "array",
            "minItems": 2,
            "maxItems": 2,
            "items": {"anyOf": [SEAT, SEGMENT]},
            "description": "`[seat, segment]`",
        },
    },
    cities={"type": "array", "items": SEGMENT, "description": "fields: the city segments they touch"},
)
INT_OR_STRING: Schema = {"anyOf": [{"type": "integer"}, {"type": "string"}]}

VIEW: Schema = _object(
    required=[
        "seats",
        "mage_witch",
        "phase",
        "turn",
        "supply",
        "tiles",
        "grid",
        "owner",
        "features",
        "next_fid",
        "frontier",
        "completed",
        "last",
        "discarded",
        "seat",
        "to_move",
        "over",
        "current_tile",
        "placements",
        "pack_size",
        "pack",
        "board",
        "followers",
        "mage",
        "witch",
        "mage_seg",
        "witch_seg",
        "score",
        "scores",
    ],
    seats={"type": "integer", "minimum": 2, "maximum": 5},
    mage_witch={"type": "boolean"},
    phase={"enum": ["drawing", "tile", "conflict", "magic", "follower", "scoring", "over"]},
    turn=SEAT,
    supply={"type": "array", "items": {**COUNT, "maximum": 7}, "description": "followers left per seat"},
    tiles={
        "type": "array",
        "items": {"type": "array", "minItems": 4, "maxItems": 4, "items": INT_OR_STRING},
        "description": "placed tiles in order: `[tile, x, y, rotation]`",
    },
    grid=_map(COUNT, '`"x,y"` → index in `tiles`'),
    owner=_map(FEATURE_ID, 'segment `"<tile index>:<feature>"` → feature id'),
    features=_map(FEATURE_RECORD, "feature id → its record"),
    next_fid=COUNT,
    frontier=_map(
        {"type": "array", "minItems": 3, "maxItems": 3, "items": INT_OR_STRING},
        'free squares beside the map, `"x,y"` → `[x, y, edges]` (`C`/`R`/`F` or `?` per side N E S W)',
    ),
    completed={"type": "array", "items": FEATURE_ID, "description": "features the last tile completed"},
    last={"type": ["integer", "null"], "minimum": 0, "description": "index of the tile laid last"},
    discarded={"type": "array", "items": TILE},
    seat={"type": ["integer", "null"], "minimum": 0, "maximum": 4, "description": "null: a spectator"},
    to_move={**SEATS, "maxItems": 1},
    over={"type": "boolean"},
    current_tile={
        "anyOf": [
            _object(
                tile=TILE,
                type=TILE_TYPE,
                mage={"type": "boolean"},
                edges=_object(N=KIND, E=KIND, S=KIND, W=KIND),
                features={"type": "array", "items": TILE_FEATURE},
            ),
            {"type": "null"},
        ],
        "description": "the drawn tile and its layout, unrotated",
    },
    placements={
        "type": "array",
        "items": {"type": "array", "minItems": 3, "maxItems": 3, "items": {"type": "integer"}},
        "description": "where the drawn tile fits: `[x, y, rotation]`",
    },
    pack_size=COUNT,
    pack=_map(COUNT, "tile type → how many are left in the pack"),
    board={"type": "array", "items": _object(tile=TILE, x=COORD, y=COORD, rotation=ROTATION)},
    followers={
        "type": "array",
        "items": _object(seat=SEAT, x=COORD, y=COORD, feature=FEATURE, kind=KIND, role=ROLE),
    },
    mage={"anyOf": [POSITION, {"type": "null"}]},
    witch={"anyOf": [POSITION, {"type": "null"}]},
    mage_seg={**SEGMENT, "type": ["string", "null"]},
    witch_seg={**SEGMENT, "type": ["string", "null"]},
    score=SCORE,
    scores={"type": "array", "items": BREAKDOWN, "description": "points so far per seat"},
    follower_options={
        "type": "array",
        "items": COMMANDS["place_follower"],
        "description": "the seat to move, in the follower step: where a follower may go",
    },
)

SCHEMAS: dict[str, Any] = {"options": OPTIONS, "commands": COMMANDS, "events": EVENTS, "view": VIEW}
