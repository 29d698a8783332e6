"""Quick-pairing benchmark: seeks paired per second with ``--waiting`` seeks waiting, and how soon
the waiting player hears of it.

Prints figures; asserts nothing. Uses ``DATABASE_URL``'s server (else an embedded one) and a
scratch database that it drops at the end; the API is served over loopback HTTP in this process.

- *placing*: ``POST /seeks`` that finds no partner and waits (the baseline of the same run);
- *pairing*: ``POST /seeks`` that finds a waiting seek and creates the game, one after another,
  while the waiting ones are still ``--waiting`` strong (each pairing seek is given a fresh waiting
  seek to keep the count);
- *notice*: from the pairing seek's 201 to the moment the other player's long-poll
  (``GET /seeks/{id}?wait=60``, parked since that seek was placed, as the browser's is) is
  answered with the seek paired: the database's NOTIFY, the listener, the wake and one read.

    python bench/pairing.py [--waiting 100] [--pairs 100]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import threading
import time
import urllib.request
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

from events.database import create_pool, database_url, migrate


def _scratch(server: str) -> tuple[str, str]:
    name = f"kotlik_bench_{secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return name, urlunsplit(urlsplit(server)._replace(path=f"/{name}"))


def _post(base: str, path: str, body: Any, key: str | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, json.loads(response.read())


def _player(base: str, i: int) -> str:
    return str(_post(base, "/api/v1/players", {"name": f"bench-{i}-{secrets.token_hex(3)}"})[1]["key"])


def _seek(base: str, key: str, bucket: int) -> dict[str, Any]:
    # Buckets by clock: a waiting seek is paired by the next seek of its bucket only.
    body = {"game": "kupferkessel", "seats": 2, "rated": False, "clock": {"per_move": f"{bucket + 1}m"}}
    status, answer = _post(base, "/api/v1/seeks", body, key)
    assert status == 201, answer
    return dict(answer)


class Waiter(threading.Thread):
    """The waiting player's client: long-polls ``GET /seeks/{id}?wait=`` from the moment its seek
    is placed, as the browser does, and notes when the answer says it is no longer waiting."""

    def __init__(self, base: str, seek_id: str) -> None:
        super().__init__(daemon=True)
        self.base, self.seek_id = base, seek_id
        self.answered: float | None = None
        self.polls = 0

    def run(self) -> None:
        url = f"{self.base}/api/v1/seeks/{self.seek_id}?wait=60"
        while True:
            try:
                with urllib.request.urlopen(url, timeout=90) as response:
                    body = json.loads(response.read())
            except OSError:  # the benchmark is over and its server gone
                return
            self.polls += 1
            if body["status"] != "waiting":
                self.answered = time.perf_counter()
                return


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--waiting", type=int, default=100)
    parser.add_argument("--pairs", type=int, default=100)
    args = parser.parse_args()
    server = os.environ.get("DATABASE_URL") or database_url()
    name, url = _scratch(server)
    try:
        migrate(url)
        pool = create_pool(url, max_size=8)
        from werkzeug.serving import make_server

        from service.app import create_app

        http = make_server("127.0.0.1", 0, create_app(pool, KOTLIK_RATE_LIMITS="off"), threaded=True)
        threading.Thread(target=http.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{http.server_port}"
        keys = [_player(base, i) for i in range(args.waiting + 2 * args.pairs)]
        waiting: dict[int, dict[str, Any]] = {}
        waiters: dict[str, Waiter] = {}

        def listen(seek_id: str) -> None:
            waiters[seek_id] = Waiter(base, seek_id)
            waiters[seek_id].start()

        start = time.perf_counter()
        for bucket in range(args.waiting):
            waiting[bucket] = _seek(base, keys[bucket], bucket)
        placing = args.waiting / (time.perf_counter() - start)
        for seek in waiting.values():
            listen(seek["id"])
        time.sleep(1.0)  # every long-poll parked
        answered: dict[str, float] = {}
        spent = 0.0
        fresh = iter(keys[args.waiting :])
        for i in range(args.pairs):
            bucket = i % args.waiting
            other = waiting[bucket]["id"]
            began = time.perf_counter()
            paired = _seek(base, next(fresh), bucket)
            answered[other] = time.perf_counter()
            spent += answered[other] - began
            assert paired["status"] == "paired", paired
            waiting[bucket] = _seek(base, next(fresh), bucket)  # keep --waiting seeks waiting
            listen(waiting[bucket]["id"])
        for s in answered:
            waiters[s].join(10)
        heard = {s: waiters[s].answered for s in answered}
        notices = sorted(1000 * max(0.0, t - answered[s]) for s, t in heard.items() if t is not None)
        polls = sum(waiters[s].polls for s in answered)
        pairing = args.pairs / spent
        print(f"quick pairing with {args.waiting} seeks waiting (kupferkessel, loopback HTTP, one client)")
        print(f"  placing a seek that waits:   {placing:8.1f}/s (baseline)")
        print(f"  a seek that pairs (new game): {pairing:8.1f}/s  ratio to baseline {pairing / placing:.2f}")
        if notices:
            p99 = notices[min(len(notices) - 1, int(0.99 * len(notices)))]
            print(
                f"  201 → the other player's long-poll answered paired: median "
                f"{statistics.median(notices):.1f} ms, p99 {p99:.1f} ms, of {len(notices)} "
                f"({polls} requests in all: one each)"
            )
        http.shutdown()
        pool.close()
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
