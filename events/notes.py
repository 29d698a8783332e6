"""What an append's notification says (alembic ``0008``): ``"<game_id>:<version>"``, and after a
third ``:``, when they fit in the server's 8,000 bytes, the events appended and the game's lobby
row after them.

A process that hears a move can then bring its copy of the game forward without reading it back.
The lobby part is ``None`` when the row was not yet at the appended version as the statement
ended (scoring writes its row after its event); the events are there all the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import orjson

from events.store import StoredEvent

#: Appends of more events than this notify their version alone (the trigger of alembic ``0008``).
CARRIED = 16
#: The lobby columns a move may change, with what names the game's rules.
LOBBY = ("game", "rules_version", "status", "to_move", "arranged", "result", "updated_at", "deadline")


@dataclass(frozen=True)
class Note:
    """One notification: the game and the version an append brought it to."""

    game_id: UUID
    version: int
    #: The text after the version: empty when the append did not fit, else parsed by :func:`carried`.
    carried: str = ""


def parse(payload: str) -> Note:
    game, _, rest = payload.partition(":")
    version, _, carried = rest.partition(":")
    return Note(UUID(game), int(version), carried)


def carried(note: Note) -> tuple[list[StoredEvent], dict[str, Any] | None]:
    """The events the note carries, oldest first, and the lobby row's :data:`LOBBY` columns after
    them (``None`` if it does not carry them); no events for a note that carries nothing."""
    if not note.carried:
        return [], None
    body = orjson.loads(note.carried)
    events = [
        StoredEvent(position, note.game_id, version, type_, data, meta, datetime.fromisoformat(at))
        for position, version, type_, data, meta, at in body["events"]
    ]
    lobby = body["lobby"]
    if lobby is not None:
        for column in ("updated_at", "deadline"):
            if lobby[column] is not None:
                lobby[column] = datetime.fromisoformat(lobby[column])
    return events, lobby
