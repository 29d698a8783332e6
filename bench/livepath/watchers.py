"""Watchers: open streams and long-polls spread over live games, while the games play.

Each stream follows its table: it opens ``/stream?after=<current version>`` and, when the table's
game is replaced, moves to the new one. Each poller re-issues ``/state?wait=30&since=<known>``
whenever it returns, on a connection of its own (:mod:`livepath.keepalive`). A catalog reader
asks ``/catalog`` every 100 ms; its calls while the watchers connect are timed apart from those in
the window. Nothing here waits longer than the client timeout for an answer to begin, and the run
cancels everything at its end.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field

from livepath.client import TIMEOUT, Api, Tally
from livepath.keepalive import KeepAlive
from livepath.players import Table, Window
from livepath.sse import Stream

#: The long-poll's ``wait`` in seconds, as a client of the API would ask.
POLL_WAIT = 30
#: Seconds between catalog requests.
CATALOG_EVERY = 0.1
#: The sleep by which the driver times its own event loop's lag, in seconds.
LAG_PROBE = 0.01


@dataclass
class Watched:
    """What the watchers saw; ``segments`` is one stream on one game each."""

    segments: list[Stream] = field(default_factory=list)
    polls: Tally = field(default_factory=Tally)
    poll_delays: list[float] = field(default_factory=list)
    catalog: Tally = field(default_factory=Tally)
    #: ``/catalog`` while the watchers connect, before the window (1,500 requests at once).
    catalog_connecting: Tally = field(default_factory=Tally)
    #: How late this driver's event loop woke a short sleep, in seconds, within the window.
    lag: list[float] = field(default_factory=list)
    #: Set when the timed window starts, with every watcher open.
    window: Window | None = None


async def _until_replaced(table: Table, work: Awaitable[object]) -> None:
    """Run ``work`` until it finishes or the table's game is replaced, whichever comes first."""
    task = asyncio.ensure_future(work)
    replaced = asyncio.ensure_future(table.replaced.wait())
    try:
        await asyncio.wait({task, replaced}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for pending in (task, replaced):
            pending.cancel()
        await asyncio.gather(task, replaced, return_exceptions=True)


async def follow_stream(api: Api, table: Table, watched: Watched) -> None:
    """Follow the table's game on a stream; when the game is replaced, open one on the new game
    and keep the old one until its last moves have arrived, as a client would read a stream to the
    end of its game (the watchers run without a worker, so no game is scored and ends the stream)."""
    finishing: set[asyncio.Task[None]] = set()
    try:
        while True:
            stream = Stream(api, table.game_id, table.version)
            watched.segments.append(stream)
            running = asyncio.ensure_future(stream.run())
            replaced = asyncio.ensure_future(table.replaced.wait())
            await asyncio.wait({running, replaced}, return_when=asyncio.FIRST_COMPLETED)
            replaced.cancel()
            if not running.done():
                last = max(table.history.get(stream.game_id, {}), default=stream.after)
                finish = asyncio.ensure_future(_read_to(stream, running, last))
                finishing.add(finish)
                finish.add_done_callback(finishing.discard)
                continue
            if stream.game_id != table.game_id:
                continue
            if stream.ended:
                await table.replaced.wait()  # a finished game: follow the table's next one
            else:
                await asyncio.sleep(1.0)  # refused, timed out or closed: reconnect, gently
    finally:
        for task in finishing:
            task.cancel()
        await asyncio.gather(*finishing, return_exceptions=True)


async def _read_to(stream: Stream, running: asyncio.Future[None], last: int) -> None:
    """Keep ``stream`` open until version ``last`` has arrived (or the client timeout), then close it."""
    try:
        if last > stream.after:
            await stream.first_after(last - 1, TIMEOUT)
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)


async def settled(watched: Watched, history: dict[str, dict[int, float]], window: Window) -> None:
    """Wait until every open stream has every version committed within the window, or the client
    timeout: a frame that comes late is late, not lost."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline and delivery(watched, history, window).missing:
        await asyncio.sleep(0.25)


async def poll(api: Api, table: Table, watched: Watched) -> None:
    connection = KeepAlive(api.base)
    try:
        while True:
            await _until_replaced(table, _poll_game(connection, table, table.game_id, table.version, watched))
    finally:
        connection.close()


async def _poll_game(connection: KeepAlive, table: Table, game_id: str, known: int, watched: Watched) -> None:
    while True:
        target = f"/api/v1/games/{game_id}/state?wait={POLL_WAIT}&since={known}"
        answer = await connection.get(target, timeout=POLL_WAIT + TIMEOUT)
        if answer.status == 304:
            continue
        if not watched.polls.record(answer, 200) or answer.version is None:
            await asyncio.sleep(1.0)
            continue
        committed = table.history.get(game_id, {}).get(known + 1)
        if committed is not None:
            watched.poll_delays.append(answer.arrived - committed)
        known = answer.version


async def read_catalog(api: Api, watched: Watched) -> None:
    tick = time.monotonic()
    while True:
        answer = await api.call("GET", "/catalog")
        window = watched.window
        if window is None:
            watched.catalog_connecting.record(answer, 200)
        elif window.start <= answer.arrived - answer.seconds and window.holds(answer):
            watched.catalog.record(answer, 200)
        tick += CATALOG_EVERY
        await asyncio.sleep(max(0.0, tick - time.monotonic()))


async def probe_lag(watched: Watched) -> None:
    """Time how late the driver's one event loop wakes a short sleep. Every time the driver records
    (a 201, a frame's arrival) can be late by as much, so the delivery figures include it."""
    while True:
        start = time.monotonic()
        await asyncio.sleep(LAG_PROBE)
        window = watched.window
        if window is not None and window.start <= start and window.open:
            watched.lag.append(time.monotonic() - start - LAG_PROBE)


@dataclass(frozen=True)
class Delivery:
    """How the streams kept up with the 201s that reached the players within the window."""

    opened: int
    refused: int
    #: Streams still waiting for an answer when the run ended.
    waiting: int
    complete: int
    followed: int
    missing: int
    delays: list[float]
    #: Of ``delays``, those of the versions committed once their stream was open (its head had
    #: arrived): what a move costs to reach a stream, without the wait for a new stream to open.
    open_delays: list[float]
    #: Of the streams asked for within the window, the seconds from the request to the answer's
    #: head: the versions a stream's first frame carries waited that long.
    openings: list[float]


def delivery(watched: Watched, history: dict[str, dict[int, float]], window: Window) -> Delivery:
    """Compare each open stream's versions with those its game reached within the window."""
    complete = followed = missing = 0
    delays: list[float] = []
    open_delays: list[float] = []
    openings = [
        s.answered_at - s.asked_at
        for s in watched.segments
        if s.asked_at is not None and s.answered_at is not None
        if window.start <= s.asked_at <= window.deadline
    ]
    for stream in watched.segments:
        if stream.status != 200:
            continue
        committed = history.get(stream.game_id, {})
        expected = {v: t for v, t in committed.items() if v > stream.after and t <= window.deadline}
        if not expected:
            continue
        followed += 1
        lost = [v for v in expected if v not in stream.arrivals]
        missing += len(lost)
        complete += not lost
        opened_at = stream.answered_at if stream.answered_at is not None else math.inf
        for version, committed_at in expected.items():
            if version in stream.arrivals:
                delays.append(stream.arrivals[version] - committed_at)
                if committed_at >= opened_at:
                    open_delays.append(delays[-1])
    opened = sum(s.status == 200 for s in watched.segments)
    refused = sum(s.status not in (200, "connecting") for s in watched.segments)
    waiting = sum(s.status == "connecting" for s in watched.segments)
    return Delivery(opened, refused, waiting, complete, followed, missing, delays, open_delays, openings)
