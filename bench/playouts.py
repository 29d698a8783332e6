"""Random playouts of every engine through the rules interface: speed and memory.

    python bench/playouts.py [--games 50] [--game carcassonne] [--bots default,random]
                             [--options '{"mage_witch": false}']

Prints, per game and seat count: games, commands and events per second, the mean time of one
``decide`` (what a command costs the platform besides folding its events), events per game, the
size of the final state as JSON (what a snapshot stores) and the peak memory of one playout. A
benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import time
import tracemalloc
from types import ModuleType
from typing import Any

import games
from games.simulate import play


class _Timed:
    """The game module with its ``decide`` timed: what ``play`` sees, and the seconds spent deciding."""

    def __init__(self, game: ModuleType) -> None:
        self._game = game
        self.seconds = 0.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def decide(self, *args: Any) -> Any:
        start = time.perf_counter()
        try:
            return self._game.decide(*args)
        finally:
            self.seconds += time.perf_counter() - start


def _seat_counts(game_id: str) -> list[int]:
    info = games.load(game_id).INFO
    return list(range(max(2, info.min_seats), info.max_seats + 1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--game", choices=games.known())
    parser.add_argument("--bots", default="random", help="bots by seat, comma-separated; the last repeats")
    parser.add_argument("--options", type=json.loads, default={}, help="game options as JSON")
    args = parser.parse_args()
    named = args.bots.split(",")
    print(f"{'game':<14}{'seats':>6}{'games/s':>9}{'cmds/s':>9}{'events/s':>10}{'decide µs':>11}", end="")
    print(f"{'events/game':>13}{'state KiB':>11}{'peak KiB':>10}")
    for game_id in [args.game] if args.game else games.known():
        game = games.load(game_id)
        for seats in _seat_counts(game_id):
            bots = (named + named[-1:] * seats)[:seats]
            timed = _Timed(game)
            start = time.perf_counter()
            commands = events = 0
            for i in range(args.games):
                match = play(timed, bots, f"bench-{seats}-{i}".encode(), args.options)  # type: ignore[arg-type]
                commands += match.commands
                events += len(match.events)
            seconds = time.perf_counter() - start
            tracemalloc.start()
            match = play(game, bots, b"bench-memory", args.options)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            state_kib = len(json.dumps(match.state)) / 1024
            print(
                f"{game_id:<14}{seats:>6}{args.games / seconds:>9.1f}{commands / seconds:>9.0f}"
                f"{events / seconds:>10.0f}{timed.seconds / commands * 1e6:>11.1f}"
                f"{events / args.games:>13.0f}{state_kib:>11.1f}{peak / 1024:>10.0f}"
            )


if __name__ == "__main__":
    main()
