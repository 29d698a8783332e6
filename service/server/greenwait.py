"""psycopg's waits on gevent's loop itself, for the gevent worker that ``kotlik up`` runs.

Once gevent has patched ``select``, psycopg waits for its socket through the patched
``select.poll``: every wait builds a poll object, a watcher and a timeout in Python, a large share
of a round trip's CPU, three times a command (figures: docs/performance.md, "Figures formerly
quoted in the code"). Here a wait is one io watcher on the hub's loop (and a timer only when the
caller set a timeout). psycopg's periodic wake-up (``interval``) exists to let a blocked thread
see Ctrl-C; the hub handles signals itself, so a wait without a timeout sleeps until its socket is
ready.

A wait that may be met by a writable socket is first checked without parking: psycopg's pipeline
waits for either direction after each statement it queues, and the socket is nearly always
writable at once, so parking there cost a pass of the hub's loop each time (six for a game's
cold load and lobby read in one pipeline), and on a busy process each pass is a wait behind every
other request.
"""

from __future__ import annotations

import select
from time import monotonic
from typing import Any

import gevent.monkey
from gevent.hub import Waiter, get_hub
from psycopg import errors, waiting
from psycopg.abc import RV, PQGen
from psycopg.waiting import READY_R, READY_W, Wait

#: libev's event bits for what psycopg's generator waits for.
_EVENTS = {Wait.R: 1, Wait.W: 2, Wait.RW: 3}
#: The same for ``poll(2)``, asked without parking (the unpatched ``select.poll``).
_POLL_EVENTS = {1: select.POLLIN, 2: select.POLLOUT, 3: select.POLLIN | select.POLLOUT}
_poll = gevent.monkey.get_original("select", "poll")


def wait(gen: PQGen[RV], fileno: int, interval: float = 0.0, timeout: float | None = None) -> RV:
    """Run ``gen`` to its end, parking the greenlet on the hub whenever the socket is not ready
    (the signature of :func:`psycopg.waiting.wait`)."""
    hub = get_hub()
    deadline = None if timeout is None else monotonic() + timeout
    try:
        state = next(gen)
        while True:
            wanted = _EVENTS[state]
            events = (wanted & 2 and _ready_now(fileno, wanted)) or _ready(hub, fileno, wanted, deadline)
            state = gen.send((READY_R if events & 1 else 0) | (READY_W if events & 2 else 0))
            if deadline is not None and monotonic() >= deadline:
                raise errors._WaitTimeout("wait timeout expired")
    except StopIteration as stop:
        result: RV = stop.value
        return result


def _ready_now(fileno: int, wanted: int) -> int:
    """The wanted events ``fileno`` has now, without waiting (0 if none)."""
    poller = _poll()
    poller.register(fileno, _POLL_EVENTS[wanted])
    found = poller.poll(0)
    if not found:
        return 0
    revents = found[0][1]
    return (1 if revents & select.POLLIN else 0) | (2 if revents & select.POLLOUT else 0)


def _ready(hub: Any, fileno: int, wanted: int, deadline: float | None) -> int:
    """The events that came on ``fileno`` (0 once ``deadline`` has passed)."""
    waiter = Waiter(hub)
    io = hub.loop.io(fileno, wanted)
    io.start(waiter.switch, pass_events=True)
    timer = None
    if deadline is not None:
        timer = hub.loop.timer(max(0.0, deadline - monotonic()))
        timer.start(waiter.switch, 0)
    try:
        return int(waiter.get())
    finally:
        io.stop()
        if timer is not None:
            timer.stop()


def install() -> bool:
    """Make psycopg wait this way if gevent has patched this process; whether it now does."""
    if not gevent.monkey.is_module_patched("select"):
        return False
    waiting.wait = wait
    return True
