"""Kupferkessel Co. described as JSON Schema: its options, commands, events and view.

Pure data in the format of ``games/README.md`` ("Schemas"); ``tests/games/test_schemas.py`` checks
every command ``legal_actions`` lists, every event ``setup``/``decide`` make (as stored and as
``redact`` shows them to each seat) and every view against it over seeded random games.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

SEAT: Schema = {"type": "integer", "minimum": 0, "maximum": 1, "description": "0 is white, 1 is black"}
CARD: Schema = {"type": "string", "minLength": 1, "description": "a card id of `GET /catalog/kupferkessel`"}
#: A card id, or null where the log hides a card the table no longer shows.
HIDDEN_CARD: Schema = {**CARD, "type": ["string", "null"]}
LINE: Schema = {
    "enum": ["row1", "row2", "row3", "row4", "col1", "col2", "col3", "col4"],
    "description": "the row or column beside a pawn",
}
POSITION: Schema = {"type": "integer", "minimum": 0, "maximum": 19, "description": "0 is the top-left corner"}
COLOUR: Schema = {"enum": ["white", "black"]}
INDEX: Schema = {"type": "integer", "minimum": 0, "maximum": 5}
GRID: Schema = {
    "type": "array",
    "minItems": 6,
    "maxItems": 6,
    "items": {"type": "array", "minItems": 6, "maxItems": 6, "items": HIDDEN_CARD},
    "description": "rows top to bottom; corner cards and holes are null",
}
IDS: Schema = {"type": "array", "items": CARD, "uniqueItems": True}


def _names(cs: str, pl: str, en: str) -> dict[str, str]:
    return {"cs": cs, "pl": pl, "en": en}


ARRANGED: Schema = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "deck": {**IDS, "maxItems": 56, "description": "the shuffled cards, top first (a prefix is enough)"},
        "cauldrons": {**IDS, "maxItems": 2, "description": "white's and black's first cauldron card"},
        "recipes": {**IDS, "maxItems": 13, "description": "the dealing order of the recipes"},
    },
    "title": "Arranged components",
    "description": "fixes the order of the random components (teaching, puzzles, replays)",
    "x-names": _names("Připravené rozložení", "Ułożone komponenty", "Arranged components"),
    "x-descriptions": _names(
        "Pevné pořadí karet a receptů místo zamíchání (výuka, hádanky, přehrávání partií).",
        "Ustalona kolejność kart i receptur zamiast tasowania (nauka, zagadki, powtórki partii).",
        "A fixed order of cards and recipes instead of a shuffle (teaching, puzzles, replays).",
    ),
    "x-form": False,
}

RECIPES_OPTION: Schema = {
    "type": "boolean",
    "default": False,
    "title": "Recipes (advanced game)",
    "description": "each player is dealt two secret recipes that score extra points",
    "x-names": _names("Recepty (pokročilá hra)", "Receptury (gra zaawansowana)", "Recipes (advanced game)"),
    "x-descriptions": _names(
        "Každý hráč dostane dva tajné recepty, které přinášejí body navíc.",
        "Każdy gracz dostaje dwie tajne receptury, które dają dodatkowe punkty.",
        "Each player is dealt two secret recipes that score extra points.",
    ),
}

DIRECTION_OPTION: Schema = {
    "enum": ["clockwise", "counterclockwise"],
    "default": "clockwise",
    "title": "Direction",
    "description": "the way both pawns walk around the square",
    "x-names": _names("Směr", "Kierunek", "Direction"),
    "x-descriptions": _names(
        "Kterým směrem obcházejí obě figurky čtverec karet.",
        "W którą stronę oba pionki obchodzą kwadrat kart.",
        "The way both pawns walk around the square of cards.",
    ),
    "x-value-names": {
        "clockwise": _names("po směru hodinových ručiček", "zgodnie z ruchem wskazówek zegara", "clockwise"),
        "counterclockwise": _names(
            "proti směru hodinových ručiček", "przeciwnie do ruchu wskazówek zegara", "counterclockwise"
        ),
    },
}

OPTIONS: Schema = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"recipes": RECIPES_OPTION, "direction": DIRECTION_OPTION, "arranged": ARRANGED},
}


def _command(kind: str, description: str, **fields: Schema) -> Schema:
    return {
        "type": "object",
        "description": description,
        "additionalProperties": False,
        "required": ["type", *fields],
        "properties": {"type": {"const": kind}, **fields},
    }


COMMANDS: dict[str, Schema] = {
    "move": _command(
        "move",
        "move your pawn; `steps` is always the value of your cauldron's top card",
        steps={"type": "integer", "minimum": 1, "maximum": 6},
    ),
    "take": _command("take", "take a card of the row or column beside your pawn", card=CARD),
    "explode": _command("explode", "the exploding cauldron: the opponent's top card goes under the deck"),
    "play_again": _command("play_again", "the wand and hat: play another turn after this one"),
    "decline": _command("decline", "use neither special action of the card you took"),
    "end": _command(
        "end",
        "you took the last card of a line: keep it in your cauldron or set it aside; the game ends",
        keep={"type": "boolean"},
    ),
}


def _event(kind: str, fields: dict[str, Schema], optional: tuple[str, ...] = ()) -> Schema:
    """An event as stored and as ``redact`` shows it: fields it hides are nullable or ``optional``."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["type", *(f for f in fields if f not in optional)],
        "properties": {"type": {"const": kind}, **fields},
    }


def _nullable(schema: Schema) -> Schema:
    return {**schema, "type": [schema["type"], "null"]}


NULLABLE_LINE: Schema = {**LINE, "enum": [*LINE["enum"], None], "description": "null beside a corner card"}
SPECIAL: Schema = {"enum": ["explode", "hat", None], "description": "the special action offered"}

GAME_OPTIONS: Schema = {
    **OPTIONS,
    "properties": {
        **OPTIONS["properties"],
        "arranged": {"anyOf": [ARRANGED, {"const": "hidden until the game is over"}]},
    },
}

EVENTS: dict[str, Schema] = {
    "GameStarted": _event(
        "GameStarted",
        {
            "options": GAME_OPTIONS,
            "seats": {"const": 2},
            "arranged": {"type": "boolean"},
            "direction": DIRECTION_OPTION,
            "recipes": {"type": "boolean"},
            "pawns": {"type": "array", "items": POSITION, "minItems": 2, "maxItems": 2},
        },
    ),
    "GridLaid": _event("GridLaid", {"grid": GRID}),
    "CauldronStarted": _event(
        "CauldronStarted",
        {
            "seat": SEAT,
            "card": HIDDEN_CARD,
            "refused": {"type": "array", "items": HIDDEN_CARD, "description": "sent under the deck"},
        },
    ),
    "DeckStacked": _event(
        "DeckStacked",
        {
            "deck": {"type": "array", "items": CARD, "description": "top first; once the game is over"},
            "count": {"type": "integer", "minimum": 0, "description": "the deck's size while it runs"},
        },
        optional=("deck", "count"),
    ),
    "RecipesDealt": _event(
        "RecipesDealt",
        {
            "seat": SEAT,
            "recipes": {"type": ["array", "null"], "items": CARD, "description": "null: another seat's"},
            "count": {"type": "integer", "minimum": 0},
        },
        optional=("count",),
    ),
    "PawnMoved": _event(
        "PawnMoved",
        {
            "seat": SEAT,
            "card": HIDDEN_CARD,
            "steps": {"type": ["integer", "null"], "minimum": 1, "maximum": 6},
            "from": _nullable(POSITION),
            "to": _nullable(POSITION),
            "jumped": {"type": ["boolean", "null"]},
            "line": NULLABLE_LINE,
        },
    ),
    "CardTaken": _event(
        "CardTaken",
        {
            "seat": SEAT,
            "card": HIDDEN_CARD,
            "line": NULLABLE_LINE,
            "row": _nullable(INDEX),
            "col": _nullable(INDEX),
            "last": {"type": "boolean", "description": "it emptied the line taken from: the game ends"},
            "special": SPECIAL,
        },
    ),
    "CauldronExploded": _event(
        "CauldronExploded",
        {"seat": SEAT, "victim": SEAT, "card": HIDDEN_CARD, "to": {"enum": ["deck", "removed"]}},
    ),
    "ExtraTurnGranted": _event("ExtraTurnGranted", {"seat": SEAT}),
    "SpecialDeclined": _event("SpecialDeclined", {"seat": SEAT, "card": HIDDEN_CARD, "special": SPECIAL}),
    "SpotRefilled": _event(
        "SpotRefilled", {"row": _nullable(INDEX), "col": _nullable(INDEX), "card": HIDDEN_CARD}
    ),
    "TurnEnded": _event(
        "TurnEnded",
        {
            "seat": SEAT,
            "next": SEAT,
            "extra": {"type": "boolean", "description": "the next turn is a wand-and-hat one"},
        },
    ),
    "CardKept": _event("CardKept", {"seat": SEAT, "card": CARD}),
    "CardSetAside": _event("CardSetAside", {"seat": SEAT, "card": CARD}),
    "GameEnded": _event(
        "GameEnded", {"by": {**_nullable(SEAT), "description": "null: no card was within reach"}}
    ),
}


def _object(required: list[str] | None = None, **fields: Schema) -> Schema:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": list(fields) if required is None else required,
        "properties": fields,
    }


VIEW: Schema = _object(
    required=[
        "seat",
        "colour",
        "phase",
        "to_move",
        "extra_turn",
        "direction",
        "advanced",
        "grid",
        "pawns",
        "deck",
        "cauldrons",
        "pending",
        "set_aside",
        "removed",
        "ended_by",
    ],
    seat={**SEAT, "type": ["integer", "null"], "description": "null: a spectator"},
    colour={"enum": ["white", "black", None]},
    phase={"enum": ["move", "take", "special", "done", "end", "over"]},
    to_move={"type": "array", "items": SEAT, "maxItems": 1},
    extra_turn={"type": "boolean"},
    direction={"enum": ["clockwise", "counterclockwise"]},
    advanced={"type": "boolean", "description": "the advanced game, with recipes"},
    grid=GRID,
    pawns={
        "type": "array",
        "minItems": 2,
        "maxItems": 2,
        "items": _object(seat=SEAT, colour=COLOUR, position=_nullable(POSITION), beside=NULLABLE_LINE),
        "description": "a replayed past table (`?at=`) of a running game has `position: null` for a "
        "pawn that has walked on since",
    },
    deck={"type": "integer", "minimum": 0, "description": "cards left in the deck"},
    cauldrons={
        "type": "array",
        "minItems": 2,
        "maxItems": 2,
        "items": _object(
            required=["seat", "colour", "count", "top"],
            seat=SEAT,
            colour=COLOUR,
            count={"type": "integer", "minimum": 0},
            top=HIDDEN_CARD,
            cards={"type": "array", "items": CARD, "description": "bottom first; once the game is over"},
        ),
        "description": "only the top card shows (the memory rule) until the game is over",
    },
    pending={**HIDDEN_CARD, "description": "the card a special action or the end decision is about"},
    set_aside={"type": "array", "items": HIDDEN_CARD, "description": "null: no longer shown (a replay)"},
    removed={"type": "integer", "minimum": 0, "description": "cards exploded out of the game"},
    ended_by={**SEAT, "type": ["integer", "null"]},
    recipes={
        "type": "array",
        "items": _object(
            seat=SEAT,
            count={"type": "integer", "minimum": 0},
            recipes={"type": ["array", "null"], "items": CARD, "description": "null: another seat's"},
        ),
        "description": "the advanced game only",
    },
    deck_cards={"type": "array", "items": CARD, "description": "once the game is over"},
    removed_cards={"type": "array", "items": CARD, "description": "once the game is over"},
)

SCHEMAS: dict[str, Any] = {"options": OPTIONS, "commands": COMMANDS, "events": EVENTS, "view": VIEW}
