"""A connection pool whose requests wait their turn in line on gevent's loop.

psycopg_pool is written for threads: a request that finds every connection taken waits on a
condition variable, with a lock taken around each step, and under gevent each of those is a
greenlet parking on the hub and being woken again. On a busy web process that is most requests,
and a round trip costs less CPU when it first waits in a :class:`Line`, which lets through only as
many requests as there are connections, so that psycopg_pool always has one ready (figures:
docs/performance.md, "Requests wait for a connection in a line on gevent's loop").

The line is first come, first served, and a request leaving hands its place to the first one
waiting. A semaphore would let a request arriving just then take the place before the waiter
woken for it runs: tried in front of the pool, that raised the p99 of unpaced clients (figures:
docs/performance.md, "Where the unpaced p99 comes from").
"""

from __future__ import annotations

from collections import deque
from time import monotonic
from typing import Any

import gevent.monkey
from gevent.hub import Waiter, get_hub
from psycopg import Connection
from psycopg_pool import ConnectionPool, PoolTimeout

#: What a waiter is woken with when its time is up.
_TIMED_OUT = object()


class Line:
    """At most ``places`` holders at once; the others wait first come, first served."""

    def __init__(self, places: int) -> None:
        self._free = places
        self._waiting: deque[Waiter] = deque()

    def enter(self, timeout: float) -> bool:
        """Wait for a place, at most ``timeout`` seconds; whether one was taken."""
        if self._free and not self._waiting:
            self._free -= 1
            return True
        waiter = Waiter()
        self._waiting.append(waiter)
        timer = get_hub().loop.timer(max(timeout, 0.0))
        timer.start(waiter.switch, _TIMED_OUT)
        try:
            entered = waiter.get() is not _TIMED_OUT
        except BaseException:
            self._withdraw(waiter)
            raise
        finally:
            timer.close()
        if not entered:
            self._withdraw(waiter)
        return entered

    def leave(self) -> None:
        """Give the place up: to the first waiter, if there is one."""
        if self._waiting:
            get_hub().loop.run_callback(self._waiting.popleft().switch, None)
        else:
            self._free += 1

    def _withdraw(self, waiter: Waiter) -> None:
        """Take a waiter that gave up out of the line; a place handed to it as it gave up goes on
        to the next."""
        if waiter in self._waiting:
            self._waiting.remove(waiter)
        else:
            self.leave()


class GreenPool(ConnectionPool):
    """psycopg's pool, entered through a :class:`Line` as long as it has connections to give."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._line = Line(self.max_size)

    def getconn(self, timeout: float | None = None) -> Connection[Any]:
        timeout = self.timeout if timeout is None else timeout
        deadline = monotonic() + timeout
        if not self._line.enter(timeout):
            raise PoolTimeout(f"couldn't get a connection after {timeout:.2f} sec")
        try:
            return super().getconn(max(deadline - monotonic(), 0.0))
        except BaseException:
            self._line.leave()
            raise

    def putconn(self, conn: Connection[Any]) -> None:
        try:
            super().putconn(conn)
        finally:
            self._line.leave()


def pool_class() -> type[ConnectionPool]:
    """:class:`GreenPool` where gevent has patched the process (``kotlik web``), else psycopg's."""
    return GreenPool if gevent.monkey.is_module_patched("threading") else ConnectionPool
