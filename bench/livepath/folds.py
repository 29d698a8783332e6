"""State load time: ``projections.fold.state_at`` at 100, 1,000 and 10,000 events, with and without snapshots.

No Kupferkessel game reaches 10,000 events (they end after 100–200), so the long game is Škoda
kouzla with both seats passing whenever they may (``end_phase``, else a random legal body): a legal
game that lasts as long as it is played. Its events are appended by ``commands.handlers.play``
on a pool, as the API appends them, and ``state_at(at=N)`` is then the state of an N-event game.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from psycopg import Connection
from psycopg_pool import ConnectionPool

import commands
import games
from projections import lobby
from projections.fold import state_at

LONG_GAME = "skodakouzla"
SIZES = (100, 1_000, 10_000)
#: How long each measurement keeps loading, to take a median of several loads.
MEASURE_SECONDS = 0.5


@dataclass(frozen=True)
class Built:
    game_id: UUID
    version: int
    seconds: float


def _passing(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    passing = [a for a in actions if a["type"] == "end_phase"]
    return passing[0] if passing else rng.choice(actions)


def build(pool: ConnectionPool, target: int, budget: float, seed: int) -> Built:
    """Play the long game until ``target`` events or ``budget`` seconds, whichever comes first."""
    game = games.load(LONG_GAME)
    rng, start = random.Random(seed), time.monotonic()
    with pool.connection() as conn:
        created = commands.create_game(conn, LONG_GAME, [{"name": "A"}, {"name": "B"}], {})
        game_id, version = UUID(str(created.game.id)), created.game.version
        while version < target and time.monotonic() - start < budget:
            row = lobby.get(conn, game_id)
            if row.status != "active":
                break
            seat = row.to_move[0]
            body = _passing(game.legal_actions(state_at(conn, game_id, game).state, seat), rng)
            version = commands.play(conn, game_id, seat, body, expected_version=row.version).version
    return Built(game_id, version, time.monotonic() - start)


def _load_seconds(conn: Connection[Any], game_id: UUID, at: int) -> float:
    """The median time of ``load`` at version ``at`` over about MEASURE_SECONDS (three loads at least)."""
    game = games.load(LONG_GAME)
    state_at(conn, game_id, game, at=at)  # untimed: the first load also warms caches and statements
    times: list[float] = []
    deadline = time.monotonic() + MEASURE_SECONDS
    while len(times) < 3 or time.monotonic() < deadline:
        start = time.perf_counter()
        state_at(conn, game_id, game, at=at)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def sizes(built: Built) -> list[int]:
    """The sizes to time: those the long game reached, and its whole length if it fell short."""
    reached = [n for n in SIZES if n <= built.version]
    return reached if len(reached) == len(SIZES) else [*reached, built.version]


def measure(pool: ConnectionPool, built: Built) -> dict[tuple[int, bool], float]:
    """Seconds per load by (size, with snapshots); the snapshots are put back afterwards."""
    out: dict[tuple[int, bool], float] = {}
    with pool.connection() as conn:
        for n in sizes(built):
            out[(n, True)] = _load_seconds(conn, built.game_id, n)
        with conn.transaction():
            conn.execute(
                "CREATE TEMP TABLE kept ON COMMIT DROP AS SELECT * FROM snapshots WHERE game_id = %s",
                (built.game_id,),
            )
            conn.execute("DELETE FROM snapshots WHERE game_id = %s", (built.game_id,))
            for n in sizes(built):
                out[(n, False)] = _load_seconds(conn, built.game_id, n)
            conn.execute("INSERT INTO snapshots SELECT * FROM kept")
    return out
