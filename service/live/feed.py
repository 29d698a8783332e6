"""The server-sent-events stream that carries a game's log live, as each caller may see it
(:mod:`projections.seen`).

A stream holds no thread and no connection between events: it waits on the process's listener
(:mod:`service.live.listener`). When a game moves, every stream of it wakes at once; they share one read of
the new events (the state cache keeps them) and, per seat, one rendering of them, so a hundred
spectators cost one redaction and a hundred socket writes.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import orjson
from flask import current_app

from events import StoredEvent, read
from projections import seen
from projections.fold import PLATFORM, Folded
from projections.lobby import GameRow
from service.context import caches
from service.live import listener, polls
from service.server.metrics import watching

#: How long one server-sent-events response stays open; clients reconnect with Last-Event-ID.
STREAM_SECONDS = 300
#: Seconds between keep-alive comments on a quiet stream.
KEEP_ALIVE = 15.0
SCORED = f"{PLATFORM}GameScored"


def stream(row: GameRow, seat: int | None, after: int) -> Iterator[bytes]:
    """Each event past ``after`` as ``seat`` may see it, until the game is scored or time is up."""
    with watching("streams"):  # counted from its first line on
        yield b"retry: 2000\n\n"
        yield from _events(row, seat, after)


def _events(row: GameRow, seat: int | None, after: int) -> Iterator[bytes]:
    kept = spans()
    deadline = time.monotonic() + STREAM_SECONDS
    version, finished = row.version, row.status == "finished"
    while True:
        if version > after:
            block = kept.rendered(row, seat, after, version)
            after, finished = version, finished or block.scored
            yield block.text
        if finished:
            yield b"event: end\ndata: {}\n\n"
            return
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        newer = listener.current().wait(row.id, after, min(KEEP_ALIVE, remaining))
        if newer is None:
            yield b": keep-alive\n\n"
        else:
            version = newer


class _Block:
    """The events of one span of versions, rendered as server-sent events for one seat and encoded
    once for all the streams that send it."""

    __slots__ = ("scored", "text")

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self.scored = any(e["type"] == SCORED for e in events)
        self.text = b"".join(
            b"id: %d\nevent: %s\ndata: %s\n\n"
            % (e["version"], e["type"].encode(), orjson.dumps(e, option=orjson.OPT_NON_STR_KEYS))
            for e in events
        )


#: Rendered spans kept for the streams that wake on the same event, unless ``KOTLIK_STREAM_SPANS``
#: says otherwise.
SPANS_KEPT = 4096


def spans() -> Spans:
    """The running app's rendered spans (put in ``app.extensions`` by :func:`service.app.create_app`)."""
    return current_app.extensions["kotlik.spans"]  # type: ignore[no-any-return]


class Spans:
    """Spans of a game's log rendered for one seat, kept for every stream of that seat that wakes
    on the same event; one per app (:class:`projections.caches.Caches`)."""

    def __init__(self, size: int = SPANS_KEPT) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[Any, ...], _Block] = OrderedDict()
        self._lock = threading.Lock()
        self._rendering = [threading.Lock() for _ in range(64)]

    def rendered(self, row: GameRow, seat: int | None, after: int, upto: int) -> _Block:
        """Versions ``after < v <= upto`` for ``seat``, rendered once: by the first stream of the
        game to wake, redacted by the state it finds then, and kept for every other stream of that
        seat. Keyed by that state's version as well, a span was rendered again for each stream that
        woke after the game had moved on, one stream after another under the game's lock."""
        key = (row.id, seat, after, upto)
        block = self._kept.get(key)
        if block is not None:
            return block
        with self._rendering[hash(row.id) % len(self._rendering)]:
            block = self._kept.get(key)
            if block is None:
                events, folded = _since(row, after, upto)
                over = folded.state is None or row.rules.is_over(folded.state)  # None: not set up yet
                if events is None:
                    with polls.current().connect() as conn:
                        events = read(conn, row.id, after=after, upto=upto)
                block = _Block(seen.events(row, None if over else folded.state, events, seat))
                with self._lock:
                    self._kept[key] = block
                    while len(self._kept) > self.size:
                        self._kept.popitem(last=False)
            return block

    def __len__(self) -> int:
        """How many entries it holds now."""
        return len(self._kept)

    def clear(self) -> None:
        """Forget every rendered span, as a restart does."""
        with self._lock:
            self._kept.clear()


def _since(row: GameRow, after: int, upto: int) -> tuple[list[StoredEvent] | None, Folded]:
    """The cached events ``after < version <= upto`` (``None`` if not cached) and a state at
    ``upto`` or later to redact them by, brought forward from the database only when needed: by
    the lobby read the game's long-polls share (:mod:`service.live.rows`), so that a move woken on costs
    this process one round trip for its streams and long-polls together."""
    states = caches().states
    entry = states.get(row.id)
    if entry is None or entry.folded.version < upto:
        polls.current().rows.past(row.id, upto - 1)
        entry = states.get(row.id)
    if entry is not None and entry.folded.version >= upto:
        return states.events(row.id, after, upto), entry.folded
    with polls.current().connect() as conn:
        folded = states.load(conn, row.id, row.rules, upto)
    return states.events(row.id, after, upto), folded
