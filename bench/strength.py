"""How strong each bot level is: seeded, seat-rotated matches between levels, in parallel processes.

    python bench/strength.py [--games 200] [--game kupferkessel] [--pairs strong:default,default:random]
                             [--seats 3] [--procs 2] [--record [--first 500]]

For each game and pair ``a:b`` it plays ``--games`` games, seed ``i`` for game ``i``, with ``a`` at
seat ``i mod seats`` and ``b`` at every other seat (so a 3-player match is ``a`` against two ``b``),
and prints: games played, ``a``'s win share (a tie shares the win) with its 95 % Wilson interval,
the share over the ``1/seats`` it would get were it no better, the Elo difference the share implies
(two seats: against ``b``; more: against a field of ``b``, from the share's odds over ``1/seats``'s),
and ``a``'s median and p99 time per move, as CPU time of its process (one core's worth, whatever
else the machine runs). Same arguments, same figures (but the times): the seeds and the bots'
iteration budgets decide every game. A benchmark, not a test: nothing is asserted; the figures go
to ``docs/strength.md``, and with ``--record`` into ``seeds/<game>/strength.json``, the data the
catalog lists with each level (``games/levels.py``).

A long match may be played in parts, as no session has the hours a 1,000-game one takes: with
``--first N --record`` the games ``N`` on extend the recorded games ``0 … N-1`` of the same pair
(the same seeds a single run would play, so the same games). Its times are then the larger of the
two parts' medians and p99s, each an upper bound of the whole's.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import games
from games.interface import Command
from games.rng import Rng
from games.simulate import play

#: The seat count each game is measured at (the issue's floors: two for the duels, three for the others).
SEATS = {"kupferkessel": 2, "skodakouzla": 2, "carodeni": 3, "carcassonne": 3}
#: Options each game is measured with (Carcassonne with Mage & Witch).
OPTIONS: dict[str, dict[str, Any]] = {"carcassonne": {"mage_witch": True}}
#: Every so many games, the share so far goes to stderr: a long run stopped part-way leaves figures.
PROGRESS = 50
#: Where ``--record`` stores the figures, a file a game.
SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def _one(job: tuple[str, str, str, int, int]) -> tuple[float, list[float]]:
    """``a``'s share of game ``i`` and the seconds each of its moves took."""
    game_id, a, b, seats, i = job
    rules = games.load(game_id)
    times: list[float] = []
    chosen = rules.BOTS[a]

    def timed(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
        start = time.process_time()
        try:
            return chosen(view, actions, rng)
        finally:
            times.append(time.process_time() - start)

    seat = i % seats
    bots = [b] * seats
    bots[seat] = "__measured"
    patched = _With(rules, {**rules.BOTS, "__measured": timed})
    match = play(patched, bots, f"strength-{game_id}-{a}-{b}-{i}".encode(), OPTIONS.get(game_id))  # type: ignore[arg-type]
    winners = rules.score(match.state)["winners"]
    return (1.0 / len(winners) if seat in winners else 0.0), times


class _With:
    """The rules with other ``BOTS``: what ``play`` sees."""

    def __init__(self, rules: Any, bots: dict[str, Any]) -> None:
        self._rules, self.BOTS = rules, bots

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``share`` observed over ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(share: float, seats: int) -> float:
    """The Elo difference a win share implies, against the share ``1/seats`` of an equal player."""
    share = min(max(share, 1e-3), 1 - 1e-3)
    base = 1.0 / seats
    return 400 * math.log10((share / (1 - share)) / (base / (1 - base)))


def _path(game_id: str) -> Path:
    return SEEDS / game_id / "strength.json"


def _stored(game_id: str, bot: str) -> list[dict[str, Any]]:
    path = _path(game_id)
    stored: dict[str, list[dict[str, Any]]] = (
        json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    )
    return stored.get(bot, [])


def _record(game_id: str, bot: str, figures: dict[str, Any]) -> None:
    """Store one match's figures for ``bot``, replacing an earlier one against the same opponent."""
    path = _path(game_id)
    stored = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    kept = [
        f for f in stored.get(bot, []) if (f["against"], f["seats"]) != (figures["against"], figures["seats"])
    ]
    stored[bot] = [*kept, figures]
    path.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def _wins(figures: Mapping[str, Any]) -> float:
    """The wins a record holds (a shared win counted in part). Records before ``wins`` was stored
    give it from the share, which is exact for two seats up to 500 games (wins in halves, the
    share to three decimals)."""
    if "wins" in figures:
        return float(figures["wins"])
    if figures["seats"] != 2 or figures["games"] > 500:
        raise SystemExit("the recorded match stores no wins: play it again from game 0")
    return round(figures["share"] * figures["games"] * 2) / 2


def _figures(
    against: str, seats: int, games_played: int, wins: float, median: float, p99: float
) -> dict[str, Any]:
    """A match's figures as the catalog stores them."""
    share = wins / games_played
    low, high = wilson(share, games_played)
    return {
        "against": against,
        "seats": seats,
        "games": games_played,
        "wins": round(wins, 4),
        "share": round(share, 3),
        "low": round(low, 3),
        "high": round(high, 3),
        "elo": round(elo(share, seats)),
        "median_ms": round(median, 1),
        "p99_ms": round(p99, 1),
    }


def _extended(game_id: str, bot: str, part: dict[str, Any], first: int) -> dict[str, Any]:
    """The recorded games ``0 … first-1`` of the same pair, and ``part``, the games from ``first`` on."""
    earlier = [
        f for f in _stored(game_id, bot) if (f["against"], f["seats"]) == (part["against"], part["seats"])
    ]
    if not earlier or earlier[0]["games"] != first:
        held = f"{earlier[0]['games']} games" if earlier else "none"
        raise SystemExit(f"--first {first} extends a recorded match of {first} games; recorded: {held}")
    before = earlier[0]
    return _figures(
        part["against"],
        part["seats"],
        first + part["games"],
        _wins(before) + part["wins"],
        max(before["median_ms"], part["median_ms"]),
        max(before["p99_ms"], part["p99_ms"]),
    )


def _line(game_id: str, pair: str, figures: Mapping[str, Any]) -> str:
    seats, share = figures["seats"], figures["wins"] / figures["games"]
    spread = (elo(figures["high"], seats) - elo(figures["low"], seats)) / 2
    interval = f"{figures['low']:.3f}–{figures['high']:.3f}"
    return (
        f"{game_id:<14}{seats:>6}{pair:>18}{figures['games']:>7}{share:>8.3f}"
        f"{interval:>16}{share * seats:>7.2f}{elo(share, seats):>7.0f}{spread:>5.0f}"
        f"{figures['median_ms']:>11.1f}{figures['p99_ms']:>8.1f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", choices=games.known())
    parser.add_argument("--pairs", default="strong:default,default:random,strong:random")
    parser.add_argument("--seats", type=int, help="seats per game (default: per game, see SEATS)")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument(
        "--record", action="store_true", help="store the figures in seeds/<game>/strength.json"
    )
    parser.add_argument(
        "--first", type=int, default=0, help="the first game's number (with --record: extend games 0 … N-1)"
    )
    args = parser.parse_args(argv)
    head = f"{'game':<14}{'seats':>6}{'pair':>18}{'games':>7}{'share':>8}{'95% CI':>16}{'×1/N':>7}"
    print(head + f"{'Elo':>7}{'±':>5}{'median ms':>11}{'p99 ms':>8}", flush=True)
    with ProcessPoolExecutor(args.procs) as pool:
        for game_id in [args.game] if args.game else games.known():
            seats = args.seats or SEATS.get(game_id, 2)
            for pair in args.pairs.split(","):
                a, b = pair.split(":")
                jobs = [(game_id, a, b, seats, i) for i in range(args.first, args.first + args.games)]
                results = []
                for result in pool.map(_one, jobs, chunksize=4):
                    results.append(result)
                    if len(results) % PROGRESS == 0 and len(results) < len(jobs):
                        so_far = sum(r for r, _ in results) / len(results)
                        line = f"  {game_id} {pair}: {len(results)} games, share {so_far:.3f}"
                        print(line, file=sys.stderr, flush=True)
                times = sorted(t for _, ts in results for t in ts)
                median = statistics.median(times) * 1000 if times else 0.0
                p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000 if times else 0.0
                figures = _figures(b, seats, len(results), sum(r for r, _ in results), median, p99)
                print(_line(game_id, pair, figures), flush=True)
                if args.record and args.first:
                    figures = _extended(game_id, a, figures, args.first)
                    print(
                        _line(game_id, pair, figures) + f"  (games 0–{args.first + args.games - 1})",
                        flush=True,
                    )
                if args.record:
                    _record(game_id, a, figures)


if __name__ == "__main__":
    main()
