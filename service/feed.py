"""What a caller may see of a game's log, and the server-sent-events stream that carries it live.

A stream holds no thread and no connection between events: it waits on the process's listener
(:mod:`service.live`). When a game moves, every stream of it wakes at once; they share one read of
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

from events import StoredEvent, read
from projections.cache import CACHE
from projections.fold import PLATFORM, Folded
from projections.lobby import GameRow
from service.context import listener, long_polls

#: How long one server-sent-events response stays open; clients reconnect with Last-Event-ID.
STREAM_SECONDS = 300
#: Seconds between keep-alive comments on a quiet stream.
KEEP_ALIVE = 15.0
SCORED = f"{PLATFORM}GameScored"


def public_options(row: GameRow) -> dict[str, Any]:
    """The options as anyone may see them: an arrangement stays secret until the game is over."""
    if row.status == "finished" or "arranged" not in row.options:
        return row.options
    return {**row.options, "arranged": "hidden until the game is over"}


def shown(row: GameRow, state: Any, events: list[StoredEvent], seat: int | None) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them: redacted by the rules while the game runs (``state``)."""
    game = row.rules
    out = []
    for event in events:
        if event.type.startswith(PLATFORM):
            data = event.data
            if state is not None and "options" in data:
                data = {**data, "options": public_options(row)}
        elif state is None:
            data = event.data
        else:
            redacted = game.redact(state, event.body(), seat)
            data = {k: v for k, v in redacted.items() if k != "type"}
        out.append(
            {
                "version": event.version,
                "type": event.type,
                "data": data,
                "seat": event.seat,
                "command": shown_command(event, seat, running=state is not None, rules=game, state=state),
                "recorded_at": event.recorded_at,
            }
        )
    return out


def shown_command(
    event: StoredEvent, seat: int | None, *, running: bool, rules: Any = None, state: Any = None
) -> dict[str, Any] | None:
    """The command that caused ``event`` (``None`` for setup and the platform's own events).

    While the game runs, the others see only its ``type``, since a command may name what only its
    seat knew (a card in a hidden hand), and its own seat sees it as it may still recall it now
    (``state``): the rules' ``redact_command`` where they have one (a Kupferkessel card taken and
    since covered), else whole. Once the game is over everyone sees every command, as they see
    every event.
    """
    command = event.meta.get("command")
    if not isinstance(command, dict) or not running:
        return command if isinstance(command, dict) else None
    if event.seat != seat:
        return {"type": command.get("type")}
    recall = getattr(rules, "redact_command", None)
    return dict(recall(state, command, seat)) if recall is not None and state is not None else command


def shown_meta(
    event: StoredEvent, seat: int | None, *, running: bool, rules: Any = None, state: Any = None
) -> dict[str, Any]:
    """``event``'s meta as ``seat`` may see it: while the game runs, the command as
    :func:`shown_command` shows it and never the client's Idempotency-Key."""
    if not running:
        return event.meta
    meta = {k: v for k, v in event.meta.items() if k != "command_id"}
    if "command" in meta:
        meta["command"] = shown_command(event, seat, running=True, rules=rules, state=state)
    return meta


def stream(row: GameRow, seat: int | None, after: int) -> Iterator[bytes]:
    """Each event past ``after`` as ``seat`` may see it, until the game is scored or time is up."""
    yield b"retry: 2000\n\n"
    deadline = time.monotonic() + STREAM_SECONDS
    version, finished = row.version, row.status == "finished"
    while True:
        if version > after:
            block = _rendered(row, seat, after, version)
            after, finished = version, finished or block.scored
            yield block.text
        if finished:
            yield b"event: end\ndata: {}\n\n"
            return
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        newer = listener().wait(row.id, after, min(KEEP_ALIVE, remaining))
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


_blocks: OrderedDict[tuple[Any, ...], _Block] = OrderedDict()
_blocks_lock = threading.Lock()
_rendering = [threading.Lock() for _ in range(64)]
#: Rendered spans kept for the streams that wake on the same event.
BLOCKS_KEPT = 4096


def _rendered(row: GameRow, seat: int | None, after: int, upto: int) -> _Block:
    """Versions ``after < v <= upto`` for ``seat``, rendered once: by the first stream of the game
    to wake, redacted by the state it finds then, and kept for every other stream of that seat.
    Keyed by that state's version as well, a span was rendered again for each stream that woke
    after the game had moved on, one stream after another under the game's lock."""
    key = (row.id, seat, after, upto)
    block = _blocks.get(key)
    if block is not None:
        return block
    with _rendering[hash(row.id) % len(_rendering)]:
        block = _blocks.get(key)
        if block is None:
            events, folded = _since(row, after, upto)
            over = row.rules.is_over(folded.state)
            if events is None:
                with long_polls().connect() as conn:
                    events = read(conn, row.id, after=after, upto=upto)
            block = _Block(shown(row, None if over else folded.state, events, seat))
            with _blocks_lock:
                _blocks[key] = block
                while len(_blocks) > BLOCKS_KEPT:
                    _blocks.popitem(last=False)
        return block


def _since(row: GameRow, after: int, upto: int) -> tuple[list[StoredEvent] | None, Folded]:
    """The cached events ``after < version <= upto`` (``None`` if not cached) and a state at
    ``upto`` or later to redact them by, brought forward from the database only when needed: by
    the lobby read the game's long-polls share (:mod:`service.rows`), so that a move woken on costs
    this process one round trip for its streams and long-polls together."""
    entry = CACHE.get(row.id)
    if entry is None or entry.folded.version < upto:
        long_polls().rows.past(row.id, upto - 1)
        entry = CACHE.get(row.id)
    if entry is not None and entry.folded.version >= upto:
        return CACHE.events(row.id, after, upto), entry.folded
    with long_polls().connect() as conn:
        folded = CACHE.state(conn, row.id, row.rules, upto)
    return CACHE.events(row.id, after, upto), folded
