"""Final scoring: the rulebook's table, plus the recipes of the advanced game.

Per ingredient a player scores by how many of its four cards they hold: one card costs its value,
two score nothing, three score their sum, all four their sum plus a bonus of 5. Cards of the
player's own colour count double (the bonus of 5 does not). Whoever holds more value-1 cards gets 5
(nobody on a tie). Recipes add their points when fulfilled; "fewer than the opponent" is strict.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from games.interface import Score, State
from games.kupferkessel.content import SEAT_COLOURS, cards, ingredients, recipes

ONES_BONUS = 5
QUADRUPLE_BONUS = 5
PARTS = ("ones_bonus", "singles", "pairs", "triples", "quadruples", "quadruple_bonus", "recipes")


def _by_ingredient(cauldron: Sequence[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = defaultdict(list)
    for card in cauldron:
        out[cards()[card]["ingredient"]].append(cards()[card]["value"])
    return out


def collection_points(cauldron: Sequence[str], colour: str) -> dict[str, int]:
    """The points of one cauldron's sets, before the value-1 bonus and recipes."""
    parts = {"singles": 0, "pairs": 0, "triples": 0, "quadruples": 0, "quadruple_bonus": 0}
    for ingredient, values in _by_ingredient(cauldron).items():
        factor = 2 if ingredients()[ingredient]["colour"] == colour else 1
        total = factor * sum(values)
        if len(values) == 1:
            parts["singles"] -= total
        elif len(values) == 3:
            parts["triples"] += total
        elif len(values) == 4:
            parts["quadruples"] += total
            parts["quadruple_bonus"] += QUADRUPLE_BONUS
    return parts


def ones_bonus(cauldrons: Sequence[Sequence[str]], seat: int) -> int:
    """5 to the player with strictly more value-1 cards."""
    ones = [sum(1 for c in cauldron if cards()[c]["value"] == 1) for cauldron in cauldrons]
    return ONES_BONUS if ones[seat] > ones[1 - seat] else 0


def _count(cauldron: Sequence[str], field: str, value: Any) -> int:
    return sum(1 for c in cauldron if cards()[c][field] == value)


def _of_colour(colour: str) -> list[str]:
    return [i for i, ing in ingredients().items() if ing["colour"] == colour]


def recipe_met(recipe_id: str, cauldrons: Sequence[Sequence[str]], seat: int, ended_by: int | None) -> bool:
    """Whether ``seat`` fulfils a recipe at the end of the game."""
    recipe = recipes()[recipe_id]
    mine, theirs = cauldrons[seat], cauldrons[1 - seat]
    sizes = {i: len(values) for i, values in _by_ingredient(mine).items()}
    kind = recipe["kind"]
    if kind == "colour_pair":
        return all(sizes.get(i, 0) >= 3 for i in _of_colour(recipe["colour"]))
    if kind == "colour_three":
        return any(sizes.get(i, 0) >= 3 for i in _of_colour(recipe["colour"]))
    if kind == "last_card":
        return ended_by == seat
    if kind == "plants":
        plants = [i for i, g in ingredients().items() if g["plant"] and sizes.get(i, 0) >= recipe["cards"]]
        return len(plants) >= recipe["ingredients"]
    if kind == "fewer_symbol":
        return _count(mine, "symbol", recipe["symbol"]) < _count(theirs, "symbol", recipe["symbol"])
    if kind == "fewer_cards":
        return len(mine) < len(theirs)
    if kind == "fewer_value":
        return _count(mine, "value", recipe["value"]) < _count(theirs, "value", recipe["value"])
    raise ValueError(f"unknown recipe kind {kind!r}")


def breakdown(state: State, seat: int) -> dict[str, int]:
    cauldrons = state["cauldrons"]
    parts = collection_points(cauldrons[seat], SEAT_COLOURS[seat])
    parts["ones_bonus"] = ones_bonus(cauldrons, seat)
    met = [r for r in state["recipes"][seat] if recipe_met(r, cauldrons, seat, state["ended_by"])]
    parts["recipes"] = sum(recipes()[r]["points"] for r in met)
    return {part: parts[part] for part in PARTS}


def score(state: State) -> Score:
    """Totals with their breakdowns; every player with the highest total wins (no tie-break is given)."""
    seats: list[dict[str, Any]] = []
    for seat in range(2):
        parts = breakdown(state, seat)
        seats.append({"seat": seat, "total": sum(parts.values()), "breakdown": parts})
    best = max(s["total"] for s in seats)
    return {"seats": seats, "winners": [s["seat"] for s in seats if s["total"] == best]}
