"""What the search bot (``strong``, :mod:`games.search`) needs of Škoda kouzla: a table the seat
cannot tell from the true one, and how a game cut short stands.

What a seat does not see: the other wizard's hand, every deck's order (its own too) and which
unseen card lies where. Every card is numbered at setup from the content alone (``p0.01`` a
starter card of seat 0, ``s01`` a shop card), so the cards not face up are known as a set. A
determinization deals them out in the numbers the view shows: each seat's own unseen starter cards
to that seat's deck (and the other's hand), unseen shop cards to fill each place up, the rest to
the shop's deck, every pile shuffled. Which shop cards a seat once bought is not in the view, so a
determinization may hand a bought card to either wizard or back to the shop.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from games.interface import Rules, State
from games.search import FastRng, Searchable
from games.skodakouzla.bots import card_value, table, worth
from games.skodakouzla.setup import number_cards

#: Iterations a move (games/search.py: ≤ ~200 ms of a core, with a margin; 150 had none on a
#: slower machine, docs/strength.md "Škoda kouzla").
ITERATIONS = 120
#: Commands the default bot plays for every seat after the root's, before :func:`evaluate` judges.
PLAYOUT = 16
#: How much of the default bot's table worth makes the odds of winning e:1.
SCALE = 10.0
#: What the cards a wizard owns (its deck's quality, by the default bot's worth of a card) add.
DECK = 0.3


def determinize(view: Mapping[str, Any], rng: FastRng) -> State:
    """A full state agreeing with ``view``: the unseen cards dealt where the view counts them."""
    cards_of, _decks, _shop, unused = number_cards(2, list(view["shop_colours"]))
    state = table(view)
    state["cards"] = cards_of
    state["seats"] = 2
    state["options"] = {**view["options"], "arranged": {} if view["options"]["arranged"] else None}
    state["arranged"] = bool(view["options"]["arranged"])
    seen: set[str] = set(unused)
    for p in state["players"]:
        for zone in ("hand", "discard", "limbo", "removed"):
            seen.update(p[zone])
        seen.update(e["uid"] for e in p["row"])
    seen.update(state["shop"]["offer"])
    seen.update(state["shop"]["removed"])
    unseen = [u for u in cards_of if u not in seen]
    shop_cards = rng.shuffle([u for u in unseen if u.startswith("s")])
    me = view["seat"]
    for seat, pv in enumerate(view["players"]):
        own = rng.shuffle([u for u in unseen if u.startswith(f"p{seat}.")])
        wanted = pv["deck_size"] + (0 if seat == me else pv["hand_size"])
        extra = max(0, wanted - len(own))
        pile = rng.shuffle(own[:wanted] + shop_cards[:extra])
        shop_cards = shop_cards[extra:] + own[wanted:]
        p = state["players"][seat]
        if seat != me:
            p["hand"], pile = pile[: pv["hand_size"]], pile[pv["hand_size"] :]
        p["deck"] = pile
    state["shop"]["deck"] = rng.shuffle(shop_cards)[: view["shop"]["deck_size"]]
    state["shop"]["unused"] = list(unused)
    return state


def _owned(state: State, seat: int) -> float:
    p = state["players"][seat]
    uids = [*p["deck"], *p["hand"], *p["discard"], *p["limbo"], *(e["uid"] for e in p["row"])]
    return sum(card_value(state["cards"][u]) for u in uids)


def evaluate(state: State) -> Sequence[float]:
    """Each seat's standing from the default bot's worth of the table (lives, curses, creatures)
    and of the cards it owns: a turn spent buying shows in the deck before it shows on the table."""
    if state["phase"] == "over":
        return [1.0 if state["winner"] == seat else 0.0 for seat in range(2)]
    decks = [_owned(state, seat) for seat in range(2)]
    lead = [worth(state, seat) + DECK * (decks[seat] - decks[1 - seat]) for seat in range(2)]
    return [1.0 / (1.0 + math.exp(-x / SCALE)) for x in lead]


@cache
def searchable() -> Searchable:
    import games.skodakouzla as rules  # the package, complete by the time a bot moves

    engine: Rules = rules
    return Searchable(
        engine, determinize, evaluate, ITERATIONS, PLAYOUT, policy=engine.BOTS["default"], depth=1
    )
