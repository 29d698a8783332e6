"""The components of Kupferkessel Co. and the geometry of the table, read once from ``seeds/kupferkessel/``.

The 56 ingredient cards and 13 recipes are data in ``seeds/kupferkessel/``. The table is a 6×6
square of cards whose four corners are corner cards; the pawns walk around the outside on 20
positions: one per corner card and one beside each of the rows and columns 1–4.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from games.content import load_content
from games.interface import GameInfo

INFO = GameInfo(
    id="kupferkessel",
    name="Kupferkessel Co.",
    min_seats=2,
    max_seats=2,
    rules_version=1,
    names={"cs": "Čarodějnický kotlík", "pl": "Czarodziejski kociołek", "en": "Kupferkessel Co."},
)
GAME_ID = INFO.id
SIZE = 6
#: The players' colours by seat: white (seat 0) starts.
SEAT_COLOURS = ("white", "black")
#: Positions 0..19 clockwise from the top-left corner card; white starts at 0, black at the opposite corner.
START_POSITIONS = (0, 10)
POSITIONS = 20
CORNER_SPOTS = frozenset({0, SIZE - 1, SIZE * (SIZE - 1), SIZE * SIZE - 1})
#: The rows and columns a pawn takes from; the edge rows and columns are reached through them.
LINES = tuple(f"{kind}{i}" for kind in ("row", "col") for i in range(1, SIZE - 1))


@cache
def cards() -> dict[str, dict[str, Any]]:
    """The 56 ingredient cards by id, in the order of the content file."""
    return {card["id"]: card for card in load_content(GAME_ID, "cards")}


@cache
def card_order() -> tuple[str, ...]:
    return tuple(cards())


@cache
def recipes() -> dict[str, dict[str, Any]]:
    """The 13 recipes of the advanced game by id."""
    return {recipe["id"]: recipe for recipe in load_content(GAME_ID, "recipes")}


@cache
def ingredients() -> dict[str, dict[str, Any]]:
    return {ing["id"]: ing for ing in load_content(GAME_ID, "ingredients")["ingredients"]}


@cache
def _position_lines() -> tuple[str | None, ...]:
    """The line beside each position (``None`` at a corner card), clockwise from the top-left corner."""
    top = [f"col{c}" for c in range(1, 5)]
    right = [f"row{r}" for r in range(1, 5)]
    bottom = [f"col{c}" for c in range(4, 0, -1)]
    left = [f"row{r}" for r in range(4, 0, -1)]
    out: list[str | None] = []
    for side in (top, right, bottom, left):
        out.append(None)
        out.extend(side)
    return tuple(out)


def line_at(position: int) -> str | None:
    """The row or column a pawn at ``position`` takes from, ``None`` beside a corner card."""
    return _position_lines()[position]


@cache
def line_spots(line: str) -> tuple[int, ...]:
    """The six grid spots (``row * 6 + col``) of a row or column 1–4."""
    index = int(line[3:])
    if line.startswith("row"):
        return tuple(index * SIZE + c for c in range(SIZE))
    return tuple(r * SIZE + index for r in range(SIZE))


def has_cards(grid: list[str | None], line: str) -> bool:
    """Whether a row or column still holds a card: beside an emptied one a pawn takes nothing."""
    return any(grid[s] is not None for s in line_spots(line))


@cache
def card_spots() -> tuple[int, ...]:
    """The 32 spots of ingredient cards, in reading order (the order they are laid out at setup)."""
    return tuple(s for s in range(SIZE * SIZE) if s not in CORNER_SPOTS)


def catalog() -> dict[str, Any]:
    """The cards, ingredients, colours, symbols and recipes, each with ``names`` in cs/pl/en; a
    copy, so a caller cannot change the cached content."""
    table = load_content(GAME_ID, "ingredients")
    return copy.deepcopy(
        {
            "game": INFO.id,
            "names": dict(INFO.names),
            "colours": table["colours"],
            "symbols": table["symbols"],
            "ingredients": list(ingredients().values()),
            "cards": [cards()[c] for c in card_order()],
            "recipes": list(recipes().values()),
        }
    )
