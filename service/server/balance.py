"""Keep-alive connections spread evenly over the web processes.

Each web process listens on a socket of its own (``SO_REUSEPORT``), so the kernel hashes every new
connection to one of them, and a keep-alive connection stays with its process for its whole life.
Clients that keep a few connections open may find them split unevenly, and the busier process's
clients wait longer: spreading them evenly lowered the p99 of unpaced clients (figures:
docs/performance.md, "Keep-alive connections spread evenly over the workers"). So each
process counts its open connections in memory that gunicorn's master shares with all its workers,
and a process that holds more than its share lets connections go, one for each it holds over,
after their answers (``Connection: close``): the client's next connection is hashed anew.
"""

from __future__ import annotations

import mmap
import multiprocessing
import os
import time

#: Seconds between two connections one process lets go. A burst of new connections is counted by
#: each process only as it gets to them, and until then another may look over its share when it is
#: not: letting go at once told most of a burst to close (figures: docs/performance.md, "Keep-alive
#: connections spread evenly over the workers").
PAUSE = 0.05
#: Web processes one table counts. A process started after another died takes the dead one's slot;
#: past this many at once, a process does not count itself, and is never asked to let go.
SLOTS = 64


class ConnectionTable:
    """Every web process's open connections: made by gunicorn's master before it forks its
    workers, so that they all see one table; each worker writes only its own slot."""

    def __init__(self) -> None:
        memory = mmap.mmap(-1, 2 * SLOTS * 8)  # anonymous, so shared with the processes forked after
        self._slots = memoryview(memory).cast("q")  # pid, open connections; pid 0: a free slot
        self._joining = multiprocessing.Lock()
        self._slot: int | None = None
        self.open = 0
        #: This process's connections told to go, until they close.
        self._leaving: set[object] = set()
        self._last = float("-inf")

    def join(self) -> None:
        """Take a slot for this process, after the fork: a free one, or a dead process's."""
        with self._joining:
            for slot in range(SLOTS):
                pid = self._slots[2 * slot]
                if pid and not _alive(pid):
                    self._slots[2 * slot] = self._slots[2 * slot + 1] = 0
            free = [slot for slot in range(SLOTS) if not self._slots[2 * slot]]
            if free:
                self._slot = free[0]
                self._slots[2 * self._slot] = os.getpid()
                self._write()

    def opened(self) -> None:
        self.open += 1
        self._write()

    def closed(self, connection: object) -> None:
        self.open -= 1
        self._leaving.discard(connection)
        self._write()

    def let_go(self, connection: object) -> bool:
        """Whether ``connection``, whose request is being answered, should close after it: this
        process holds more than its even share of all the open connections, counting those
        already told to go as gone, and has let none go in the last :data:`PAUSE` seconds."""
        now = time.monotonic()
        if self._slot is None or now - self._last < PAUSE or connection in self._leaving:
            return False
        pids, counts = self._slots[0::2].tolist(), self._slots[1::2].tolist()
        processes = SLOTS - pids.count(0)
        if self.open - len(self._leaving) <= -(-sum(counts) // processes):
            return False
        self._leaving.add(connection)
        self._last = now
        return True

    def held(self) -> dict[int, int]:
        """Each counted process's open connections, by pid."""
        slots = self._slots.tolist()
        return {pid: count for pid, count in zip(slots[0::2], slots[1::2], strict=True) if pid}

    def _write(self) -> None:
        if self._slot is not None:
            self._slots[2 * self._slot + 1] = self.open


def _alive(pid: int) -> bool:
    """Whether a process of this user has the pid (a worker's, or one that took it since)."""
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True
