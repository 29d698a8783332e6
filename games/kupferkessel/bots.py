"""Bots: ``random``, the greedy ``default`` and ``strong``, the search of :mod:`games.search` over
what the seat may see (``search.py`` here lends it what it needs).

A bot sees only its seat's view, and the view keeps the memory rule: it shows no cauldron below its
top card. So ``default`` does not remember what it holds; it estimates it. Every card that is not
face up is in a cauldron, the deck or out of the game, in proportion to their sizes, and ``default``
takes the card with the best expected gain on the scoring table under that estimate, nudged by its
own recipes. Because it keeps preferring the ingredients it probably holds, its estimate and its
collection stay aligned.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from math import comb
from typing import Any

from games.interface import Command
from games.kupferkessel.content import cards, ingredients, recipes
from games.kupferkessel.search import searchable
from games.rng import Rng
from games.search import bot

#: Average value of a card held but not seen.
MEAN_VALUE = 2.5
ONES_WEIGHT = 1.5
#: Nudges towards the cards a held recipe asks for (or away from those it wants fewer of).
RECIPE_WEIGHT = 2.0


def random_bot(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    """Any legal command, uniformly."""
    return rng.choice(actions)


def _gain(held: int, value: int, double: bool) -> float:
    """Points gained by adding a card of ``value`` to ``held`` cards of its ingredient."""
    gain: float
    if held == 0:
        gain = -value
    elif held == 1:
        gain = MEAN_VALUE
    elif held == 2:
        gain = 2 * MEAN_VALUE + value
    elif held == 3:
        gain = value + 5
    else:
        gain = 0
    return gain * (2 if double else 1)


class _Estimate:
    """What a seat probably holds, from the face-up cards and the sizes of the hidden piles."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        seat = view["seat"]
        shown: list[str] = [c for row in view["grid"] for c in row if c]
        shown += [c["top"] for c in view["cauldrons"] if c["top"]]
        shown += list(view["set_aside"])
        if view["pending"] and view["pending"] not in shown:
            shown.append(view["pending"])
        visible = Counter(cards()[c]["ingredient"] for c in shown)
        self.hidden = {
            ing: 4 - visible.get(ing, 0) for ing in {card["ingredient"] for card in cards().values()}
        }
        mine = view["cauldrons"][seat]
        hidden_total = 56 - len(shown)
        self.p = max(0, mine["count"] - 1) / hidden_total if hidden_total else 0.0
        self.top = cards()[mine["top"]]["ingredient"] if mine["top"] else None
        self.colour = view["colour"]
        own = [r for r in view.get("recipes", []) if r["seat"] == seat]
        self.recipes = [recipes()[r] for r in (own[0]["recipes"] or [])] if own else []

    def expected_gain(self, card_id: str, on_top: bool = False) -> float:
        card = cards()[card_id]
        ing = card["ingredient"]
        sure = 1 if ing == self.top and not on_top else 0
        hidden = self.hidden[ing]
        double = card["colour"] == self.colour
        total = 0.0
        for k in range(hidden + 1):
            chance = comb(hidden, k) * self.p**k * (1 - self.p) ** (hidden - k)
            total += chance * _gain(min(3, sure + k), card["value"], double)
        if card["value"] == 1:
            total += ONES_WEIGHT
        return total + sum(_recipe_nudge(recipe, card) for recipe in self.recipes)


def _recipe_nudge(recipe: Mapping[str, Any], card: Mapping[str, Any]) -> float:
    kind = recipe["kind"]
    if kind in ("colour_pair", "colour_three") and card["colour"] == recipe["colour"]:
        return RECIPE_WEIGHT
    if kind == "plants" and ingredients()[card["ingredient"]]["plant"]:
        return RECIPE_WEIGHT / 2
    if kind == "fewer_symbol" and card["symbol"] == recipe["symbol"]:
        return -RECIPE_WEIGHT
    if kind == "fewer_value" and card["value"] == recipe["value"]:
        return -RECIPE_WEIGHT
    return 0.0


def default_bot(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    """Greedy on the estimated scoring table; always uses a special symbol; keeps a last card
    only when it is expected to score."""
    kind = actions[0]["type"]
    if kind == "take":
        estimate = _Estimate(view)
        return max(actions, key=lambda a: estimate.expected_gain(a["card"]))
    if kind == "end":
        keep = _Estimate(view).expected_gain(view["pending"]) > 0
        return {"type": "end", "keep": keep}
    if kind in ("explode", "play_again"):
        return actions[0]
    return actions[0]


BOTS = {"random": random_bot, "default": default_bot, "strong": bot(searchable)}
