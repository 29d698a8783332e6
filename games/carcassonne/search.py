"""What the search bot (``strong``, :mod:`games.search`) needs of Carcassonne: a table the seat
cannot tell from the true one, and how a game cut short stands.

The table is public; only the order of the pack is not (and an arranged prefix, which the options
hide). A determinization is the table with the pack's unplayed tiles in a random order, no
arranged prefix: the next draws are then as random to the search as they are to the seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from games.carcassonne import bots, scoring, tiles, views
from games.interface import Rules, State
from games.search import FastRng, Searchable, standing

#: Iterations a move: ≤ ~200 ms of one core (bench/strength.py prints the time per move).
ITERATIONS = 33
#: Commands the default bot plays for every seat after the root's (about one round of three
#: seats: the seat's follower, then each rival's tile and follower), before :func:`evaluate` judges.
PLAYOUT = 7
#: How many of the default bot's best commands the root weighs (of up to a hundred placements).
WIDTH = 4
#: Points that make the odds of winning e:1 in a cut-off playout's evaluation.
SCALE = 8.0

#: The state's parts a view shows as they are: the public table and the scores.
_TABLE = (*views.PUBLIC, "scores")


def determinize(view: Mapping[str, Any], rng: FastRng) -> State:
    """The table as ``view`` shows it, the pack's unplayed tiles shuffled."""
    current = view["current_tile"]
    used = {t for t, *_ in view["tiles"]} | set(view["discarded"])
    if current is not None:
        used.add(current["tile"])
    remaining = [t for t in tiles.tile_ids(view["mage_witch"]) if t not in used]
    state = {key: view[key] for key in _TABLE}
    state.update(
        current=None if current is None else current["tile"],
        remaining=rng.shuffle(remaining),
        queue=[],
        mage=view["mage_seg"],
        witch=view["witch_seg"],
    )
    return state


def evaluate(state: State) -> Sequence[float]:
    """Each seat's standing from what it holds (:func:`holdings`)."""
    return standing(holdings(state), SCALE)


def holdings(state: State) -> list[float]:
    """Each seat's points, what the features it leads are likely to bring, and the followers in its
    hand, each at the price the default bot sets on placing it (:func:`~games.carcassonne.bots.estimate`,
    :func:`~games.carcassonne.bots.follower_price`).

    The search and its policy thus judge a feature and a follower alike. A hand valued at less than
    those prices made the search place followers the default bot would keep, and run out of them
    (docs/strength.md has the trials)."""
    pack_size = len(state["remaining"])
    estimated = {**state, "pack_size": pack_size}
    points = [float(sum(parts.values())) for parts in state["scores"]]
    for fid, rec in state["features"].items():
        if rec["followers"] and (rec["open"] > 0 or rec["kind"] == "field"):
            value = bots.estimate(estimated, fid)
            for seat in scoring.majority(rec):
                points[seat] += value
    for seat, left in enumerate(state["supply"]):
        points[seat] += sum(bots.follower_price(k, pack_size) for k in range(1, left + 1))
    return points


@cache
def searchable() -> Searchable:
    import games.carcassonne as rules  # the package, complete by the time a bot moves

    engine: Rules = rules
    return Searchable(
        engine,
        determinize,
        evaluate,
        ITERATIONS,
        PLAYOUT,
        policy=engine.BOTS["default"],
        depth=1,
        appraise=bots.appraise,
        width=WIDTH,
    )
