"""Random playouts of every engine through the rules interface: speed and memory.

    python bench/playouts.py [--games 50] [--game carcassonne] [--bots default,random]
                             [--options '{"mage_witch": false}']

Prints, per game and seat count: games, commands and events per second, the mean time of one
``decide`` (what a command costs the platform besides folding its events), events per game, the
size of the final state as JSON (what a snapshot stores) and the peak memory of one playout. Then,
per game, what the ``strong`` bot's search (``games/search.py``) gets through: its iterations
(determinize, descend, evaluate: a playout cut off) per second of CPU, over the positions of one
seeded game, against the full random playouts per second above. A benchmark, not a test: nothing
is asserted.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
import tracemalloc
from types import ModuleType
from typing import Any

import games
from games.rng import Rng
from games.search import Searchable, search
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


def _searched(game_id: str, positions: int) -> tuple[int, float, int]:
    """The search's iterations per CPU second over ``positions`` positions of one seeded game."""
    game = games.load(game_id)
    lender = importlib.import_module(f"games.{game_id}.search")
    searchable: Searchable = lender.searchable()
    seats = max(2, game.INFO.min_seats) if game_id in ("kupferkessel", "skodakouzla") else 3
    match = play(game, ["random"] * seats, b"bench-search")
    state, states = None, []
    for n, event in enumerate(match.events, start=1):
        state = game.evolve(state, event)
        if n in match.settled and not game.is_over(state):
            states.append(state)
    chosen = states[:: max(1, len(states) // positions)][:positions]
    spent = 0.0
    for i, state in enumerate(chosen):
        seat = game.to_move(state)[0]
        start = time.process_time()
        search(searchable, game.view(state, seat), game.legal_actions(state, seat), Rng(b"bench", str(i)))
        spent += time.process_time() - start
    return len(chosen), len(chosen) * searchable.iterations / spent, searchable.iterations


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--game", choices=games.known())
    parser.add_argument("--bots", default="random", help="bots by seat, comma-separated; the last repeats")
    parser.add_argument("--options", type=json.loads, default={}, help="game options as JSON")
    parser.add_argument("--positions", type=int, default=20, help="positions the search is timed on")
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

    print(f"\n{'game':<14}{'positions':>10}{'iterations/move':>16}{'iterations/s':>14}")
    for game_id in [args.game] if args.game else games.known():
        count, rate, budget = _searched(game_id, args.positions)
        print(f"{game_id:<14}{count:>10}{budget:>16}{rate:>14.0f}")


if __name__ == "__main__":
    main()
