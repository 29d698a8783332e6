"""Running ``kotlik``'s children (gunicorn, a Celery worker) so that none outlives the command.

Each child runs in a process group of its own: SIGTERM/SIGINT to ``kotlik`` becomes one SIGTERM
to each child (gunicorn and Celery both stop gracefully on it), and whatever a child leaves
behind (gunicorn workers, Celery pool processes) is killed with its group. On Linux a child is
also sent SIGTERM if ``kotlik`` itself is killed, so even ``kill -9`` leaves nothing listening.
``kotlik up`` restarts a child that dies, with a backoff, and gives up on one that keeps dying.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import FrameType, TracebackType

#: A child that dies within this many seconds of its start counts as failing to start.
QUICK = 10.0
#: Consecutive quick failures after which ``kotlik up`` gives up on a child.
GIVE_UP_AFTER = 5
#: Longest pause before a restart; the pause doubles with each quick failure, from one second.
MAX_BACKOFF = 30.0
#: How long children get to stop after SIGTERM before their process groups are killed.
STOP_TIMEOUT = 20.0
#: Seconds between looks at the children.
POLL = 0.2


def log(message: str) -> None:
    print(f"kotlik: {message}", file=sys.stderr, flush=True)


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM when ``kotlik`` dies, however it dies (Linux only)."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before prctl took effect
        os.kill(os.getpid(), signal.SIGTERM)


def _describe(code: int) -> str:
    return f"was killed by {signal.Signals(-code).name}" if code < 0 else f"exited with code {code}"


@dataclass
class Child:
    """One supervised command, named for the log (``web``, ``worker``)."""

    name: str
    command: list[str]
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    #: Consecutive deaths within ``QUICK`` seconds of starting.
    failures: int = 0
    #: When a dead child is due to be started again.
    restart_at: float | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, process_group=0, preexec_fn=_die_with_parent)
        self.started = time.monotonic()
        self.restart_at = None

    def exited(self) -> int | None:
        """The exit code once the child has exited (negative: the signal that killed it)."""
        return None if self.process is None else self.process.poll()

    def kill_group(self) -> None:
        """SIGKILL whatever is left in the child's process group (orphaned pool processes)."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is empty
            os.killpg(self.process.pid, signal.SIGKILL)


@dataclass
class Supervisor:
    """Children started together and stopped together; a context manager owning the signals."""

    children: Sequence[Child]
    #: Set by the first SIGTERM/SIGINT: the command is to stop.
    stopping: bool = False
    #: Set by a second signal: stop without waiting for graceful shutdowns.
    hurry: bool = False
    _previous: dict[int, object] = field(default_factory=dict)

    def __enter__(self) -> Supervisor:
        for signum in (signal.SIGTERM, signal.SIGINT):
            self._previous[signum] = signal.signal(signum, self._on_signal)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if self.stopping:
            self.hurry = True
        self.stopping = True

    def start(self) -> None:
        for child in self.children:
            child.start()

    def wait_for(self, ready: Callable[[], bool], child: Child, timeout: float) -> bool:
        """Poll ``ready`` (restarting other children as needed) until it is true.

        False if a signal came first, ``child`` exited first, another child was given up on, or
        ``timeout`` seconds passed.
        """
        deadline = time.monotonic() + timeout
        while not self.stopping and time.monotonic() < deadline:
            if child.exited() is not None:
                return False
            if ready():
                return True
            if self._tend(restart=True) is not None:
                return False
            time.sleep(POLL)
        return False

    def watch(self, restart: bool) -> int:
        """Until a signal (exit code 0) or a child's exit: restarted when ``restart``, else its code."""
        while not self.stopping:
            code = self._tend(restart)
            if code is not None:
                return code
            time.sleep(POLL)
        return 0

    def _tend(self, restart: bool) -> int | None:
        """Notice dead children and start due ones; the command's exit code when it must end."""
        now = time.monotonic()
        for child in self.children:
            if child.restart_at is not None:
                if now >= child.restart_at:
                    log(f"starting the {child.name} again")
                    child.start()
                continue
            code = child.exited()
            if code is None:
                continue
            child.kill_group()
            if not restart:
                log(f"the {child.name} {_describe(code)}")
                return 128 - code if code < 0 else code  # a shell's code for a signal
            child.failures = child.failures + 1 if now - child.started < QUICK else 0
            if child.failures >= GIVE_UP_AFTER:
                log(
                    f"the {child.name} {_describe(code)}, the {child.failures}th time in a row within "
                    f"{QUICK:.0f} s of starting; giving up (its log is above)"
                )
                return 1
            delay = min(2.0**child.failures, MAX_BACKOFF)
            log(f"the {child.name} {_describe(code)}; restarting it in {delay:.0f} s")
            child.restart_at = now + delay
        return None

    def stop(self) -> None:
        """SIGTERM every running child, wait for them, then kill what is left of their groups."""
        running = [c for c in self.children if c.process is not None and c.exited() is None]
        for child in running:
            assert child.process is not None
            child.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        while any(c.exited() is None for c in running) and time.monotonic() < deadline and not self.hurry:
            time.sleep(0.1)
        for child in self.children:
            child.kill_group()
            if child.process is not None:
                child.process.wait()
