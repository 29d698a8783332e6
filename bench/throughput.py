"""Platform benchmark: the write path, folding with and without snapshots, and HTTP reads.

Prints figures; asserts nothing. Uses ``DATABASE_URL``'s server (else an embedded one) and a
scratch database that it drops at the end.

    python bench/throughput.py [--game kupferkessel] [--games 20]
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import time
import tracemalloc
from urllib.parse import urlsplit, urlunsplit
from uuid import UUID

import psycopg

import commands
import games
from events.database import create_pool, database_url, migrate
from projections import lobby
from projections.fold import state_at


def _scratch(server: str) -> tuple[str, str]:
    name = f"kotlik_bench_{secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return name, urlunsplit(urlsplit(server)._replace(path=f"/{name}"))


def _per_second(n: int, seconds: float) -> str:
    return f"{n / seconds:,.0f}/s ({1000 * seconds / max(n, 1):.2f} ms each)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="kupferkessel")
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    server = os.environ.get("DATABASE_URL") or database_url()
    name, url = _scratch(server)
    try:
        migrate(url)
        pool = create_pool(url, max_size=4)
        rules = games.load(args.game)
        seats = [{"name": f"P{i}"} for i in range(rules.INFO.min_seats)]
        rng = random.Random(1)
        played, spent, ids = 0, 0.0, []
        with pool.connection() as conn:
            for _ in range(args.games):
                game_id = UUID(str(commands.create_game(conn, args.game, seats, {}).game.id))
                ids.append(game_id)
                while (row := lobby.get(conn, game_id)).status == "active":
                    seat = row.to_move[0]
                    state = state_at(conn, game_id, rules).state
                    command = rng.choice(rules.legal_actions(state, seat))
                    start = time.perf_counter()
                    commands.play(conn, game_id, seat, command, expected_version=row.version)
                    spent += time.perf_counter() - start
                    played += 1
            print(f"{args.game}: {args.games} games, {played} commands")
            print(f"  write path (load + decide + append + lobby + outbox): {_per_second(played, spent)}")
            longest = max(ids, key=lambda g: lobby.get(conn, g).version)
            version = lobby.get(conn, longest).version
            for label in ("with snapshots", "without snapshots"):
                if label == "without snapshots":
                    conn.execute("DELETE FROM snapshots")
                times = []
                for _ in range(20):
                    start = time.perf_counter()
                    state_at(conn, longest, rules)
                    times.append(time.perf_counter() - start)
                median = 1000 * statistics.median(times)
                print(f"  fold of a {version}-event game {label}: median {median:.2f} ms")
            tracemalloc.start()
            state = state_at(conn, longest, rules).state
            current, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            print(f"  memory of one fold: peak {peak / 1024:.0f} KiB, state {current / 1024:.0f} KiB")
            del state
        from service.app import create_app

        client = create_app(pool).test_client()
        start = time.perf_counter()
        n = 200
        for i in range(n):
            assert client.get(f"/api/v1/games/{ids[i % len(ids)]}/state").status_code == 200
        print(f"  GET /state through the Flask app: {_per_second(n, time.perf_counter() - start)}")
        pool.close()
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
