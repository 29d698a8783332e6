"""The service as a user runs it, by the ``kotlik`` CLI, on the run's scratch database.

Each part runs in a session of its own; stopping it is SIGTERM to that group, then SIGKILL for
whatever is left of the part's whole process tree, so the run leaves no process behind.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

#: How long a stopped part may take to finish its requests before it is killed.
STOP_SECONDS = 20.0
#: How long the API may take to answer its first request.
START_SECONDS = 60.0


def kotlik(*args: str) -> list[str]:
    """The ``kotlik`` command of this interpreter's environment, as a user would type it."""
    script = Path(sys.executable).with_name("kotlik")
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "service.cli", *args]


def environment(database: str, queue: str, data: Path, broker: str | None = None) -> dict[str, str]:
    """The parts' environment: the scratch database, a queue of the run's own, the chosen broker."""
    env = {k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"}
    # The benchmark is one client address playing hundreds of commands a second: no rate limits.
    env.update(DATABASE_URL=database, KOTLIK_QUEUE=queue, KOTLIK_DATA=str(data), KOTLIK_RATE_LIMITS="off")
    if broker:
        env["CELERY_BROKER_URL"] = broker
    return env


def migrate(env: dict[str, str]) -> None:
    subprocess.run(kotlik("migrate"), env=env, check=True, capture_output=True, timeout=120)


@dataclass(frozen=True)
class Stack:
    """A running API (and maybe a worker): its base URL and the pid of ``kotlik web``."""

    base: str
    web_pid: int


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _part(command: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with open(log, "ab") as out:
        process = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        yield process
    finally:
        _stop_group(process)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _signal_groups(pids: list[int], sig: int) -> None:
    groups = set()
    for pid in pids:
        try:
            groups.add(os.getpgid(pid))
        except ProcessLookupError:
            continue
    for group in groups:
        try:
            os.killpg(group, sig)
        except ProcessLookupError:
            continue


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the part (the CLI passes it on), wait, then SIGKILL every group left in its tree.

    The tree is taken before signalling: ``kotlik`` may run gunicorn and Celery in process groups
    of their own, which a signal to its own group would not reach.
    """
    tree = _descendants(process.pid)
    _signal_groups([process.pid], signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    while time.monotonic() < deadline and any(_alive(p) for p in tree):
        process.poll()
        time.sleep(0.1)
    left = [p for p in tree + _descendants(process.pid) if _alive(p)]
    if left:
        _signal_groups(left, signal.SIGKILL)
    process.wait(timeout=10)


def _wait_ready(base: str, web: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if web.poll() is not None:
            break
        try:
            with urllib.request.urlopen(f"{base}/api/v1/catalog", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    tail = log.read_text(errors="replace")[-3000:]
    raise RuntimeError(f"kotlik web did not come up at {base}; its log ends:\n{tail}")


@contextmanager
def running(env: dict[str, str], logs: Path, *, worker: bool) -> Iterator[Stack]:
    """``kotlik web --port P`` (the CLI's default worker class) and, for bots, ``kotlik worker``."""
    port = _free_port()
    logs.mkdir(parents=True, exist_ok=True)
    with ExitStack() as parts:
        web = parts.enter_context(_part(kotlik("web", "--port", str(port)), env, logs / "web.log"))
        if worker:
            parts.enter_context(_part(kotlik("worker"), env, logs / "worker.log"))
        base = f"http://127.0.0.1:{port}"
        _wait_ready(base, web, logs / "web.log")
        yield Stack(base, web.pid)


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [int(p) for p in found]


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        todo.extend(_children(current))
    return out


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _is_gunicorn(pid: int) -> bool:
    try:
        return b"gunicorn" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def web_pids(stack: Stack) -> list[int]:
    """gunicorn's master and workers under ``kotlik web``."""
    return [p for p in _descendants(stack.web_pid) if _is_gunicorn(p)]


def web_rss_mib(stack: Stack) -> tuple[float, int]:
    """Total RSS of gunicorn's master and workers under ``kotlik web``, and how many they are."""
    pids = web_pids(stack)
    return sum(_rss_kib(p) for p in pids) / 1024, len(pids)
