"""Random playouts per second of the Carcassonne engine, through the rules interface.

Usage: ``python bench/carcassonne_playouts.py [games per player count] [--default]``. Prints games,
commands and events per second for 2–5 players (random bots; ``--default`` also times the heuristic
bot against random ones). A benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import sys
import time

import games.carcassonne as game
from games.simulate import play


def _run(bots: list[str], games: int, options: dict[str, bool]) -> tuple[float, int, int]:
    commands = events = 0
    start = time.perf_counter()
    for i in range(games):
        m = play(game, bots, f"bench-{len(bots)}-{i}".encode(), options)
        commands += m.commands
        events += len(m.events)
    return time.perf_counter() - start, commands, events


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv and argv[0].isdigit() else 100
    rows = [(f"{n}p random", ["random"] * n, {"mage_witch": True}) for n in range(2, 6)]
    rows.append(("4p random, base game", ["random"] * 4, {"mage_witch": False}))
    if "--default" in argv:
        rows.append(("2p default vs random", ["default", "random"], {"mage_witch": True}))
    print(f"{'players':<24}{'games':>7}{'games/s':>10}{'ms/game':>10}{'commands/s':>12}{'events/s':>11}")
    for label, bots, options in rows:
        n = games if "default" not in bots else max(1, games // 5)
        seconds, commands, events = _run(bots, n, options)
        print(
            f"{label:<24}{n:>7}{n / seconds:>10.1f}{1000 * seconds / n:>10.1f}"
            f"{commands / seconds:>12.0f}{events / seconds:>11.0f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
