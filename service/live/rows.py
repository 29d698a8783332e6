"""The newest lobby row this process has read of each game, shared by the game's long-polls.

When a game moves, all its long-polls wake at once. The first to ask reads the row and the others
take that row, so a hundred waiters cost one query, not a hundred. The same round trip brings the
game's cached state up to the row (:meth:`projections.state.States.with_row`), for the
answers. A long-poll that comes back for the version it has seen waits without a query while the
process's listener has heard of nothing newer since the row was read
(:meth:`service.live.listener.Listener.unbroken`).

The row is shared only with a caller whose known version it has passed, or who has seen exactly
its version while the listener says nothing has happened since, which it can say only of a game
it covers (:mod:`service.live.listener`; another game's commits notify nobody): so reading a row covers
its game. A row read a moment ago never holds back a version the caller has seen elsewhere, for
example in the 201 of another process.

A notification that carries its move (:mod:`events.notes`) brings the game's cached state and
remembered row forward as it is heard (:meth:`Rows.heard`), so the streams and long-polls it wakes
read nothing at all.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from functools import partial
from typing import Any
from uuid import UUID

from psycopg import Connection

import games
from events.notes import Note, carried
from projections import lobby
from projections.lobby import GameRow
from projections.state import States
from service.context import take
from service.live.listener import Listener

#: How many games' rows a process keeps (a row is a few hundred bytes), unless
#: ``KOTLIK_ROWS_GAMES`` says otherwise.
ROWS_KEPT = 10_000
#: The columns of a row that a move changes (besides its version), as a notification carries them.
MOVED = ("status", "to_move", "arranged", "result", "updated_at", "deadline")


@dataclass(frozen=True)
class _Read:
    row: GameRow
    #: The listener's mark of the game taken before the row was read (``None``: not covered).
    mark: int | None
    #: When (``time.monotonic``) the row was read, or heard of.
    at: float


class Rows:
    """The newest row read of each game, each with the listener's mark from before it was read."""

    def __init__(
        self,
        listener: Listener,
        states: States,
        connect: Callable[[], AbstractContextManager[Connection[Any]]],
        size: int = ROWS_KEPT,
    ) -> None:
        self.listener = listener
        self.states = states
        self.size = size
        self.connect = connect
        self._reads: OrderedDict[UUID, _Read] = OrderedDict()
        self._lock = threading.Lock()
        self._reading = [threading.Lock() for _ in range(64)]

    def past(self, game_id: UUID, known: int) -> GameRow | None:
        """The game's row if the game is past version ``known``; ``None`` if it is not.

        Raises :class:`projections.lobby.GameNotFound` for a game that does not exist.
        """
        row = self._answering(game_id, known) or self._fresh(game_id, known)
        return row if row.version > known else None

    def current(self, game_id: UUID) -> GameRow:
        """The game's row at the newest version this process has heard of, or newer: the one
        remembered if it is that new, else one read for everyone who asks at once (the streams
        that open on a new game together).

        Raises :class:`projections.lobby.GameNotFound` for a game that does not exist.
        """
        known = self.listener.latest(game_id) - 1
        if self.listener.mark(game_id) is None:  # what it heard of the game may be old
            return self._fresh(game_id, known, newest=True)
        return self._answering(game_id, known) or self._fresh(game_id, known)

    def heard(self, note: Note) -> None:
        """Bring the game's cached state and remembered row forward by what ``note`` carries, if
        this process keeps either. A finished game's row is left to be read: its seed is not in
        the note."""
        with self._lock:
            read = self._reads.get(note.game_id)
        entry = self.states.get(note.game_id)
        behind = (entry is not None and entry.folded.version < note.version) or (
            read is not None and read.row.version < note.version
        )
        if not note.carried or not behind:  # the process that played the move, with no polls
            return
        events, columns = carried(note)
        if columns is None:
            return
        self.states.advance(note.game_id, games.load(columns["game"], columns["rules_version"]), events)
        if read is not None and columns["status"] != "finished":
            row = replace(read.row, version=note.version, **{c: columns[c] for c in MOVED})
            self._remember(note.game_id, _Read(row, self.listener.mark(note.game_id), time.monotonic()))

    def _read(self, conn: Connection[Any], game_id: UUID) -> GameRow:
        """The row, and the cached state brought up to it in the same round trip unless it already
        holds the newest version heard of (the process that played the move)."""
        entry = self.states.get(game_id)
        if entry is not None and entry.folded.version >= self.listener.latest(game_id):
            return lobby.get(conn, game_id)
        row, _ = self.states.with_row(conn, game_id, partial(lobby.later, game_id=game_id))
        return row

    def _answering(self, game_id: UUID, known: int) -> GameRow | None:
        """The remembered row, if it answers for ``known``: it is newer, or it is at ``known``
        and the listener has heard of nothing newer since it was read."""
        with self._lock:
            read = self._reads.get(game_id)
        if read is None or read.row.version < known:
            return None
        if read.row.version > known:
            return read.row
        quiet = self.listener.unbroken(game_id, read.mark) and self.listener.latest(game_id) <= known
        return read.row if quiet else None

    def _fresh(self, game_id: UUID, known: int, *, newest: bool = False) -> GameRow:
        """The row read now, or by a caller before this one while it waited its turn (``newest``:
        only a row read after this caller asked will do). The read covers the game."""
        asked = time.monotonic()
        reading = self._reading[hash(game_id) % len(self._reading)]
        take(reading)  # no longer than the request may wait (a long-poll's wait, in an outage)
        try:
            row = self._read_since(game_id, known, asked)
            if row is None and not newest:
                row = self._answering(game_id, known)
            if row is None:
                at = time.monotonic()
                with self.connect() as conn:
                    mark = self.listener.cover(conn, game_id)
                    row = self._read(conn, game_id)
                self._remember(game_id, _Read(row, mark, at))
        finally:
            reading.release()
        return row

    def __len__(self) -> int:
        """How many entries it holds now."""
        return len(self._reads)

    def clear(self) -> None:
        """Forget the rows read, as a restart does."""
        with self._lock:
            self._reads.clear()

    def _read_since(self, game_id: UUID, known: int, since: float) -> GameRow | None:
        """The remembered row if it was read after ``since`` (``time.monotonic``) and is not
        behind ``known``: as good as a read now."""
        with self._lock:
            read = self._reads.get(game_id)
        return read.row if read is not None and read.at >= since and read.row.version >= known else None

    def _remember(self, game_id: UUID, read: _Read) -> None:
        with self._lock:
            old = self._reads.get(game_id)
            if old is not None and old.row.version > read.row.version:
                return
            self._reads[game_id] = read
            self._reads.move_to_end(game_id)
            while len(self._reads) > self.size:
                self._reads.popitem(last=False)
