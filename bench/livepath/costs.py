"""What one answer costs the server in CPU: the web processes' and PostgreSQL's, per request.

Latency under load is queueing; the CPU an answer costs is what decides how many fit on the
machine. A meter reads the CPU time (user + system, from ``/proc``) of the web processes and of
every ``postgres`` process before and after a window in which a few clients ask one thing over and
over, and divides by the answers. ``GET /health`` (no query, no rules) is the floor of the HTTP
stack: what any request costs before the service does anything. What a stream costs is told the
same way, from the same games played with and without streams following them.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from livepath.client import Answer, Api
from livepath.known import GAME
from livepath.players import TWO_HUMANS

TICKS = os.sysconf("SC_CLK_TCK")
#: Clients asking at once: enough to keep both web processes busy, not so many that they queue.
CLIENTS = 8


def _cpu_seconds(pids: Iterable[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICKS


def postgres_pids() -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


@dataclass(frozen=True)
class Cost:
    """CPU per answer, in seconds: the web processes', PostgreSQL's, this load driver's; and how
    many answers."""

    web: float
    database: float
    driver: float
    answers: int


class Meter:
    """The CPU the web processes (``web_pids()``, asked again at the end), PostgreSQL and this
    process (the load driver, which shares the machine) spend."""

    def __init__(self, web_pids: Callable[[], list[int]]) -> None:
        self.web_pids = web_pids

    def __enter__(self) -> Meter:
        self._start = self._read()
        return self

    def __exit__(self, *exc: object) -> None:
        end = self._read()
        self.web, self.database, self.driver = (b - a for a, b in zip(self._start, end, strict=True))

    def _read(self) -> tuple[float, float, float]:
        return _cpu_seconds(self.web_pids()), _cpu_seconds(postgres_pids()), time.process_time()

    def per(self, answers: int) -> Cost:
        n = max(answers, 1)
        return Cost(self.web / n, self.database / n, self.driver / n, answers)


async def ask_repeatedly(ask: Callable[[], Awaitable[Answer]], seconds: float, expect: int) -> int:
    """``CLIENTS`` clients call ``ask`` back to back for ``seconds``; how many got ``expect``."""
    deadline = time.monotonic() + seconds
    answered = 0

    async def client() -> None:
        nonlocal answered
        while time.monotonic() < deadline:
            ok = (await ask()).status == expect  # awaited first: ``+=`` would read ``answered`` before
            answered += ok

    await asyncio.gather(*(client() for _ in range(CLIENTS)))
    return answered


async def measure(api: Api, web_pids: Callable[[], list[int]], seconds: float) -> dict[str, Cost]:
    """The cost of ``/health``, of a long-poll answered at once and of ``/actions``, on a fresh game."""
    created = await api.call("POST", "/games", body={"game": GAME, "seats": TWO_HUMANS})
    assert created.status == 201 and isinstance(created.body, dict), created.status
    game, version = created.body["id"], created.body["version"]
    token = created.body["seats"][0]["token"]
    behind = {"since": str(version - 1), "wait": "30"}
    asks: dict[str, tuple[Callable[[], Awaitable[Answer]], int]] = {
        "GET /health": (lambda: api.call("GET", "/health", root=""), 200),
        "long-poll answered at once": (lambda: api.call("GET", f"/games/{game}/state", params=behind), 200),
        "GET /actions (a seat)": (lambda: api.call("GET", f"/games/{game}/actions", token=token), 200),
    }
    costs = {}
    for name, (ask, expect) in asks.items():
        await ask_repeatedly(ask, 1.0, expect)  # warm-up
        with Meter(web_pids) as meter:
            answered = await ask_repeatedly(ask, seconds, expect)
        costs[name] = meter.per(answered)
    return costs
