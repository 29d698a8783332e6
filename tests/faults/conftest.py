"""Fault injection: real workers, brokers, web servers and databases that the tests start, break and
restart themselves. The machine's shared PostgreSQL, Redis and RabbitMQ are never stopped: a test
that stops a server stops its own (a ``redis-server`` on a free port, an embedded PostgreSQL).

Sizes come from the environment so CI can bound them; the defaults are the issue's:
``KOTLIK_FAULT_GAMES`` (16 bot games), ``KOTLIK_FAULT_KILLS`` (10 worker kills),
``KOTLIK_FAULT_OUTAGE`` (30 s without Redis), ``KOTLIK_FAULT_CLIENTS`` (200 racing clients).

Each test prints its figures (and they are repeated in pytest's closing summary, so CI shows them
without ``-s``).
"""

from __future__ import annotations

import os
import secrets
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The platform tests' helpers (an HTTP client, process helpers), imported as the platform tests do.
sys.path.insert(0, str(ROOT / "tests" / "platform"))

from gamelog import check_game  # noqa: E402,F401
from processes import RedisServer, Worker, free_port, wait_until  # noqa: E402,F401


def size(name: str, default: int) -> int:
    """A bounded size from ``KOTLIK_FAULT_<name>``, else the issue's ``default``."""
    return int(os.environ.get(f"KOTLIK_FAULT_{name}", default))


def queue_name() -> str:
    return f"kotlik-fault-{secrets.token_hex(4)}"


# --- figures ---------------------------------------------------------------------------------

_FIGURES: list[str] = []


@pytest.fixture
def report(request: pytest.FixtureRequest) -> Callable[..., None]:
    """``report(**figures)`` prints one line of figures for this test and keeps it for the summary."""

    def emit(**figures: Any) -> None:
        line = f"{request.node.name}: " + ", ".join(f"{k}={v}" for k, v in figures.items())
        print(line, flush=True)
        _FIGURES.append(line)

    return emit


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _FIGURES:
        terminalreporter.section("fault-injection figures")
        for line in _FIGURES:
            terminalreporter.write_line(line)


# --- processes the tests own -----------------------------------------------------------------


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A started ``redis-server`` of this test's own, killed at the end whatever happened."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    server = RedisServer(tmp_path / "redis.log")
    server.start()
    try:
        yield server
    finally:
        server.kill()
