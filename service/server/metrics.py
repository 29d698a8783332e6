"""What a web process is doing, for an operator: its Prometheus instruments and their exposition
(served at ``GET /metrics`` by :mod:`service.guard.observed`). Under gunicorn,
``kotlik web`` gives its processes a ``PROMETHEUS_MULTIPROC_DIR`` (prometheus-client's multiprocess
mode): each process writes its figures there and a scrape of any one of them sums them all.

The figures (names in ``docs/scaling.md``): requests by route, method and status, with the time to
their response's headers (a stream's or long-poll's headers come when it is answered, so that time
is the wait); commands appended by game; open streams and long-polls; waits for a database
connection; the read side's state cache's hits and misses; the outbox's backlog (asked of the
database at each scrape).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

REQUESTS = Counter("kotlik_requests", "HTTP requests answered", ["route", "method", "status"])
LATENCY = Histogram(
    "kotlik_request_seconds",
    "Seconds from a request's arrival to its response's headers",
    ["route", "method"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
COMMANDS = Counter("kotlik_commands_appended", "Commands appended to the log, by game", ["game"])
WATCHING = Gauge("kotlik_watching", "Open streams and long-polls", ["how"], multiprocess_mode="livesum")
POOL_WAITING = Gauge(
    "kotlik_db_pool_waiting",
    "Requests waiting for a database connection",
    ["pool"],
    multiprocess_mode="livesum",
)
POOL_WAIT = Counter(
    "kotlik_db_pool_wait_seconds", "Seconds spent waiting for a database connection", ["pool"]
)
CACHE = Counter("kotlik_state_cache_lookups", "Game states asked of the state cache", ["result"])


@contextmanager
def watching(how: str) -> Iterator[None]:
    """Counts a stream or a long-poll (``how``) as open while the block runs."""
    gauge = WATCHING.labels(how)
    gauge.inc()
    try:
        yield
    finally:
        gauge.dec()


#: Seconds between two copies of a process's pool and cache figures into the metrics.
SYNC_EVERY = 1.0


def exposition(extra: Iterable[Collector] = ()) -> bytes:
    """The metrics in Prometheus's text format: every process's in multiprocess mode, else this
    process's; then ``extra``'s, asked now."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        processes = CollectorRegistry()
        multiprocess.MultiProcessCollector(processes)
    else:
        processes = REGISTRY
    asked = CollectorRegistry(auto_describe=False)
    for collector in extra:
        asked.register(collector)
    return generate_latest(processes) + generate_latest(asked)


class Backlog(Collector):
    """The outbox's unsent rows, asked of the database when scraped."""

    def __init__(self, pending: Callable[[], int]) -> None:
        self.pending = pending

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("kotlik_outbox_backlog", "Outbox rows not yet handed to the broker")
        family.add_metric([], self.pending())
        yield family


class Synced:
    """Copies a process's connection pools' waits and its state cache's hits into the metrics,
    at most once a second, from the requests themselves (no thread of its own)."""

    def __init__(self, pools: dict[str, Any], cache: Any) -> None:
        self.pools = pools
        self.cache = cache
        self.last = 0.0
        self.seen: dict[str, float] = {}

    def __call__(self) -> None:
        now = time.monotonic()
        if now - self.last < SYNC_EVERY:
            return
        self.last = now
        for name, pool in self.pools.items():
            stats = pool.get_stats()
            POOL_WAITING.labels(name).set(stats.get("requests_waiting", 0))
            self._add(POOL_WAIT.labels(name), f"wait {name}", stats.get("requests_wait_ms", 0) / 1000)
        self._add(CACHE.labels("hit"), "hit", self.cache.hits)
        self._add(CACHE.labels("miss"), "miss", self.cache.misses)

    def _add(self, counter: Any, key: str, total: float) -> None:
        """A counter brought up to ``total``, a running figure the source keeps itself."""
        gained = total - self.seen.get(key, 0.0)
        if gained > 0:
            counter.inc(gained)
        self.seen[key] = total


def forget_process(pid: int) -> None:
    """A dead process's live gauges (open streams, waits) no longer count (multiprocess mode)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(pid)
