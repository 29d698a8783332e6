"""Cold folds: how fast each engine's ``evolve`` replays a recorded log, from nothing and from a snapshot.

    python bench/fold.py [--games 20] [--repeat 3] [--game carcassonne]

A cold fold is what the platform does for a game missing from its cache, a replay from a snapshot or
an ``?at=`` query: ``evolve`` alone, event after event, no ``decide``. For every game and its heavier
option sets this records the logs of seeded random games (``simulate.play``), then prints events/s
(median of ``--repeat`` timings) of

- ``cold``: folding every log from ``None`` (``× goal``: that rate over the goal below);
- ``snapshot``: folding the second half of every log from the middle state after a JSON round trip,
  as a snapshot comes back from jsonb (the ``json.loads`` is not timed; ``load µs`` is its cost);
- ``cached``: folding the same second halves from the in-memory middle state, as the cache does.

A benchmark, not a test: nothing is asserted. The machine's load moves every figure; compare
runs made together.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import games
from games.interface import Event, State
from games.simulate import fold, play

#: Issue 13: a cold fold of every game at this many events per second or more.
GOAL = 100_000
#: The option sets that exercise most of each engine's fold: (label, bot per seat, options). A game
#: missing here is played at its smallest table without options.
CASES: dict[str, list[tuple[str, list[str], dict[str, Any]]]] = {
    "carcassonne": [
        ("2p", ["random"] * 2, {}),
        ("5p", ["random"] * 5, {}),
        ("5p base", ["random"] * 5, {"mage_witch": False}),
    ],
    "carodeni": [
        ("solo", ["random", "ostara"], {"solo": True, "difficulty": "grandmaster", "animals": True}),
        ("2p", ["random"] * 2, {}),
        ("5p animals", ["random"] * 5, {"animals": True, "animal_goals": 2, "extra_hard_goal": True}),
    ],
    "kupferkessel": [
        ("2p", ["random"] * 2, {}),
        ("2p recipes", ["random"] * 2, {"recipes": True, "direction": "counterclockwise"}),
    ],
    "skodakouzla": [
        ("2p", ["random"] * 2, {}),
        (
            "2p variants",
            ["random"] * 2,
            {"two_colours": True, "masters": ["fire", "ice"], "other_freeze": True},
        ),
    ],
}


@dataclass
class Logs:
    """The recorded logs of one case, and each log's middle state (in memory and as a snapshot)."""

    events: list[list[Event]]
    middle: list[State]
    snapshots: list[str]

    @property
    def count(self) -> int:
        return sum(len(log) for log in self.events)

    @property
    def second_halves(self) -> list[list[Event]]:
        return [log[len(log) // 2 :] for log in self.events]


def cases(game_id: str) -> list[tuple[str, list[str], dict[str, Any]]]:
    smallest = ["random"] * max(2, games.load(game_id).INFO.min_seats)
    return CASES.get(game_id, [(f"{len(smallest)}p", smallest, {})])


def record(game: ModuleType, bots: list[str], options: dict[str, Any], n: int) -> Logs:
    """The logs of ``n`` seeded games, each with its middle state and that state as a JSON snapshot."""
    logs = Logs([], [], [])
    for i in range(n):
        match = play(game, bots, f"fold-{len(bots)}-{i}".encode(), options)
        middle = fold(game, match.events[: len(match.events) // 2])
        logs.events.append(match.events)
        logs.middle.append(middle)
        logs.snapshots.append(json.dumps(middle))
    return logs


def _median_rate(
    folds: Callable[[], tuple[list[list[Event]], list[State]]], game: ModuleType, repeat: int
) -> float:
    """Events/s folding what ``folds()`` prepares untimed (logs, start states); median of ``repeat``."""
    rates = []
    for _ in range(repeat):
        logs, starts = folds()
        start = time.perf_counter()
        for log, state in zip(logs, starts, strict=True):
            fold(game, log, state)
        rates.append(sum(len(log) for log in logs) / (time.perf_counter() - start))
    return statistics.median(rates)


def measure(game: ModuleType, logs: Logs, repeat: int) -> dict[str, float]:
    halves = logs.second_halves
    cold = _median_rate(lambda: (logs.events, [None] * len(logs.events)), game, repeat)
    snapshot = _median_rate(lambda: (halves, [json.loads(s) for s in logs.snapshots]), game, repeat)
    cached = _median_rate(lambda: (halves, logs.middle), game, repeat)
    return {"cold": cold, "snapshot": snapshot, "cached": cached, "load_us": _load_us(logs.snapshots, repeat)}


def _load_us(snapshots: list[str], repeat: int) -> float:
    """Microseconds to decode one middle snapshot, median of ``repeat``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for s in snapshots:
            json.loads(s)
        times.append((time.perf_counter() - start) / len(snapshots) * 1e6)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20, help="recorded games per case")
    parser.add_argument("--repeat", type=int, default=3, help="timings per figure; the median is shown")
    parser.add_argument("--game", choices=games.known())
    args = parser.parse_args()
    print(
        f"{'game':<14}{'case':<13}{'events':>8}{'cold ev/s':>11}{'× goal':>8}{'snapshot ev/s':>15}"
        f"{'cached ev/s':>13}{'load µs':>9}"
    )
    for game_id in [args.game] if args.game else games.known():
        game = games.load(game_id)
        for label, bots, options in cases(game_id):
            logs = record(game, bots, options, args.games)
            r = measure(game, logs, args.repeat)
            print(
                f"{game_id:<14}{label:<13}{logs.count:>8}{r['cold']:>11,.0f}{r['cold'] / GOAL:>8.2f}"
                f"{r['snapshot']:>15,.0f}{r['cached']:>13,.0f}{r['load_us']:>9,.0f}"
            )


if __name__ == "__main__":
    main()
