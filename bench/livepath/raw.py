"""The raw baseline: one-row INSERT + COMMIT per transaction, durable, from N processes.

Its best figure is the run's yardstick: no command path can append faster than the server can
commit, so every other figure is shown against it.
"""

from __future__ import annotations

import multiprocessing
import time
from multiprocessing.synchronize import Barrier

import psycopg
from psycopg.types.json import Jsonb

TABLE_DDL = (
    "CREATE TABLE IF NOT EXISTS bench_raw (position bigserial PRIMARY KEY, data jsonb NOT NULL, "
    "recorded_at timestamptz NOT NULL DEFAULT now())"
)
#: About the size of a Kupferkessel event's data.
PAYLOAD = {"type": "CardTaken", "seat": 0, "card": "mandragora-3", "line": "r2", "row": 2, "col": 3}


def prepare(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(TABLE_DDL)


def _committer(url: str, seconds: float, start: Barrier, counts: multiprocessing.Queue[int]) -> None:
    """Commit one row at a time until ``seconds`` after every committer is connected."""
    with psycopg.connect(url) as conn:
        conn.execute("SET synchronous_commit = on")
        conn.commit()
        start.wait()
        done, deadline = 0, time.monotonic() + seconds
        while time.monotonic() < deadline:
            conn.execute("INSERT INTO bench_raw (data) VALUES (%s)", (Jsonb(PAYLOAD),))
            conn.commit()
            done += 1
    counts.put(done)


def commits_per_second(url: str, processes: int, seconds: float) -> float:
    """Durable commits per second from ``processes`` forked committers, together."""
    context = multiprocessing.get_context("fork")  # the parent holds no connection or thread yet
    start = context.Barrier(processes)
    counts: multiprocessing.Queue[int] = context.Queue()
    workers = [
        context.Process(target=_committer, args=(url, seconds, start, counts)) for _ in range(processes)
    ]
    for worker in workers:
        worker.start()
    total = sum(counts.get(timeout=seconds + 60) for _ in workers)
    for worker in workers:
        worker.join(timeout=10)
    return total / seconds
