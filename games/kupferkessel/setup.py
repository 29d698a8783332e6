"""Options, arrangements and the opening events of a game.

Setup follows the rulebook: the 56 cards are shuffled, the first 32 laid face up in reading order
into the 6×6 square without its corners, and each player (white first) draws the top card of the
rest as the first card of their cauldron, sending a black or white card face down to the bottom and
drawing again. In the advanced game each player is dealt two of the 13 recipes, secretly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.interface import Event, InvalidOptions
from games.kupferkessel.content import SEAT_COLOURS, START_POSITIONS, card_order, card_spots, cards, recipes
from games.rng import Rng
from games.toolkit import check_option_keys, option

DIRECTIONS = ("clockwise", "counterclockwise")
OPTION_KEYS = frozenset({"recipes", "direction", "arranged"})
ARRANGED_KEYS = frozenset({"deck", "cauldrons", "recipes"})
RECIPES_PER_PLAYER = 2


def validate_options(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """The options with their defaults, or :class:`InvalidOptions` naming what is wrong."""
    if seats != 2:
        raise InvalidOptions(f"Kupferkessel Co. is a game for exactly 2 players, not {seats}")
    check_option_keys(options, OPTION_KEYS)
    advanced = option(options, "recipes", False, bool, "recipes must be true (the advanced game) or false")
    direction = options.get("direction", "clockwise")
    if direction not in DIRECTIONS:
        raise InvalidOptions(f"direction must be one of {list(DIRECTIONS)}")
    if "arranged" in options:
        _validate_arranged(options["arranged"], advanced)
    return {"recipes": advanced, "direction": direction}


def _id_list(value: Any, what: str, known: Mapping[str, Any], limit: int) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise InvalidOptions(f"arranged {what} must be a list of ids")
    unknown = [x for x in value if x not in known]
    if unknown:
        raise InvalidOptions(f"arranged {what}: no such component {unknown[0]!r}")
    if len(set(value)) != len(value):
        raise InvalidOptions(f"arranged {what}: a component appears twice")
    if len(value) > limit:
        raise InvalidOptions(f"arranged {what}: at most {limit} ids")
    return list(value)


def _validate_arranged(arranged: Any, advanced: bool) -> None:
    """An arrangement must be a true arrangement of this game's own cards and recipes."""
    if not isinstance(arranged, Mapping):
        raise InvalidOptions("arranged must be an object with deck, cauldrons and (advanced game) recipes")
    unknown = sorted(set(arranged) - ARRANGED_KEYS)
    if unknown:
        raise InvalidOptions(f"arranged: unknown keys {unknown}; known: {sorted(ARRANGED_KEYS)}")
    firsts = _id_list(arranged.get("cauldrons", []), "cauldrons", cards(), 2)
    for card in firsts:
        if cards()[card]["colour"] in SEAT_COLOURS:
            raise InvalidOptions(f"arranged cauldrons: {card} is black or white and may not start a cauldron")
    deck = _id_list(arranged.get("deck", []), "deck", cards(), len(cards()))
    if set(deck) & set(firsts):
        raise InvalidOptions("arranged: a cauldron's first card cannot also be in the deck")
    if "recipes" in arranged:
        if not advanced:
            raise InvalidOptions("arranged recipes need the advanced game (recipes: true)")
        _id_list(arranged["recipes"], "recipes", recipes(), len(recipes()))


def _arranged_order(arranged: list[str], pool: list[str], rng: Rng) -> list[str]:
    """The arranged ids first, then the rest of ``pool`` shuffled by the seeded stream."""
    rest = [x for x in pool if x not in set(arranged)]
    return list(arranged) + rng.shuffle(rest)


def setup(options: Mapping[str, Any], seats: int, rng: Rng) -> list[Event]:
    """The opening events; the only place Kupferkessel draws random numbers."""
    settings = validate_options(options, seats)
    arranged: Mapping[str, Any] = options.get("arranged", {})
    firsts: list[str] = list(arranged.get("cauldrons", []))
    pool = [c for c in card_order() if c not in set(firsts)]
    deck = _arranged_order(list(arranged.get("deck", [])), pool, rng)
    grid: list[str | None] = [None] * 36
    for spot, card in zip(card_spots(), deck, strict=False):
        grid[spot] = card
    deck = deck[len(card_spots()) :]
    events: list[Event] = [
        {
            "type": "GameStarted",
            "options": dict(options),
            "seats": seats,
            "arranged": "arranged" in options,
            "direction": settings["direction"],
            "recipes": settings["recipes"],
            "pawns": list(START_POSITIONS),
        },
        {"type": "GridLaid", "grid": [grid[r * 6 : r * 6 + 6] for r in range(6)]},
    ]
    for seat in range(seats):
        refused: list[str] = []
        if seat < len(firsts):
            first = firsts[seat]
        else:
            while cards()[deck[0]]["colour"] in SEAT_COLOURS:
                refused.append(deck[0])
                deck = deck[1:] + deck[:1]
            first, deck = deck[0], deck[1:]
        events.append({"type": "CauldronStarted", "seat": seat, "card": first, "refused": refused})
    events.append({"type": "DeckStacked", "deck": deck})
    if settings["recipes"]:
        order = _arranged_order(list(arranged.get("recipes", [])), list(recipes()), rng)
        for seat in range(seats):
            dealt = order[seat * RECIPES_PER_PLAYER : (seat + 1) * RECIPES_PER_PLAYER]
            events.append({"type": "RecipesDealt", "seat": seat, "recipes": dealt})
    return events
