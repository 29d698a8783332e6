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

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from itertools import groupby
from pathlib import Path
from typing import Any
from uuid import UUID

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]
# The platform tests' helpers (an HTTP client, process helpers), imported as the platform tests do.
sys.path.insert(0, str(ROOT / "tests" / "platform"))

from processes import free_port, wait_until  # noqa: E402

from audit import stored  # noqa: E402
from events import read  # noqa: E402
from projections import lobby  # noqa: E402
from projections.fold import PLATFORM  # noqa: E402


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


class RedisServer:
    """A ``redis-server`` of the test's own on a free loopback port, in memory only."""

    def __init__(self, log: Path) -> None:
        self.port = free_port()
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        args += ["--save", "", "--appendonly", "no", "--daemonize", "no"]
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        wait_until(self._answers, 30, f"redis-server on port {self.port}")

    def _answers(self) -> bool:
        assert self.process is not None and self.process.poll() is None, self.log.read_text()
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


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


class Worker:
    """A real Celery worker (with its beat) in a process group of its own, to SIGKILL whole."""

    def __init__(self, env: dict[str, str], folder: Path, concurrency: int = 2) -> None:
        self.env = env
        self.folder = folder
        self.concurrency = concurrency
        self.starts = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> Path:
        return self.folder / f"worker-{self.starts}.log"

    def start(self, timeout: float = 90) -> None:
        from service.cli import worker_command

        self.starts += 1
        log = self.log
        command = worker_command(self.concurrency, self.folder / "beat-schedule", self.env)
        with open(log, "wb") as out:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        process = self.process
        wait_until(
            lambda: b" ready." in log.read_bytes() or process.poll() is not None, timeout, "the worker"
        )
        assert process.poll() is None, f"the worker died at start:\n{log.read_text()}"

    def kill(self) -> None:
        """SIGKILL the worker's whole process group: its master, pool children and beat."""
        process = self.process
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        wait_until(lambda: not _group_alive(process.pid), 30, "the worker's group to die")
        self.process = None

    def logs(self) -> str:
        return "\n".join(
            (self.folder / f"worker-{i}.log").read_text(errors="replace") for i in range(1, self.starts + 1)
        )


def _group_alive(pgid: int) -> bool:
    for p in psutil.process_iter(["pid"]):
        with contextlib.suppress(psutil.NoSuchProcess, ProcessLookupError):
            if os.getpgid(p.info["pid"]) == pgid and p.status() != psutil.STATUS_ZOMBIE:
                return True
    return False


# --- what a game's log must look like ---------------------------------------------------------


def check_game(conn: Any, game_id: UUID, *, finished: bool = True) -> dict[str, Any]:
    """What is wrong with a game's log (``problems``) and its figures: gapless versions, each command's
    events in one run starting right after the version it was decided at (a bot turn played twice
    would decide at the same ``at`` twice), scored once, the lobby in step, the audit clean."""
    events = read(conn, game_id)
    versions = [e.version for e in events]
    problems: list[str] = []
    gaps = len(set(range(1, (versions[-1] if versions else 0) + 1)) - set(versions))
    if versions != list(range(1, len(versions) + 1)):
        problems.append(f"versions are not 1..{len(versions)}: {gaps} missing")
    commands = [e for e in events if "at" in e.meta]
    runs = [(at, [e.version for e in group]) for at, group in groupby(commands, key=lambda e: e.meta["at"])]
    ats = [at for at, _ in runs]
    duplicated = len(ats) - len(set(ats))
    if duplicated:
        problems.append(f"{duplicated} command(s) decided twice at the same version")
    misplaced = [at for at, vs in runs if vs[0] != at + 1]
    if misplaced:
        problems.append(f"commands whose events do not follow their version: {misplaced[:5]}")
    scored = [e for e in events if e.type == f"{PLATFORM}GameScored"]
    row = lobby.get(conn, game_id)
    if row.version != (versions[-1] if versions else 0):
        problems.append(f"the lobby says version {row.version}, the log ends at {versions[-1]}")
    if finished:
        if row.status != "finished" or len(scored) != 1 or events[-1].type != f"{PLATFORM}GameScored":
            problems.append(f"not finished and scored once: status {row.status}, {len(scored)} GameScored")
        if lobby.score(conn, game_id) is None:
            problems.append("no score")
        problems += stored.verify(conn, game_id)
    return {
        "problems": problems,
        "events": len(events),
        "commands": len(runs),
        "gaps": gaps,
        "duplicated": duplicated,
        "status": row.status,
    }
