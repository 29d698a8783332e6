"""Helpers for the tests that start ``kotlik`` itself: fresh databases, commands, process trees."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
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
