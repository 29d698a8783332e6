"""What the search bot (``strong``, :mod:`games.search`) needs of Kupferkessel: a table the seat
cannot tell from the true one, and how a game cut short stands.

What a seat does not see: every cauldron below its top card (its own too: the memory rule), the
deck's order, the cards out of the game and the other player's recipes. A determinization deals
the cards not face up at random into those places, in the numbers the view shows, and the other
player's recipes from the ones the seat does not hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from games.interface import Rules, State
from games.kupferkessel.content import card_order, card_spots, recipes
from games.kupferkessel.scoring import breakdown
from games.search import FastRng, Searchable, standing

#: Iterations a move: ≤ ~200 ms of one core (bench/strength.py prints the time per move).
ITERATIONS = 100
#: Commands the default bot plays for every seat after the root's, before :func:`evaluate` judges.
PLAYOUT = 16
#: Points that make the odds of winning e:1 in a cut-off playout's evaluation.
SCALE = 6.0


def determinize(view: Mapping[str, Any], rng: FastRng) -> State:
    """A full state agreeing with ``view``: hidden cards dealt at random where the view counts them."""
    grid = [card for row in view["grid"] for card in row]
    tops = [c["top"] for c in view["cauldrons"]]
    shown = {c for c in grid if c} | {c for c in tops if c} | set(view["set_aside"])
    if view["pending"]:
        shown.add(view["pending"])
    hidden = rng.shuffle([c for c in card_order() if c not in shown])
    cauldrons = []
    for c in view["cauldrons"]:
        below = max(0, c["count"] - 1)
        cauldrons.append([*hidden[:below], c["top"]] if c["top"] else [])
        hidden = hidden[below:]
    deck, removed = hidden[: view["deck"]], hidden[view["deck"] :]
    seat = view["seat"]
    held: list[list[str]] = [[], []]
    if view["advanced"]:
        mine = next(r for r in view["recipes"] if r["seat"] == seat)
        other = next(r for r in view["recipes"] if r["seat"] != seat)
        held[seat] = list(mine["recipes"])
        pool = rng.shuffle([r for r in recipes() if r not in held[seat]])
        held[other["seat"]] = pool[: other["count"]]
    holes = [s for s in card_spots() if grid[s] is None]
    spot = holes[0] if view["phase"] in ("special", "end") and deck and len(holes) == 1 else None
    return {
        "options": {"recipes": view["advanced"], "direction": view["direction"]},
        "direction": view["direction"],
        "advanced": view["advanced"],
        "pawns": [p["position"] for p in view["pawns"]],
        "grid": grid,
        "deck": deck,
        "cauldrons": cauldrons,
        "recipes": held,
        "turn": view["to_move"][0] if view["to_move"] else seat,
        "phase": view["phase"],
        "extra": view["extra_turn"],
        "pending": view["pending"],
        "spot": spot,
        "set_aside": list(view["set_aside"]),
        "removed": removed,
        "ended_by": view["ended_by"],
    }


def evaluate(state: State) -> Sequence[float]:
    """Each seat's standing from the points its cauldron would score now."""
    return standing([sum(breakdown(state, s).values()) for s in range(2)], SCALE)


@cache
def searchable() -> Searchable:
    import games.kupferkessel as rules  # the package, complete by the time a bot moves

    engine: Rules = rules
    return Searchable(
        engine, determinize, evaluate, ITERATIONS, PLAYOUT, policy=engine.BOTS["default"], depth=1
    )
