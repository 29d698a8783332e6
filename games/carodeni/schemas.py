"""Čarodění described as JSON Schema: its options, commands, events and view.

Pure data in the format of ``games/README.md`` ("Schemas"); ``tests/games/test_schemas.py`` checks
every command ``legal_actions`` lists, every event ``setup``/``decide`` make (as stored and as
``redact`` shows them to each seat) and every view against it over seeded random games. Card,
token and goal ids are those of ``GET /catalog/carodeni``.
"""

from __future__ import annotations

from typing import Any

from games.carodeni import content

Schema = dict[str, Any]

SEAT: Schema = {"type": "integer", "minimum": 0, "maximum": 4}
SEATS: Schema = {"type": "array", "items": SEAT, "maxItems": 5}
COUNT: Schema = {"type": "integer", "minimum": 0}
LOCATION: Schema = {"enum": list(content.LOCATIONS), "description": "a row of the board, top to bottom"}
KIND: Schema = {"enum": list(content.kinds()), "description": "an ingredient kind"}
TOOL: Schema = {"enum": list(content.tools())}
ANIMAL: Schema = {"enum": list(content.animals())}
WITCH: Schema = {"type": "string", "pattern": "^W[0-9]{2}$", "description": "a witch card"}
#: A card a player plays: a witch or one of the novices every seat starts with.
PLAYABLE: Schema = {"type": "string", "pattern": "^(W[0-9]{2}|N[1-5][ab])$", "description": "witch or novice"}
POTION: Schema = {"type": "string", "pattern": "^P[0-9]{2}$", "description": "a potion card"}
#: A potion a player holds: a potion card or a starting potion.
ANY_POTION: Schema = {"type": "string", "pattern": "^(P[0-9]{2}|S[1-5])$", "description": "any potion"}
GOAL: Schema = {"type": "string", "pattern": "^G[0-9]{2}$", "description": "a goal token"}
SIDE: Schema = {"enum": ["easy", "hard"]}
OSTARA_TOKEN: Schema = {"type": "string", "pattern": "^O[1-9]$", "description": "one of Ostara's tokens"}
ITEM: Schema = {"enum": ["ingredient", "potion", "tool", "witch", "animal"]}
#: How one requirement of a potion is paid: as printed, with a tool, or with a pair of one kind.
PAYMENT: Schema = {
    "type": "array",
    "items": {"enum": [*content.kinds(), *content.tools(), *(f"pair:{k}" for k in content.kinds())]},
    "minItems": 1,
    "description": "one entry per requirement, in order: the ingredient, a tool id, or `pair:<kind>`",
}
DIFFICULTIES = ["novice", "experienced", "grandmaster"]
END_REASON: Schema = {"enum": ["fifteen_rounds", "goals", "witches_deck_ran_out", "potions_deck_ran_out"]}


def _names(cs: str, pl: str, en: str) -> dict[str, str]:
    return {"cs": cs, "pl": pl, "en": en}


def _option(schema: Schema, title: str, names: dict[str, str], descriptions: dict[str, str]) -> Schema:
    return {**schema, "title": title, "description": descriptions["en"], "x-names": names,
            "x-descriptions": descriptions}  # fmt: skip


def _object(required: list[str] | None = None, **fields: Schema) -> Schema:
    return _record(fields, required)


def _record(fields: dict[str, Schema], required: list[str] | None = None) -> Schema:
    """An object of exactly these fields, all of them required unless ``required`` says which
    (an empty list is left out: OpenAPI 3.0 wants at least one)."""
    required = list(fields) if required is None else required
    out: Schema = {"type": "object", "additionalProperties": False, "properties": fields}
    return {**out, "required": required} if required else out


def _ids(item: Schema, description: str, most: int) -> Schema:
    return {"type": "array", "items": item, "uniqueItems": True, "maxItems": most, "description": description}


ARRANGED: Schema = {
    **_object(
        required=[],
        witch_deck=_ids(WITCH, "the top of the witch deck, in order (the first three are laid out)", 50),
        potion_deck=_ids(POTION, "the top of the potion deck, in order (the first three are laid out)", 50),
        goals={
            "type": "array",
            "items": _object(token=GOAL, side=SIDE),
            "uniqueItems": True,
            "description": "the whole goal row, with this game's counts of easy and hard goals",
        },
        bag={"type": "array", "items": KIND, "description": "ingredient kinds in draw order"},
        ostara_tokens={
            "type": "array",
            "maxItems": 3,
            "items": _ids(OSTARA_TOKEN, "the top of her pile in one stage", 9),
            "description": "solo: the top of Ostara's token pile in each stage",
        },
        ostara_starting_potion={"enum": ["S1", "S3", "S4", "S5"], "description": "solo: Ostara's"},
    ),
    "title": "Arranged components",
    "description": "fixes the order of the random components (teaching, puzzles, replays)",
    "x-names": _names("Připravené rozložení", "Ułożone komponenty", "Arranged components"),
    "x-descriptions": _names(
        "Pevné pořadí karet, cílů a surovin místo zamíchání (výuka, hádanky, přehrávání partií).",
        "Ustalona kolejność kart, celów i składników zamiast tasowania (nauka, zagadki, powtórki).",
        "A fixed order of cards, goals and ingredients instead of a shuffle (teaching, puzzles, replays).",
    ),
    "x-form": False,
}

OPTIONS: Schema = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "solo": _option(
            # x-seats: the seats a game with this option on has (a "new game" form fills them in)
            {"type": "boolean", "default": False, "x-seats": [{}, {"bot": "ostara", "name": "Ostara"}]},
            "Solo against Ostara",
            _names("Sólo proti Ostaře", "Gra solo przeciw Ostarze", "Solo against Ostara"),
            _names(
                "Hra jednoho hráče (místo 0) proti automatu Ostara (místo 1, bot ostara), 15 kol.",
                "Gra jednoosobowa (miejsce 0) przeciw automatowi Ostara (miejsce 1, bot ostara), 15 rund.",
                "One player (seat 0) against the Ostara automaton (seat 1, bot ostara), 15 rounds.",
            ),
        ),
        "difficulty": _option(
            {
                "enum": DIFFICULTIES,
                "default": "novice",
                "x-value-names": {
                    "novice": _names("Nová učednice", "Młoda nowicjuszka", "Novice"),
                    "experienced": _names("Zkušená čarodějka", "Doświadczona wiedźma", "Experienced witch"),
                    "grandmaster": _names("Velmistryně klanu", "Wielka mistrzyni klanu", "Clan grandmaster"),
                },
            },
            "Difficulty (solo)",
            _names("Obtížnost (sólo)", "Poziom trudności (solo)", "Difficulty (solo)"),
            _names(
                "Jak silná je Ostara; jen ve hře sólo (hra více hráčů bere jen výchozí).",
                "Jak silna jest Ostara; tylko w grze solo (gra wieloosobowa przyjmuje tylko domyślny).",
                "How strong Ostara is; solo only (a game of more players takes only the default).",
            ),
        ),  # fmt: skip
        "animals": _option(
            {"type": "boolean", "default": False},
            "Animals (variant)",
            _names("Zvířata (varianta)", "Zwierzęta (wariant)", "Animals (variant)"),
            _names(
                "Zvířata na rubu čarodějek lze brát a ochočit; dva žetony Ostary navíc.",
                "Zwierzęta z rewersów wiedźm można brać i oswajać; dwa dodatkowe żetony Ostary.",
                "The animals on the witches' backs can be taken and tamed; two more Ostara tokens.",
            ),
        ),
        "animal_goals": _option(
            {"type": "integer", "minimum": 0, "maximum": 2, "default": 0},
            "Animal goals",
            _names("Cíle se zvířaty", "Cele ze zwierzętami", "Animal goals"),
            _names(
                "Kolik cílů se zvířaty přidat do řady cílů (0–2, jen se zvířaty).",
                "Ile celów ze zwierzętami dodać do rzędu celów (0–2, tylko ze zwierzętami).",
                "How many animal goals join the goal row (0–2, with the animal variant only).",
            ),
        ),
        "extra_hard_goal": _option(
            {"type": "boolean", "default": False},
            "One more hard goal",
            _names("Jeden těžký cíl navíc", "Jeden trudny cel więcej", "One more hard goal"),
            _names(
                "Do řady cílů přibude ještě jeden cíl těžkou stranou nahoru.",
                "Do rzędu celów dochodzi jeszcze jeden cel trudną stroną do góry.",
                "One more goal joins the row, hard side up.",
            ),
        ),
        "arranged": ARRANGED,
    },
}


def _command(name: str, description: str, /, optional: tuple[str, ...] = (), **fields: Schema) -> Schema:
    return {
        "type": "object",
        "description": description,
        "additionalProperties": False,
        "required": ["type", *(f for f in fields if f not in optional)],
        "properties": {"type": {"const": name}, **fields},
    }


COMMANDS: dict[str, Schema] = {
    "play": _command("play", "start a turn: a witch or novice from your hand becomes active", witch=PLAYABLE),
    "rest": _command("rest", "start a turn by resting: played witches back to hand, then two ingredients"),
    "refresh": _command(
        "refresh",
        "the refresh symbol, before the first take: three witches, three potions, one location's "
        "ingredients, or `none` where nothing is left to take",
        optional=("location",),
        target={"enum": ["witches", "potions", "ingredients", "none"]},
        location={**LOCATION, "description": "with `ingredients` only"},
    ),
    "take": _command(
        "take",
        "take an item at the location whose action points are spent (resting: any location)",
        optional=("slot",),
        item=ITEM,
        location=LOCATION,
        slot={"type": "integer", "minimum": 0, "maximum": 2, "description": "with `ingredient` only"},
    ),
    "brew": _command(
        "brew", "brew one of your potions with the active witch", potion=ANY_POTION, payment=PAYMENT
    ),
    "tame": _command("tame", "tame an animal beside your clan card, paying its ingredient", animal=WITCH),
    "end_turn": _command("end_turn", "end the turn without brewing or taming"),
    "ostara_turn": _command("ostara_turn", "Ostara's seat only: her whole automaton turn"),
}


def _event(name: str, /, optional: tuple[str, ...] = (), **fields: Schema) -> Schema:
    """An event as stored and as ``redact`` shows it: fields it may leave out are ``optional``."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["type", *(f for f in fields if f not in optional)],
        "properties": {"type": {"const": name}, **fields},
    }


def _hidden(schema: Schema, description: str) -> Schema:
    """A list ``redact`` replaces by its length for every seat."""
    return {"anyOf": [schema, COUNT], "description": description}


def _nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


SLOT: Schema = {"type": "integer", "minimum": 0, "maximum": 2}
KIND_OR_NONE: Schema = {**KIND, "enum": [*KIND["enum"], None]}
BOARD_ROW: Schema = _object(
    ingredients={"type": "array", "minItems": 3, "maxItems": 3, "items": KIND_OR_NONE},
    potion=_nullable(POTION),
    witch=_nullable(WITCH),
)

EVENTS: dict[str, Schema] = {
    "GameStarted": _event(
        "GameStarted",
        options={**OPTIONS, "description": "as given; `arranged` is hidden while the game runs"},
        seats={"type": "integer", "minimum": 2, "maximum": 5},
        arranged={"type": "boolean"},
        solo={"type": "boolean"},
        difficulty={"enum": [*DIFFICULTIES, None], "description": "null: not a solo game"},
        animals={"type": "boolean"},
        order={**SEATS, "description": "turn order"},
        ostara={"enum": [1, None], "description": "Ostara's seat in the solo game"},
        witch_deck=_hidden({"type": "array", "items": WITCH}, "the deck top first; a count while it runs"),
        potion_deck=_hidden({"type": "array", "items": POTION}, "the deck top first; a count while it runs"),
        witch_aside=_hidden({"type": "array", "items": WITCH}, "set aside (3+ players); a count"),
        potion_aside=_hidden({"type": "array", "items": POTION}, "set aside (3+ players); a count"),
        bag_plan=_hidden({"type": "array", "items": KIND}, "the arranged bag; a count"),
        board={"type": "array", "minItems": 3, "maxItems": 3, "items": BOARD_ROW},
        players={
            "type": "array",
            "items": _object(
                hand=_hidden({"type": "array", "items": PLAYABLE}, "the seat's own; a count for others"),
                potions={"type": "array", "items": ANY_POTION},
            ),
        },
        goals={"type": "array", "items": _object(token=GOAL, side=SIDE)},
        ostara_tokens={"type": "array", "items": OSTARA_TOKEN},
        ostara_plan={
            "type": "array",
            "items": {"type": "array", "items": OSTARA_TOKEN},
            "description": "arranged token order per stage; empty while the game runs",
        },
    ),
    "WitchPlayed": _event("WitchPlayed", seat=SEAT, witch=PLAYABLE),
    "OfferRefreshed": _event(
        "OfferRefreshed",
        optional=("location",),
        seat=SEAT,
        target={"enum": ["witches", "potions", "ingredients"]},
        location=LOCATION,
        returned={"type": "array", "items": {"type": ["string", "null"]}, "maxItems": 3},
        drawn={"type": "array", "items": {"type": ["string", "null"]}, "maxItems": 3},
    ),
    "ItemTaken": _event(
        "ItemTaken",
        optional=("slot", "kind", "card", "tool", "animal"),
        seat=SEAT,
        item=ITEM,
        location=LOCATION,
        slot=SLOT,
        kind=KIND,
        card={"type": ["string", "null"], "description": "null: a witch taken into another seat's hand"},
        tool={**TOOL, "description": "the tool on the potion card's back"},
        animal={**ANIMAL, "description": "the animal on the witch card's back"},
    ),
    "SlotRefilled": _event(
        "SlotRefilled",
        optional=("slot", "kind", "card"),
        location=LOCATION,
        item={"enum": ["ingredient", "potion", "witch"]},
        slot=SLOT,
        kind={**KIND, "enum": [*KIND["enum"], None], "description": "null: the bag is empty"},
        card={"type": ["string", "null"], "description": "null: the deck is empty"},
    ),
    "DeckRanOut": _event(
        "DeckRanOut",
        deck={"enum": ["witches", "potions"]},
        aside=_hidden({"type": "array", "items": {"type": "string"}}, "the cards set aside, now the deck"),
    ),
    "EndTriggered": _event("EndTriggered", reason=END_REASON, last_round=COUNT),
    "ActionPointsForfeited": _event("ActionPointsForfeited", seat=SEAT, location=LOCATION),
    "Rested": _event(
        "Rested",
        seat=SEAT,
        witches=_hidden({"type": "array", "items": PLAYABLE}, "back to hand; a count for other seats"),
    ),
    "PotionBrewed": _event(
        "PotionBrewed",
        optional=("reason",),
        seat=SEAT,
        potion=ANY_POTION,
        witch=PLAYABLE,
        payment=PAYMENT,
        spent={"type": "object", "additionalProperties": COUNT, "description": "ingredient kind → how many"},
        tools_to_clan={"type": "array", "items": POTION, "description": "tool cards moved into the clan"},
        reason={"type": "string", "description": "Ostara's: why this potion"},
    ),
    "AnimalTamed": _event("AnimalTamed", seat=SEAT, card=WITCH, animal=ANIMAL, paid=KIND),
    "GoalClaimed": _event(
        "GoalClaimed",
        optional=("reason",),
        seat=SEAT,
        goal={**COUNT, "description": "the index in the goal row"},
        token=GOAL,
        side=SIDE,
        points=COUNT,
        reason={"const": "unclaimed_at_end", "description": "grandmaster: Ostara gets it at the end"},
    ),
    "TurnEnded": _event("TurnEnded", seat=SEAT, round=COUNT),
    "GameEnded": _event("GameEnded", reason=END_REASON),
    "OstaraTokensShuffled": _event(
        "OstaraTokensShuffled",
        stage={"type": "integer", "minimum": 0, "maximum": 2},
        order=_hidden({"type": "array", "items": OSTARA_TOKEN}, "her pile for the stage; a count"),
    ),
    "OstaraTokenDrawn": _event("OstaraTokenDrawn", seat=SEAT, token=OSTARA_TOKEN),
    "OstaraChose": _event(
        "OstaraChose",
        optional=("location", "slot"),
        seat=SEAT,
        step={"enum": ["witch", "potion", "witch|potion", "potion|witch", "ingredient", "animal"]},
        choice={"type": ["string", "null"], "description": "a card, a kind, an animal, or null: nothing"},
        location=LOCATION,
        slot=SLOT,
        reason={"type": "string", "description": "why, in words"},
    ),
}

CARDS: Schema = {"type": "array", "items": {"type": "string"}}
PLAYER: Schema = _object(
    required=[
        "seat",
        "played",
        "potions",
        "tools",
        "animals",
        "clan_witches",
        "clan_potions",
        "clan_tools",
        "clan_animals",
        "goals",
        "ingredients",
        "hand_count",
    ],
    seat=SEAT,
    played={"type": "array", "items": PLAYABLE, "description": "played witches, the active one last"},
    potions={"type": "array", "items": ANY_POTION, "description": "unbrewed potions"},
    tools={"type": "array", "items": POTION, "description": "tool cards beside the clan card"},
    animals={"type": "array", "items": WITCH, "description": "animal cards beside the clan card"},
    clan_witches={"type": "array", "items": PLAYABLE},
    clan_potions={"type": "array", "items": ANY_POTION},
    clan_tools={"type": "array", "items": POTION},
    clan_animals={"type": "array", "items": WITCH},
    goals={"type": "array", "items": COUNT, "description": "indices of the goals claimed"},
    ingredients=_record(dict.fromkeys(content.kinds(), COUNT)),
    hand_count=COUNT,
    hand={"type": "array", "items": PLAYABLE, "description": "the viewer's own seat only"},
)

VIEW: Schema = _object(
    required=[
        "seat",
        "seats",
        "solo",
        "difficulty",
        "animals",
        "order",
        "ostara",
        "board",
        "witch_deck",
        "potion_deck",
        "set_aside",
        "bag",
        "goals",
        "players",
        "turn",
        "round",
        "end_round",
        "end_reason",
        "over",
    ],
    seat={"type": ["integer", "null"], "minimum": 0, "maximum": 4, "description": "null: a spectator"},
    seats={"type": "integer", "minimum": 2, "maximum": 5},
    solo={"type": "boolean"},
    difficulty={"enum": [*DIFFICULTIES, None]},
    animals={"type": "boolean"},
    order=SEATS,
    ostara={"enum": [1, None]},
    board={
        "type": "array",
        "minItems": 3,
        "maxItems": 3,
        "items": {
            **BOARD_ROW,
            "required": [*BOARD_ROW["required"], "location"],
            "properties": {**BOARD_ROW["properties"], "location": LOCATION},
        },
    },  # fmt: skip
    witch_deck={**COUNT, "description": "cards left"},
    potion_deck={**COUNT, "description": "cards left"},
    set_aside=_object(witches=COUNT, potions=COUNT),
    bag={**COUNT, "description": "ingredients left in the bag"},
    goals={
        "type": "array",
        "items": _object(
            token=GOAL,
            side=SIDE,
            claimed_by={**SEAT, "type": ["integer", "null"]},
            kind={"enum": ["witches", "potions", "tools", "animals"]},
            points=COUNT,
        ),
    },
    players={"type": "array", "items": PLAYER},
    turn=_object(
        index={**COUNT, "description": "the position in `order`"},
        phase={
            "enum": ["start", "collect", "rest", "brew", "done", "ostara"],
            "description": "`ostara`: the solo game's Ostara is playing",
        },
        witch={**PLAYABLE, "type": ["string", "null"]},
        ap={"type": "array", "minItems": 3, "maxItems": 3, "items": COUNT, "description": "per location"},
        refresh={"type": "boolean", "description": "a refresh may still be made"},
        taken=COUNT,
        picks=COUNT,
        seat={**SEAT, "type": ["integer", "null"]},
    ),
    round=COUNT,
    end_round={"type": ["integer", "null"], "minimum": 0},
    end_reason={**END_REASON, "enum": [*END_REASON["enum"], None]},
    over={"type": "boolean"},
    ostara_tokens=_object(
        stage={"type": "integer", "minimum": -1, "maximum": 2},
        token={**OSTARA_TOKEN, "type": ["string", "null"]},
        left_in_stage=COUNT,
    ),
)

SCHEMAS: dict[str, Any] = {"options": OPTIONS, "commands": COMMANDS, "events": EVENTS, "view": VIEW}
