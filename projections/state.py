"""A game's state, loaded in one call: the cache, else the newest snapshot and the events after it.

:class:`States` is what every reader and the write side ask for a game's state
(:meth:`States.load`, or :meth:`States.with_row` with its lobby row in the same round trip), as
``Repository.get`` is in the ``eventsourcing`` library; :mod:`projections.fold` does the folding
and the snapshot queries beneath it. Each app holds one :class:`States`
(:class:`projections.caches.Caches`), sized by ``KOTLIK_CACHE_GAMES``.

The lobby row is the authority on a game's version; the cache is asked for the state *at* the
version the caller just read there. An entry at that version answers at once (as does one that
holds it among its few earlier states, for a caller whose row is a commit behind), an older one is
brought forward by the events after it (read once, however many requests wait for them), and a
missing one is loaded from the newest snapshot. Entries are written only from committed events, so
the cache can be stale but never wrong, and deleting it (a restart) loses nothing but speed. It also
keeps each game's newest events, so the streams of one game share one read of what was appended.

Engines never mutate a state they are given (``games/interface.py``), so one cached state may be
handed to any number of readers and to ``decide`` and ``evolve``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from psycopg import Connection

from events import StoredEvent, read
from events.store import later
from games.interface import Rules
from projections.fold import Folded, Unrestorable, fold, newest_later, restorer, state_at
from projections.lobby import GameRow

#: How many of a game's newest events an entry keeps for streams and ``/events?after=`` (and all
#: of its last write's, however many). A stream is most often one write behind, and every event
#: kept is several objects the garbage collector walks in full collections that stop the
#: process, and with 64 those pauses made the tail of the commands' latency (figures:
#: docs/performance.md, "The collector's pauses, and a game another process made").
RECENT = 16
#: How many states before the newest an entry keeps, for readers whose lobby row is a commit or
#: two behind it (a long-poll woken by one commit that answers after the next).
EARLIER = 4


@dataclass(frozen=True)
class Entry:
    folded: Folded
    #: The newest events, oldest first, the last one at ``folded.version`` (fewer after a cold load).
    recent: tuple[StoredEvent, ...] = ()
    #: The lobby row (seed included) a command of this process last read, for its parts that never
    #: change (rules, seats, options, clock, seed); its version, seats to move and status may be old.
    row: GameRow | None = None
    #: A few states before ``folded``, oldest first.
    earlier: tuple[Folded, ...] = ()

    def at(self, version: int) -> Folded | None:
        """The state at ``version`` if the entry holds it."""
        if self.folded.version == version:
            return self.folded
        return next((f for f in self.earlier if f.version == version), None)


class States:
    """Games' states: a bounded, thread-safe (and greenlet-safe) map from game id to its newest
    known state, in front of the snapshots and the log."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[UUID, Entry] = OrderedDict()
        self._lock = threading.Lock()
        # Striped: a game's tail is read by one request while the others of that game wait for it.
        self._folding = [threading.Lock() for _ in range(64)]
        #: States answered from the cache, and those read from the database (for the metrics).
        self.hits = 0
        self.misses = 0

    def get(self, game_id: UUID) -> Entry | None:
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is not None:
                self._entries.move_to_end(game_id)
            return entry

    def put(
        self, game_id: UUID, folded: Folded, appended: Sequence[StoredEvent] = (), row: GameRow | None = None
    ) -> None:
        """Remember ``folded`` (with the events that led to it) unless something newer is known."""
        with self._lock:
            old = self._entries.get(game_id)
            if old is not None and old.folded.version >= folded.version:
                if row is not None and old.row is None and old.folded.version == folded.version:
                    self._entries[game_id] = replace(old, row=row)  # the listener came first
                return
            recent: tuple[StoredEvent, ...] = tuple(appended)
            if old is not None and recent and recent[0].version == old.folded.version + 1:
                recent = old.recent + recent
            earlier: tuple[Folded, ...] = ()
            if old is not None:
                row = row or old.row
                earlier = (*old.earlier, old.folded)[-EARLIER:]
            kept = recent[-max(RECENT, len(appended)) :]
            self._entries[game_id] = Entry(folded, kept, row, earlier)
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def advance(self, game_id: UUID, game: Rules, events: Sequence[StoredEvent]) -> None:
        """Bring the cached state forward by ``events`` if they are the ones right after it (as a
        notification carries them); any other entry is left for a read to bring forward."""
        entry = self.get(game_id)
        if entry is None or not events or entry.folded.version != events[0].version - 1:
            return
        try:  # an undo returns to a state the entry may not hold: a read folds it then
            folded = Folded(fold(game, (e.body() for e in events), entry.folded.state), events[-1].version)
        except Unrestorable:
            return
        self.put(game_id, folded, events)

    def held(self, game_id: UUID, version: int) -> Folded | None:
        """The state at ``version`` if the cache holds it, else ``None``: no query either way, so
        a caller takes a connection only when it must."""
        entry = self.get(game_id)
        return None if entry is None else entry.at(version)

    def load(self, conn: Connection[Any], game_id: UUID, game: Rules, version: int) -> Folded:
        """The state at ``version``, which the caller has just read from the lobby row."""
        if (held := self.held(game_id, version)) is not None:
            self.hits += 1
            return held
        self.misses += 1
        with self._folding[hash(game_id) % len(self._folding)]:
            entry = self.get(game_id)
            if entry is None:
                folded = state_at(conn, game_id, game, at=version)
                self.put(game_id, folded)
                return folded
            if (held := entry.at(version)) is not None:
                return held
            if entry.folded.version > version:  # the caller read the lobby before newer commits
                return state_at(conn, game_id, game, at=version)
            tail = read(conn, game_id, after=entry.folded.version, upto=version)
            restore = restorer(conn, game_id, game)
            folded = Folded(fold(game, (e.body() for e in tail), entry.folded.state, restore), version)
            self.put(game_id, folded, tail)
            return folded

    def with_row(
        self,
        conn: Connection[Any],
        game_id: UUID,
        ask_row: Callable[[Connection[Any]], Callable[[], GameRow]],
        newest: Callable[[UUID], int] | None = None,
    ) -> tuple[GameRow, Folded]:
        """The lobby row ``ask_row`` asks for (:func:`projections.lobby.later`) and the state at its
        version, in one round trip: for a game in the cache, the events after the cached state are
        asked for in the same pipeline; for one not in it, its newest snapshot and the events after
        it (:meth:`_load`). Every result is taken after the pipeline, whose end is then its only
        round trip.

        The events are asked for first, so none is newer than the row, though they may end before
        its version (a commit in between); then the state is brought forward as :meth:`load` does.
        With ``newest`` (the newest version of the game this process has heard of, from the web's
        listener) no newer than the cached state, the row is read alone: the tail is most likely
        empty, and a pipeline of two statements costs psycopg far more CPU than one (figures:
        docs/performance.md, "A seat's `/actions` and commands beneath Flask"). Should the row
        be newer after all (its notification still on its way), the tail is read after it.
        """
        entry = self.get(game_id)
        if entry is None:
            self.misses += 1
            return self._load(conn, game_id, ask_row)
        if newest is not None and newest(game_id) <= entry.folded.version:
            row = ask_row(conn)()
            return row, self.load(conn, game_id, row.rules, row.version)
        with conn.pipeline():
            tail = later(conn, game_id, after=entry.folded.version)
            row_of = ask_row(conn)
        events, row = tail(), row_of()
        if row.version == entry.folded.version:
            self.hits += 1
            return row, entry.folded
        if row.version < entry.folded.version or not events or events[-1].version < row.version:
            return row, self.load(conn, game_id, row.rules, row.version)
        restore = restorer(conn, game_id, row.rules)
        folded = Folded(fold(row.rules, (e.body() for e in events), entry.folded.state, restore), row.version)
        self.put(game_id, folded, events)
        return row, folded

    def _load(
        self,
        conn: Connection[Any],
        game_id: UUID,
        ask_row: Callable[[Connection[Any]], Callable[[], GameRow]],
    ) -> tuple[GameRow, Folded]:
        """A game this process does not hold (one another process made or played, or one evicted):
        its newest state and its lobby row in one round trip, the state asked first."""
        with conn.pipeline():
            folded_by = newest_later(conn, game_id)
            row_of = ask_row(conn)
        row = row_of()
        folded = folded_by(row.rules)
        if folded.version != row.version:  # a commit came between the two reads
            return row, self.load(conn, game_id, row.rules, row.version)
        self.put(game_id, folded)
        return row, folded

    def events(self, game_id: UUID, after: int, upto: int) -> list[StoredEvent] | None:
        """The events ``after < version <= upto`` if the entry still holds all of them."""
        entry = self.get(game_id)
        if entry is None or not entry.recent or entry.folded.version < upto:
            return None
        if entry.recent[0].version > after + 1:
            return None
        return [e for e in entry.recent if after < e.version <= upto]

    def __len__(self) -> int:
        """How many entries it holds now."""
        return len(self._entries)

    def clear(self) -> None:
        """Forget every game, as a restart does."""
        with self._lock:
            self._entries.clear()
