"""Helpers for the tests that start ``kotlik`` itself: fresh databases, commands, process trees."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psutil
import psycopg
from httpclient import Client

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def fresh_database(server_url: str) -> Iterator[str]:
    """An empty database of its own on the test server (no migrations, no kombu tables), dropped after."""
    name = f"kotlik_test_{secrets.token_hex(4)}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(urlsplit(server_url)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def kotlik(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """``kotlik <args>`` with stdout and stderr in ``log``."""
    with open(log, "wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "service.cli", *args],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def environment(**changes: str | None) -> dict[str, str]:
    """This process's environment with ``changes``; None removes a variable."""
    env = dict(os.environ)
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def wait_until(condition: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.1)


def wait_for_line(
    process: subprocess.Popen[bytes], log: Path, text: str, timeout: float, count: int = 1
) -> None:
    """Until ``text`` is in ``log`` ``count`` times; the log is the message if ``process`` ends first."""
    wanted = text.encode()
    wait_until(lambda: log.read_bytes().count(wanted) >= count or process.poll() is not None, timeout, text)
    assert process.poll() is None, log.read_text()


def descendants(pid: int) -> list[psutil.Process]:
    try:
        return list(psutil.Process(pid).children(recursive=True))
    except psutil.NoSuchProcess:
        return []


def alive(process: psutil.Process) -> bool:
    try:
        return bool(process.is_running() and process.status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def stop(process: subprocess.Popen[bytes], others: Sequence[psutil.Process] = ()) -> None:
    """End what a test started, whatever state its test left it in."""
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)
    for other in others:
        if alive(other):
            other.kill()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def web_process(
    env: dict[str, str], log: Path, workers: int = 1
) -> Iterator[tuple[Client, subprocess.Popen[bytes]]]:
    """``kotlik web`` (gunicorn, gevent) on a free port, once it answers; stopped with all its
    children at the end."""
    port = free_port()
    process = kotlik(["web", "--port", str(port), "--workers", str(workers)], env, log)
    api = Client(f"http://127.0.0.1:{port}")

    def answers() -> bool:
        assert process.poll() is None, log.read_text()
        try:
            return api.get("/health", timeout=2).status == 200
        except OSError:
            return False

    children: list[psutil.Process] = []
    try:
        wait_until(answers, 90, "kotlik web to answer")
        children = descendants(process.pid)
        yield api, process
    finally:
        children += descendants(process.pid)
        process.terminate()
        try:
            process.wait(timeout=30)
        finally:
            stop(process, children)


@contextmanager
def kotlik_web(env: dict[str, str], log: Path, workers: int = 1) -> Iterator[Client]:
    """``kotlik web`` without rate limits: the tests that use it hammer it from one address on purpose."""
    with web_process({**env, "KOTLIK_RATE_LIMITS": "off"}, log, workers) as (api, _):
        yield api


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


class Worker:
    """A worker node: a real Celery worker for the games' queue (with its beat) and one for the
    searching bots' turns, each in a process group of its own, to SIGKILL whole."""

    def __init__(
        self, env: dict[str, str], folder: Path, concurrency: int = 2, name: str = "games", beat: bool = True
    ) -> None:
        self.env = env
        self.folder = folder
        self.concurrency = concurrency
        self.name = name
        self.beat = beat
        self.starts = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.searcher: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> Path:
        return self.folder / f"worker-{self.starts}.log"

    @property
    def search_log(self) -> Path:
        return self.folder / f"search-{self.starts}.log"

    def start(self, timeout: float = 90) -> None:
        from service.cli import search_worker_command, worker_command

        self.starts += 1
        schedule = self.folder / "beat-schedule" if self.beat else None
        # node names of their own, for two worker nodes on one machine
        names = {"games@%h": f"{self.name}@%h", "search@%h": f"{self.name}-search@%h"}
        games = [names.get(part, part) for part in worker_command(self.concurrency, schedule, self.env)]
        search = [names.get(part, part) for part in search_worker_command(self.env)]
        with open(self.log, "wb") as out, open(self.search_log, "wb") as thinking:
            self.process = subprocess.Popen(
                games, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
            self.searcher = subprocess.Popen(
                search,
                cwd=ROOT,
                env=self.env,
                stdout=thinking,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        for process, log in ((self.process, self.log), (self.searcher, self.search_log)):
            wait_until(partial(_ready, process, log), timeout, "the worker")
            assert process.poll() is None, f"the worker died at start:\n{log.read_text()}"

    def kill(self) -> None:
        """SIGKILL both workers' whole process groups: masters, pool children and beat."""
        for process in (self.process, self.searcher):
            if process is None:
                continue
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
            wait_until(partial(_group_gone, process.pid), 30, "the worker's group to die")
        self.process = self.searcher = None

    def logs(self) -> str:
        return "\n".join(
            (self.folder / f"{role}-{i}.log").read_text(errors="replace")
            for i in range(1, self.starts + 1)
            for role in ("worker", "search")
        )


def _ready(process: subprocess.Popen[bytes], log: Path) -> bool:
    return b" ready." in log.read_bytes() or process.poll() is not None


def _group_gone(pgid: int) -> bool:
    return not _group_alive(pgid)


def _group_alive(pgid: int) -> bool:
    for p in psutil.process_iter(["pid"]):
        with contextlib.suppress(psutil.NoSuchProcess, ProcessLookupError):
            if os.getpgid(p.info["pid"]) == pgid and p.status() != psutil.STATUS_ZOMBIE:
                return True
    return False
