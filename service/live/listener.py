"""Waiting for a game's next version, with no thread and no connection held per waiter.

One listener per process LISTENs on the events channel and wakes the waiters of the game each
NOTIFY names. Under gunicorn's gevent worker (``kotlik up``) a waiter is a greenlet parked on an
event, so thousands of streams and long-polls cost memory, not threads; under a threaded server
the same code parks threads. The listener keeps the newest version it heard of each game, so a
commit that lands between a request's read and its wait still wakes it.

Only the games some process leases as watched notify (alembic ``0009``: a notifying commit holds
a server-wide lock while it flushes). A game is *covered* here (:meth:`Listener.mark`) once this
process has leased it in ``watched`` and then read its version, waiting for any append already
under way (:meth:`Listener.cover`): from then on the listener hears every commit of it, or will.
What the process remembers of any other game may be old. The listener renews the leases of the
games waited on here halfway through, and covers those a waiter asked for that nothing covered.
If the listening connection drops, notifications may be lost: on reconnecting it covers the games
waited on afresh, and wakes their waiters.

A notification carries the move itself (:mod:`events.notes`) when it fits. The listener hands
every notification to its followers (:meth:`Listener.follow`) before it wakes the game's waiters,
so that they find the move already in the process's copies of the game.

The same connection also listens for seeks closing (:data:`projections.seeks.CHANNEL`): a waiter
on a seek (:meth:`Listener.signals`) is woken when the transaction that paired, cancelled or
expired it commits. No lease is needed there: every such commit notifies.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import psycopg
from flask import current_app
from psycopg.rows import tuple_row

from events import CHANNEL
from events.notes import Note, parse
from projections.seeks import CHANNEL as SEEKS

log = logging.getLogger(__name__)

#: How many games' newest versions the listener remembers (a few MB at most), unless
#: ``KOTLIK_HEARD_GAMES`` says otherwise.
HEARD_KEPT = 100_000
#: Seconds a lease on a watched game lasts; the listener renews it halfway.
LEASE = 300.0
#: Seconds before its lease ends that the listener stops counting a game as covered (the database's
#: clock and this process's may differ a little).
MARGIN = 5.0
#: Seconds between the listener's looks at which games to lease. A game's watchers arrive with its
#: first moves, and until its lease each of those moves is read back by every process that waits on
#: it: under load, a second of them put the streams of a new game seconds behind.
LEASE_EVERY = 0.1
_LEASE = (
    "INSERT INTO watched (game_id, until) SELECT unnest(%s::uuid[]), now() + make_interval(secs => %s) "
    "ON CONFLICT (game_id) DO UPDATE SET until = greatest(watched.until, excluded.until)"
)
#: Read after the lease commits: ``FOR SHARE`` waits for an append that began before the lease was
#: seen (it holds the row's lock) and then reads the version it wrote.
_VERSIONS = "SELECT id, version FROM games WHERE id = ANY(%s) FOR SHARE"
#: One game leased and its version read in one transaction: its ``FOR SHARE`` lock, held until the
#: lease commits, makes an append either finish before the read or see the lease.
_COVER = f"WITH lease AS ({_LEASE}) {_VERSIONS}"


def current() -> Listener:
    """The running app's listener (put in ``app.extensions`` by :func:`service.app.create_app`)."""
    return current_app.extensions["kotlik.listener"]  # type: ignore[no-any-return]


class Listener:
    """The process's one LISTEN connection, fanned out to waiters by game."""

    def __init__(self, url: str, size: int = HEARD_KEPT) -> None:
        self.url = url
        self.size = size
        self._latest: OrderedDict[UUID, int] = OrderedDict()
        self._waiters: dict[UUID, set[threading.Event]] = {}
        self._lock = threading.Lock()
        self._listening = threading.Event()
        #: Counts the LISTENs: a cover taken within one holds only while it lasts.
        self._epoch = 0
        self._followers: list[Callable[[Note], None]] = []
        #: Games waited on since the listener last leased.
        self._wanted: set[UUID] = set()
        #: The covered games: a mark for each span of cover, and when the cover ends.
        self._covered: dict[UUID, tuple[int, float]] = {}
        self._marks = itertools.count(1)
        self._swept = time.monotonic()
        #: The waiters on a seek's closing, by the seek's id.
        self._signals: dict[UUID, set[threading.Event]] = {}

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

    @contextmanager
    def signals(self, key: UUID) -> Iterator[threading.Event]:
        """An event set when a notification on :data:`SEEKS` names ``key``, or when the listener
        has reconnected (a notification may have been lost meanwhile). Take it before reading what
        it announces: a commit after that read then sets it."""
        woken = threading.Event()
        with self._lock:
            self._signals.setdefault(key, set()).add(woken)
        try:
            yield woken
        finally:
            with self._lock:
                waiting = self._signals.get(key)
                if waiting is not None:
                    waiting.discard(woken)
                    if not waiting:
                        del self._signals[key]

    def _signal(self, key: UUID | None) -> None:
        """Wake the waiters on ``key`` (on every key: ``None``)."""
        with self._lock:
            if key is None:
                woken = [e for events in self._signals.values() for e in events]
            else:
                woken = list(self._signals.get(key, ()))
        for event in woken:
            event.set()

    def latest(self, game_id: UUID) -> int:
        """The newest version of the game this process has heard of (0: none since it started)."""
        return self._latest.get(game_id, 0)

    def listening(self) -> bool:
        return self._listening.is_set()

    def mark(self, game_id: UUID) -> int | None:
        """A mark of now for the game if it is covered (every commit of it reaches this listener),
        else ``None``: see :meth:`unbroken`."""
        cover = self._covered.get(game_id)
        if cover is None or not self._listening.is_set() or cover[1] <= time.monotonic():
            return None
        return cover[0]

    def unbroken(self, game_id: UUID, mark: int | None) -> bool:
        """Whether the game has been covered without a break since ``mark`` was taken, so that
        every commit of it since then has been heard (or is on its way)."""
        return mark is not None and self.mark(game_id) == mark

    def cover(self, conn: psycopg.Connection[Any], game_id: UUID) -> int | None:
        """Cover the game now, on the caller's connection (in autocommit), and return its mark
        (``None`` while the listener is not listening, or for a game that does not exist)."""
        if (mark := self.mark(game_id)) is not None:
            return mark
        with self._lock:
            epoch, listening = self._epoch, self._listening.is_set()
        if not listening:
            return None
        now = time.monotonic()
        with conn.cursor(row_factory=tuple_row) as cur:
            versions = cur.execute(_COVER, ([game_id], LEASE, [game_id])).fetchall()
        for found, version in versions:
            self._heard(found, int(version))
        return self._covered_from(epoch, now, [found for found, _ in versions]).get(game_id)

    def __len__(self) -> int:
        """How many entries it holds now."""
        return len(self._latest)

    def clear(self) -> None:
        """Forget the versions heard, as a restart does: a waiter then wakes on the game's next
        notification or its timeout, and a reader asks the database."""
        with self._lock:
            self._latest.clear()

    def waiting(self) -> int:
        with self._lock:
            return sum(len(w) for w in self._waiters.values())

    def _heard(self, game_id: UUID, version: int) -> None:
        with self._lock:
            if version > self._latest.get(game_id, 0):
                self._latest[game_id] = version
                self._latest.move_to_end(game_id)
                while len(self._latest) > self.size:
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
                    conn.execute(f"LISTEN {SEEKS}")
                    with self._lock:
                        self._epoch += 1
                        self._covered.clear()
                    self._cover(conn)
                    self._listening.set()
                    self._signal(None)  # what closed while nobody listened is read again
                    backoff = 0.1
                    while True:
                        for notification in conn.notifies(timeout=LEASE_EVERY):
                            if notification.channel == SEEKS:
                                self._signal(UUID(notification.payload))
                                continue
                            note = parse(notification.payload)
                            self._tell(note)
                            self._heard(note.game_id, note.version)
                        self._cover(conn)
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

    def _cover(self, conn: psycopg.Connection[Any]) -> None:
        """Lease the games waited on whose leases are not fresh, read the version of those not
        covered till now, and drop long-expired leases."""
        now = time.monotonic()
        with self._lock:
            epoch = self._epoch
            wanted, self._wanted = self._wanted, set()
            wanted.update(self._waiters)
        ends = {game_id: self._covered.get(game_id, (0, 0.0))[1] for game_id in wanted}
        due = [game_id for game_id, end in ends.items() if end < now + LEASE / 2]
        fresh = [game_id for game_id in due if ends[game_id] <= now]
        sweep = now - self._swept > LEASE
        try:
            if due:
                conn.execute(_LEASE, (due, LEASE))
            if sweep:
                conn.execute("DELETE FROM watched WHERE until < now() - make_interval(secs => %s)", (LEASE,))
        except psycopg.errors.UndefinedTable:  # a schema before alembic 0008: every append notifies
            log.warning("no table watched (run `kotlik migrate`): streams read every move")
            due = []
        for game_id, version in conn.execute(_VERSIONS, (fresh,)).fetchall() if fresh else ():
            self._heard(game_id, int(version))
        self._covered_from(epoch, now, due)
        if sweep:
            with self._lock:
                self._covered = {g: cover for g, cover in self._covered.items() if cover[1] > now}
            self._swept = now

    def _covered_from(self, epoch: int, leased: float, games: list[UUID]) -> dict[UUID, int]:
        """Count ``games`` as covered till their leases, taken at ``leased``, run out; their marks.
        A game covered till now keeps its mark. None is, if the listener has not listened
        throughout since ``epoch`` began."""
        with self._lock:
            if epoch != self._epoch:
                return {}
            for game_id in games:
                cover = self._covered.get(game_id)
                mark = next(self._marks) if cover is None or cover[1] <= leased else cover[0]
                self._covered[game_id] = (mark, leased + LEASE - MARGIN)
            return {game_id: self._covered[game_id][0] for game_id in games}
