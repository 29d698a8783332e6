"""Undo within a turn: which of a seat's commands ``undo`` takes back, read from the log alone.

A seat may take back its own commands of its current turn, newest first and one an ``undo``, as
long as nothing new came to light since: the platform's command ``{"type": "undo"}`` (the same in
every game, and never a bot's) appends ``kotlik.Undone``, which names what it took back, and the
game's state becomes the state before that command again. The log keeps both the command and its
undo: nothing is deleted, and ``kotlik verify`` re-derives every undo from the log as it re-derives
every command (:mod:`audit.verify`).

**What can be taken back.** Walking the log back from its newest event: a ``kotlik.Undone`` says the
game is as it was at the version it names (``to``), so the walk goes on from there; otherwise the
newest event belongs to a command. That command can be taken back when it is the seat's own and none
of its events is of a type the rules call final (``Rules.IRREVERSIBLE``: a random outcome, a card
brought to light, the turn handed on); anything else (another seat's command, setup, the platform's
own events) is where the seat's turn began. And the seat must be one of those to move now, in a
game still running.

So every reader (the write side deciding an undo, ``GET /actions`` offering it, the verifier
checking one) asks :func:`target` of the same events and gets the same answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.interface import Rules

if TYPE_CHECKING:  # offline: the standalone verifier ships this module without a database driver
    from uuid import UUID

    from psycopg import Connection

    from events import StoredEvent

#: The platform's undo: its command, as a client sends it, and the event that records it.
COMMAND = "undo"
UNDONE = "kotlik.Undone"
#: How many of a game's newest events a walk back reads at most: a turn is never this long.
WINDOW = 400


@dataclass(frozen=True)
class Entry:
    """What the walk needs of one logged event."""

    version: int
    type: str
    data: Mapping[str, Any]
    meta: Mapping[str, Any]


@dataclass(frozen=True)
class Target:
    """The command an undo takes back: its events' versions, and the version the game returns to."""

    seat: int
    #: The version the command was decided at: the game is as it was then again.
    to: int
    #: The versions of the events it caused.
    versions: list[int]
    #: Its type (the rest of it stays the seat's, as commands do while the game runs).
    command: str

    def event(self) -> dict[str, Any]:
        """The ``kotlik.Undone`` event's data."""
        return {"seat": self.seat, "to": self.to, "undone": self.versions, "command": self.command}


class Refused(Exception):
    """Nothing can be taken back now; ``reason`` says why in words, ``code`` as a key for clients."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


#: Why an undo is refused, by code (``reason`` in every problem answer; the clients translate).
REASONS = {
    "not_to_move": "it is not this seat's turn: only the seat to move takes back its own moves",
    "nothing": "this seat has made no move of this turn that could be taken back",
    "other_seat": "another seat has moved since: a move is taken back only before anyone else moves",
    "revealed": "this seat's last move brought something new to light (a draw, a refill, a new turn): "
    "it is final",
}


def target(entries: Mapping[int, Entry], newest: int, seat: int, rules: Rules) -> Target:
    """The command an ``undo`` by ``seat`` takes back, the log being ``entries`` (by version, at
    least the newest :data:`WINDOW`) up to ``newest``; :class:`Refused` when there is none. The
    caller has checked that the game runs and the seat is to move."""
    try:
        return _walk(entries, newest, seat, rules)
    except Missing:
        raise Refused("nothing", REASONS["nothing"]) from None


class Missing(LookupError):
    """The walk needs an event older than those it was given."""


def _walk(entries: Mapping[int, Entry], newest: int, seat: int, rules: Rules) -> Target:
    version = newest
    while version > 0:
        entry = entries.get(version)
        if entry is None:
            raise Missing(version)
        if entry.type == UNDONE:
            version = int(entry.data["to"])
            continue
        meta = entry.meta
        at = meta.get("at")
        if (
            not isinstance(at, int)
            or not isinstance(meta.get("command"), dict)
            or entry.type.startswith("kotlik.")
        ):
            raise Refused("nothing", REASONS["nothing"])
        if meta.get("seat") != seat:
            raise Refused("other_seat", REASONS["other_seat"])
        versions = list(range(at + 1, version + 1))
        if any(v not in entries for v in versions):
            raise Missing(at + 1)
        if any(entries[v].type in rules.IRREVERSIBLE for v in versions):
            raise Refused("revealed", REASONS["revealed"])
        return Target(seat, at, versions, str(meta["command"].get("type")))
    raise Refused("nothing", REASONS["nothing"])


def check_turn(rules: Rules, state: Any, seat: int) -> None:
    """:class:`Refused` unless ``seat`` is one of those to move in the running game ``state``."""
    if rules.is_over(state) or seat not in rules.to_move(state):
        raise Refused("not_to_move", REASONS["not_to_move"])


def read(conn: Connection[Any], game_id: UUID, newest: int) -> dict[int, Entry]:
    """The newest :data:`WINDOW` events of a game up to ``newest``, as the walk takes them."""
    rows = conn.execute(
        "SELECT version, type, data, meta FROM events WHERE game_id = %s AND version > %s AND version <= %s",
        (game_id, newest - WINDOW, newest),
    ).fetchall()
    return {r["version"]: Entry(r["version"], r["type"], r["data"], r["meta"]) for r in rows}


def entries(events: Sequence[Mapping[str, Any]]) -> dict[int, Entry]:
    """Exported (or stored) events as the walk takes them: ``{"version", "type", "data", "meta"}``."""
    return {e["version"]: Entry(e["version"], e["type"], e["data"], e["meta"]) for e in events}


def offered(
    conn: Connection[Any],
    game_id: UUID,
    rules: Rules,
    state: Any,
    seat: int,
    version: int,
    recent: Sequence[StoredEvent] = (),
) -> bool:
    """Whether ``seat`` may undo now, for ``GET /actions``: the game at ``version`` in ``state``.
    ``recent`` (a cache's newest events) most often answers it; else the log is read."""
    try:
        check_turn(rules, state, seat)
        known = {e.version: Entry(e.version, e.type, e.data, e.meta) for e in recent if e.version <= version}
        try:
            _walk(known, version, seat, rules)
        except Missing:
            target(read(conn, game_id, version), version, seat, rules)
    except Refused:
        return False
    return True
