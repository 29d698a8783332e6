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

from games.carcassonne import tiles
from games.carcassonne.bots import _worth
from games.interface import Rules, State
from games.search import FastRng, Searchable, standing

#: Iterations a move: ≤ ~200 ms of one core (bench/strength.py prints the time per move).
ITERATIONS = 480
#: Points that make the odds of winning e:1 in a cut-off playout's evaluation.
SCALE = 8.0
#: What a follower still in the supply is worth while the pack lasts.
FOLLOWER = 0.5

_TABLE = (
    "seats",
    "mage_witch",
    "phase",
    "turn",
    "supply",
    "tiles",
    "grid",
    "owner",
    "features",
    "next_fid",
    "frontier",
    "completed",
    "last",
    "discarded",
    "scores",
)


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
    """Each seat's standing from the points it holds and what the default bot expects its open
    features to bring it (their end-game value, a share of a likely completion bonus, less what
    they bring its rivals)."""
    points = [float(sum(parts.values())) for parts in state["scores"]]
    feats = state["features"]
    held = [f for f, rec in feats.items() if rec["followers"] and (rec["open"] or rec["kind"] == "field")]
    for seat in range(len(points)):
        table = {**state, "pack_size": len(state["remaining"]), "seat": seat}
        points[seat] += sum(_worth(table, fid, seat) for fid in held)
        if len(state["remaining"]) > 10:
            points[seat] += FOLLOWER * min(state["supply"][seat], 4)
    return standing(points, SCALE)


@cache
def searchable() -> Searchable:
    import games.carcassonne as rules  # the package, complete by the time a bot moves

    engine: Rules = rules
    return Searchable(engine, determinize, evaluate, ITERATIONS, playout=0)
