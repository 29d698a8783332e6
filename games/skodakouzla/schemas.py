"""Škoda kouzla described as JSON Schema: its options, commands, events and view.

Pure data in the format of ``games/README.md`` ("Schemas"); ``tests/games/test_schemas.py`` checks
every command ``legal_actions`` lists, every event ``setup``/``decide`` make (as stored and as
``redact`` shows them to each seat) and every view against it over seeded random games.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

SEAT: Schema = {"type": "integer", "minimum": 0, "maximum": 1}
COLOUR: Schema = {"enum": ["fire", "ice", "forest", "dark"]}
CARD_ID: Schema = {"type": "string", "minLength": 1, "description": "a card id of `GET /catalog/skodakouzla`"}
UID: Schema = {
    "type": "string",
    "pattern": "^(p[0-9]+\\.[0-9]+|s[0-9]+)$",
    "description": "one physical card in this game (`p<seat>.<n>` a starter card, `s<n>` a shop card); "
    "`GameStarted.cards` maps it to its card id",
}
UIDS: Schema = {"type": "array", "items": UID}
#: What an attack, heal or added life is aimed at: the opposing (or own) wizard, or a laid card.
TARGET: Schema = {"anyOf": [{"const": "wizard"}, UID]}
END: Schema = {"enum": ["left", "right"], "description": "an end of a row"}
COUNT: Schema = {"type": "integer", "minimum": 0}
INTEGER: Schema = {"type": "integer"}


def _names(cs: str, pl: str, en: str) -> dict[str, str]:
    return {"cs": cs, "pl": pl, "en": en}


def _option(schema: Schema, title: str, names: dict[str, str], descriptions: dict[str, str]) -> Schema:
    return {
        **schema,
        "title": title,
        "description": descriptions["en"],
        "x-names": names,
        "x-descriptions": descriptions,
    }


COLOUR_NAMES = {
    "fire": _names("oheň", "ogień", "fire"),
    "ice": _names("led", "lód", "ice"),
    "forest": _names("les", "las", "forest"),
    "dark": _names("temnota", "ciemność", "dark"),
}
TWO_COLOURS: Schema = {"type": "array", "items": COLOUR, "minItems": 2, "maxItems": 2, "uniqueItems": True}
MASTERS: Schema = {"type": "array", "items": COLOUR, "minItems": 2, "maxItems": 2}
ARRANGED: Schema = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "shop": {"type": "array", "items": CARD_ID, "description": "shop card ids, top first"},
        "decks": {
            "type": "array",
            "minItems": 2,
            "maxItems": 2,
            "items": {"type": "array", "items": CARD_ID},
            "description": "each seat's starter deck, top first (prefixes; the rest is shuffled)",
        },
    },
}

OPTIONS: Schema = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "income": _option(
            {"type": "integer", "minimum": 0, "maximum": 3, "default": 1},
            "Income",
            _names("Příjem", "Dochód", "Income"),
            _names(
                "Kolik magie dostane čaroděj na začátku každého tahu (0–3).",
                "Ile magii czarodziej dostaje na początku każdej tury (0–3).",
                "How much magic a wizard gets at the start of each turn (0–3).",
            ),
        ),
        "two_colours": _option(
            {"anyOf": [{"type": "boolean"}, TWO_COLOURS], "default": False, "x-value-names": COLOUR_NAMES},
            "Two colours",
            _names("Dvě barvy", "Dwa kolory", "Two colours"),
            _names(
                "V obchodě zůstanou jen neutrální karty a dvě barvy: true náhodné, nebo seznam dvou barev.",
                "W sklepie zostają tylko karty neutralne i dwa kolory: true losowe albo lista dwóch kolorów.",
                "Only neutral cards and two colours stay in the shop: true for random ones, or the two.",
            ),
        ),
        "masters": _option(
            {"anyOf": [{"type": "null"}, MASTERS], "default": None, "x-value-names": COLOUR_NAMES},
            "Duel of masters",
            _names("Souboj mistrů", "Pojedynek mistrzów", "Duel of masters"),
            _names(
                "Oba čarodějové začínají na 2. úrovni s 8 životy; barva čaroděje na místě 0 a 1.",
                "Obaj czarodzieje zaczynają na 2. poziomie z 8 życiami; kolor czarodzieja z miejsca 0 i 1.",
                "Both wizards start at level 2 with 8 lives; the colours of seat 0's and seat 1's wizard.",
            ),
        ),
        "shop_topdeck": _option(
            {"type": "boolean", "default": False},
            "Buy onto the deck",
            _names("Nákup na balíček", "Zakup na talię", "Buy onto the deck"),
            _names(
                "Kartu z obchodu lze za příplatek (+2 za hodnotu 3–4, +3 za 5–6) položit navrch balíčku.",
                "Kartę ze sklepu można za dopłatą (+2 za wartość 3–4, +3 za 5–6) położyć na wierzch talii.",
                "A shop card may be put on top of the deck for more (+2 for value 3–4, +3 for 5–6).",
            ),
        ),
        "other_freeze": _option(
            {"type": "boolean", "default": False},
            "The other freeze",
            _names("Jiné zmrazení", "Inne zamrożenie", "The other freeze"),
            _names(
                "Zmrazený čaroděj smí hrát útočná kouzla, ale nedostane příjem ani slevu 2. úrovně.",
                "Zamrożony czarodziej może rzucać zaklęcia ataku, ale traci dochód i zniżkę 2. poziomu.",
                "A frozen wizard may lay attack spells but gets no income and no level-2 discount.",
            ),
        ),
        "arranged": {
            **_option(
                {"anyOf": [{"type": "null"}, ARRANGED], "default": None},
                "Arranged components",
                _names("Připravené rozložení", "Ułożone komponenty", "Arranged components"),
                _names(
                    "Pevné pořadí obchodu a balíčků místo zamíchání (výuka, hádanky, přehrávání partií).",
                    "Ustalona kolejność sklepu i talii zamiast tasowania (nauka, zagadki, powtórki partii).",
                    "A fixed order of the shop and the decks, not a shuffle (teaching, puzzles, replays).",
                ),
            ),
            "x-form": False,
        },
    },
}


def _object(fields: dict[str, Schema], optional: tuple[str, ...] = ()) -> Schema:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": [f for f in fields if f not in optional],
        "properties": fields,
    }


def _command(
    kind: str, description: str, fields: dict[str, Schema], optional: tuple[str, ...] = ()
) -> Schema:
    return {**_object({"type": {"const": kind}, **fields}, optional), "description": description}


COMMANDS: dict[str, Schema] = {
    "resolve": _command(
        "resolve",
        "a pending creature acts: `option` is the index of its alternative; `from` for basic and "
        "two-in-a-row attacks, `target` for targeted ones and heals",
        {"card": UID, "option": {"type": "integer", "minimum": 0}, "from": END, "target": TARGET},
        optional=("from", "target"),
    ),
    "turn_into_magic": _command(
        "turn_into_magic", "discard a card of your hand for its printed value in magic", {"card": UID}
    ),
    "lay": _command(
        "lay",
        "lay a card of your hand: creatures and defences at an `end` of your row; `from` or "
        "`target` for attacks and effects",
        {"card": UID, "end": END, "from": END, "target": TARGET},
        optional=("end", "from", "target"),
    ),
    "buy": _command(
        "buy",
        "buy a card of the shop's offer; `top` puts it on your deck (the top-deck rule)",
        {"card": UID, "top": {"type": "boolean"}},
        optional=("top",),
    ),
    "swap_shop": _command(
        "swap_shop",
        "for 1 magic, exchange 1 or 2 cards of the offer (in offer order)",
        {"cards": {**UIDS, "minItems": 1, "maxItems": 2, "uniqueItems": True}},
    ),
    "store_magic": _command("store_magic", "move 1 magic onto a laid card that stores it", {"card": UID}),
    "remove_card": _command(
        "remove_card", "colour check: a card of your discard pile leaves the game", {"card": UID}
    ),
    "promote": _command(
        "promote", "colour check: your wizard reaches level 2 of this colour", {"colour": COLOUR}
    ),
    "end_phase": _command("end_phase", "end the main phase, or skip what is left of the colour check", {}),
}


def _event(kind: str, fields: dict[str, Schema], optional: tuple[str, ...] = ()) -> Schema:
    """An event as stored and as ``redact`` shows it: what it replaces is ``optional``."""
    return _object({"type": {"const": kind}, **fields}, optional)


COLOUR_CHECK: Schema = _object({"remove": {"type": "boolean"}, "promote": {"type": "array", "items": COLOUR}})
#: Options as the log and the view show them: an arrangement is only whether there was one.
SHOWN_OPTIONS: Schema = {
    **OPTIONS,
    "required": list(OPTIONS["properties"]),
    "properties": {
        **OPTIONS["properties"],
        "arranged": {"anyOf": [{"type": "null"}, {"type": "boolean"}, ARRANGED]},
    },
}
SEAT_AMOUNT: dict[str, Schema] = {"seat": SEAT, "amount": COUNT}
SEAT_CARD: dict[str, Schema] = {"seat": SEAT, "card": UID}
SEAT_CARDS: dict[str, Schema] = {"seat": SEAT, "cards": UIDS}
HIT: dict[str, Schema] = {"seat": SEAT, "target": TARGET, "amount": COUNT}

EVENTS: dict[str, Schema] = {
    "GameStarted": _event(
        "GameStarted",
        {
            "options": SHOWN_OPTIONS,
            "seats": {"const": 2},
            "arranged": {"type": "boolean"},
            "shop_colours": {"type": "array", "items": COLOUR},
            "cards": {"type": "object", "additionalProperties": CARD_ID, "description": "uid → card id"},
            "unused": {**UIDS, "description": "shop cards of colours out of this game"},
            "wizards": {
                "type": "array",
                "items": _object(
                    {"level": {"enum": [1, 2]}, "colour": {"enum": [*COLOUR["enum"], None]}, "life": COUNT}
                ),
            },
        },
    ),
    "DeckShuffled": _event(
        "DeckShuffled",
        {"seat": SEAT, "deck": {**UIDS, "description": "top first; once the game is over"}, "size": COUNT},
        optional=("deck", "size"),
    ),
    "ShopShuffled": _event(
        "ShopShuffled",
        {"deck": {**UIDS, "description": "top first; once the game is over"}, "size": COUNT},
        optional=("deck", "size"),
    ),
    "ShopRefilled": _event("ShopRefilled", {"cards": UIDS}),
    "CardsDrawn": _event(
        "CardsDrawn",
        {"seat": SEAT, "cards": {**UIDS, "description": "the drawing seat's own"}, "count": COUNT},
        optional=("cards", "count"),
    ),
    "TurnStarted": _event("TurnStarted", {"seat": SEAT, "turn": {"type": "integer", "minimum": 1}}),
    "PhaseStarted": _event(
        "PhaseStarted",
        {
            "phase": {"enum": ["effects", "main", "colour"]},
            "seat": SEAT,
            "pending": {**UIDS, "description": "the creatures that must act (effects phase)"},
            "colour": {**COLOUR_CHECK, "description": "the rewards of the colour check"},
        },
        optional=("pending", "colour"),
    ),
    "MagicGained": _event(
        "MagicGained",
        {
            **SEAT_AMOUNT,
            "source": {"type": ["string", "null"], "description": "`income`, the uid of a card, or null"},
        },
    ),
    "MagicReleased": _event("MagicReleased", {**SEAT_CARD, "amount": COUNT}),
    "MagicStored": _event("MagicStored", SEAT_CARD),
    "MagicDrained": _event("MagicDrained", {**SEAT_CARD, "amount": COUNT}),
    "CreatureActed": _event("CreatureActed", {**SEAT_CARD, "option": COUNT}),
    "FuryStarted": _event("FuryStarted", {"seat": SEAT, "pending": UIDS}),
    "CardTurnedIntoMagic": _event("CardTurnedIntoMagic", {**SEAT_CARD, "magic": COUNT}),
    "CardBought": _event("CardBought", {**SEAT_CARD, "price": COUNT, "top": {"type": "boolean"}}),
    "ShopSwapped": _event("ShopSwapped", {"seat": SEAT, "removed": UIDS}),
    "CardLaid": _event(
        "CardLaid",
        {**SEAT_CARD, "price": COUNT, "end": {**END, "description": "creatures and defences"}},
        optional=("end",),
    ),
    "Damaged": _event(
        "Damaged",
        {**HIT, "cause": {"const": "curses", "description": "the curse check"}},
        optional=("cause",),
    ),
    "CardDestroyed": _event(
        "CardDestroyed", {**SEAT_CARD, "magic": {**COUNT, "description": "stored magic lost with it"}}
    ),
    "Cursed": _event("Cursed", SEAT_AMOUNT),
    "CursesRemoved": _event("CursesRemoved", SEAT_AMOUNT),
    "Frozen": _event(
        "Frozen",
        {"seat": SEAT, "target": TARGET, "until": {**COUNT, "description": "the turn at whose end it thaws"}},
    ),
    "Thawed": _event("Thawed", {"seat": SEAT, "targets": {"type": "array", "items": TARGET}}),
    "Healed": _event("Healed", HIT),
    "LifeAdded": _event("LifeAdded", HIT),
    "HandDiscarded": _event("HandDiscarded", SEAT_CARDS),
    "MagicReturned": _event("MagicReturned", SEAT_AMOUNT),
    "CardRemoved": _event("CardRemoved", SEAT_CARD),
    "WizardPromoted": _event("WizardPromoted", {"seat": SEAT, "colour": COLOUR, "life": COUNT}),
    "SpellsDiscarded": _event("SpellsDiscarded", SEAT_CARDS),
    "TurnEnded": _event("TurnEnded", {"seat": SEAT}),
    "GameEnded": _event("GameEnded", {"winner": SEAT, "loser": SEAT}),
}

SHOWN_CARD: Schema = _object({"uid": UID, "card": CARD_ID})
SHOWN_CARDS: Schema = {"type": "array", "items": SHOWN_CARD}
ROW_CARD: Schema = _object(
    {
        "uid": UID,
        "card": CARD_ID,
        "life": INTEGER,
        "frozen": {"type": "boolean"},
        "frozen_until": {**COUNT, "description": "the turn at whose end it thaws; 0: not frozen"},
        "magic": {**COUNT, "description": "magic stored on it"},
        "new": {"type": "boolean", "description": "laid this turn"},
    }
)
PLAYER: Schema = _object(
    {
        "seat": SEAT,
        "life": INTEGER,
        "max_life": COUNT,
        "level": {"enum": [1, 2]},
        "colour": {**COLOUR, "enum": [*COLOUR["enum"], None], "description": "a level-2 wizard's colour"},
        "curses": COUNT,
        "frozen": {"type": "boolean"},
        "frozen_until": COUNT,
        "magic": INTEGER,
        "hand": {**SHOWN_CARDS, "type": ["array", "null"], "description": "null: another seat's hand"},
        "hand_size": COUNT,
        "deck_size": COUNT,
        "discard": SHOWN_CARDS,
        "laid_spells": {
            **SHOWN_CARDS,
            "description": "coloured spells laid this turn, until the colour check",
        },
        "removed": {**SHOWN_CARDS, "description": "out of the game"},
        "row": {"type": "array", "items": ROW_CARD, "description": "creatures and defences, left to right"},
    }
)

VIEW: Schema = _object(
    {
        "seat": {**SEAT, "type": ["integer", "null"], "description": "null: a spectator"},
        "turn": COUNT,
        "active": SEAT,
        "phase": {"enum": ["setup", "start", "effects", "main", "colour", "end", "over"]},
        "pending": {**UIDS, "description": "creatures that must still act"},
        "colour_check": {"anyOf": [{"type": "null"}, COLOUR_CHECK]},
        "purchases": {**COUNT, "description": "cards bought this turn"},
        "options": SHOWN_OPTIONS,
        "shop_colours": {"type": "array", "items": COLOUR},
        "winner": {**SEAT, "type": ["integer", "null"]},
        "players": {"type": "array", "minItems": 2, "maxItems": 2, "items": PLAYER},
        "shop": _object({"offer": SHOWN_CARDS, "deck_size": COUNT, "removed": SHOWN_CARDS}),
    }
)

SCHEMAS: dict[str, Any] = {"options": OPTIONS, "commands": COMMANDS, "events": EVENTS, "view": VIEW}
