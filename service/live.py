"""Waiting for a game's next version, with no thread and no connection held per waiter.

One listener per process LISTENs on the events channel and wakes the waiters of the game each
NOTIFY names. Under gunicorn's gevent worker (``kotlik up``) a waiter is a greenlet parked on an
event, so thousands of streams and long-polls cost memory, not threads; under a threaded server
the same code parks threads. The listener keeps the newest version it heard of each game, so a
commit that lands between a request's read and its wait still wakes it. If the listening
connection drops, notifications may be lost: on reconnecting it asks the database for the version
of every game someone waits on, and wakes them.

A notification carries the move itself (:mod:`events.notes`) for a game that some process
leases as watched: the listener leases, in ``watched``, the games waited on here, renewing each
lease halfway through. It hands every notification to its followers (:meth:`Listener.follow`)
before it wakes the game's waiters, so that they find the move already in the process's copies
of the game.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any
from uuid import UUID

import psycopg

from events import CHANNEL
from events.notes import Note, parse

log = logging.getLogger(__name__)

#: How many games' newest versions the listener remembers (a few MB at most).
REMEMBERED = 100_000
#: Seconds a lease on a watched game lasts; the listener renews it halfway.
LEASE = 300.0
#: Seconds between the listener's looks at which games to lease. A game's watchers arrive with its
#: first moves, and until its lease each of those moves is read back by every process that waits on
#: it: under load, a second of them put the streams of a new game seconds behind.
LEASE_EVERY = 0.1
_LEASE = (
    "INSERT INTO watched (game_id, until) SELECT unnest(%s::uuid[]), now() + make_interval(secs => %s) "
    "ON CONFLICT (game_id) DO UPDATE SET until = greatest(watched.until, excluded.until)"
)


class Listener:
    """The process's one LISTEN connection, fanned out to waiters by game."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._latest: OrderedDict[UUID, int] = OrderedDict()
        self._waiters: dict[UUID, set[threading.Event]] = {}
        self._lock = threading.Lock()
        self._listening = threading.Event()
        #: Counts the LISTENs: a mark taken at one and still current has heard every commit since.
        self._epoch = 0
        self._followers: list[Callable[[Note], None]] = []
        #: Games waited on since the listener last leased, and when this process's leases run out.
        self._wanted: set[UUID] = set()
        self._leased: dict[UUID, float] = {}
        self._swept = time.monotonic()

    def start(self, timeout: float = 10.0) -> Listener:
        threading.Thread(target=self._run, name="kotlik-listener", daemon=True).start()
        if not self._listening.wait(timeout):
            log.warning("the listener is not connected yet; waiters fall back to their timeouts")
        return self

    def follow(self, follower: Callable[[Note], None]) -> None:
        """Hand every notification to ``follower``, in commit order, before its waiters wake."""
        self._followers.append(follower)

    def wait(self, game_id: UUID, after: int, timeout: float) -> int | None:
        """The game's newest version once it passes ``after``; ``None`` after ``timeout`` seconds."""
        woken = threading.Event()
        with self._lock:
            self._waiters.setdefault(game_id, set()).add(woken)
            self._wanted.add(game_id)
        try:
            deadline = time.monotonic() + timeout
            while (latest := self._latest.get(game_id, 0)) <= after:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                woken.wait(remaining)
                woken.clear()
            return latest
        finally:
            with self._lock:
                waiting = self._waiters.get(game_id)
                if waiting is not None:
                    waiting.discard(woken)
                    if not waiting:
                        del self._waiters[game_id]

    def latest(self, game_id: UUID) -> int:
        """The newest version of the game this process has heard of (0: none since it started)."""
        return self._latest.get(game_id, 0)

    def mark(self) -> int | None:
        """A mark of now, if the listener is listening: see :meth:`unbroken`."""
        return self._epoch if self._listening.is_set() else None

    def unbroken(self, mark: int | None) -> bool:
        """Whether the listener has listened without a break since ``mark`` was taken, so that
        every commit since then has been heard (or is on its way)."""
        return mark is not None and self._listening.is_set() and mark == self._epoch

    def waiting(self) -> int:
        with self._lock:
            return sum(len(w) for w in self._waiters.values())

    def _heard(self, game_id: UUID, version: int) -> None:
        with self._lock:
            if version > self._latest.get(game_id, 0):
                self._latest[game_id] = version
                self._latest.move_to_end(game_id)
                while len(self._latest) > REMEMBERED:
                    self._latest.popitem(last=False)
            woken = list(self._waiters.get(game_id, ()))
        for event in woken:
            event.set()

    def _run(self) -> None:
        backoff = 0.1
        while True:
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._epoch += 1
                    self._leased.clear()
                    self._catch_up(conn)
                    self._listening.set()
                    backoff = 0.1
                    while True:
                        for notification in conn.notifies(timeout=LEASE_EVERY):
                            note = parse(notification.payload)
                            self._tell(note)
                            self._heard(note.game_id, note.version)
                        self._lease(conn)
            except psycopg.Error as e:
                self._listening.clear()
                log.warning("the listener lost the database (%s); reconnecting in %.1f s", e, backoff)
                time.sleep(backoff)
                backoff = min(backoff * 2, 5.0)

    def _tell(self, note: Note) -> None:
        for follower in self._followers:
            try:
                follower(note)
            except Exception:  # a follower's bug loses it this note; the listener goes on
                log.exception("a follower failed on version %d of %s", note.version, note.game_id)

    def _lease(self, conn: psycopg.Connection[Any]) -> None:
        """Lease the games waited on lately whose leases are not fresh; drop long-expired ones."""
        now = time.monotonic()
        with self._lock:
            wanted, self._wanted = self._wanted, set()
        due = [game_id for game_id in wanted if self._leased.get(game_id, 0.0) < now + LEASE / 2]
        sweep = now - self._swept > LEASE
        try:
            if due:
                conn.execute(_LEASE, (due, LEASE))
            if sweep:
                conn.execute("DELETE FROM watched WHERE until < now() - make_interval(secs => %s)", (LEASE,))
        except psycopg.errors.UndefinedTable:  # a schema before alembic 0008: notes carry nothing
            log.warning("no table watched (run `kotlik migrate`): streams read every move")
        self._leased.update((game_id, now + LEASE) for game_id in due)
        if sweep:
            self._leased = {g: until for g, until in self._leased.items() if until > now}
            self._swept = now

    def _catch_up(self, conn: psycopg.Connection[Any]) -> None:
        """After a (re)connect: what did the games being waited on do while nobody listened?"""
        with self._lock:
            games = list(self._waiters)
        if not games:
            return
        for game_id, version in conn.execute(
            "SELECT id, version FROM games WHERE id = ANY(%s)", (games,)
        ).fetchall():
            self._heard(game_id, int(version))
