"""Importing an exported game: a finished game from another Kotlík, with the same id, events and seed.

Nothing is written unless the whole file verifies (:func:`audit.verify.check`) and the game
is new here; then the lobby row, the score and every event (with its meta and time) are written in
one transaction, so a refused or failed import leaves no trace.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from psycopg import Connection, errors

import games
from audit.verify import BadExport, Export, Verdict, check
from events import NewEvent, VersionConflict
from events.store import restore as restore_events
from projections import lobby
from projections.lobby import GameRow


class ImportRefused(Exception):
    """An export this server will not take; nothing was written."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class GameExists(ImportRefused):
    """A game with the export's id is here already."""


class NotImportable(ImportRefused):
    """A game this server cannot hold: unknown game or rules version, or not finished."""


class NotVerified(ImportRefused):
    """The log does not follow from its seed and rules."""

    def __init__(self, verdict: Verdict) -> None:
        first = verdict.problems[0]
        super().__init__(f"the export does not verify: {str(first).splitlines()[0]}")
        self.verdict = verdict


def restore(conn: Connection[Any], export: Export) -> GameRow:
    """Verify ``export`` and write it as a finished game; raises :class:`ImportRefused` or
    :class:`~audit.verify.BadExport` with nothing written."""
    h = export.header
    if h["status"] != "finished":
        raise NotImportable(f"only a finished game can be imported; this one is {h['status']}")
    try:
        games.load(h["game"], h["rules_version"])
    except (games.UnknownGame, games.UnknownRulesVersion) as e:
        raise NotImportable(str(e).strip('"')) from None
    verdict = check(export)
    if not verdict.ok:
        raise NotVerified(verdict)
    row = _row(export, verdict)
    history = [(_new(e), _time(e.get("recorded_at"), f"version {e['version']}")) for e in export.events]
    try:
        with conn.transaction():
            if _exists(conn, row.id):
                raise GameExists(f"a game {row.id} exists here already")
            lobby.restore(conn, row)
            restore_events(conn, row.id, history)
    except (errors.UniqueViolation, VersionConflict):
        raise GameExists(f"a game {row.id} exists here already") from None
    return lobby.get(conn, row.id)


def _row(export: Export, verdict: Verdict) -> GameRow:
    """The lobby row, from the verified creation and setup events rather than the header."""
    h, events = export.header, export.events
    created = events[0]["data"]
    setup = [e for e in events[1:] if not e["type"].startswith("kotlik.")]
    opening = setup[0]["data"] if setup else {}
    return GameRow(
        id=UUID(h["id"]),
        kind=created["game"],
        status="finished",
        version=events[-1]["version"],
        rules_version=created["rules_version"],
        options=created["options"],
        arranged=bool(opening.get("arranged")),
        seats=h["seats"],  # verified: the creation's, with the open seats as their players took them
        to_move=[],
        result=verdict.score,
        seed=bytes.fromhex(h["seed"]),
        seed_sha256=created["seed_sha256"],
        created_at=_time(events[0].get("recorded_at"), "version 1"),
        updated_at=_time(events[-1].get("recorded_at"), f"version {events[-1]['version']}"),
    )


def _new(event: dict[str, Any]) -> NewEvent:
    return NewEvent(event["type"], event["data"], event["meta"])


def _time(value: Any, where: str) -> datetime:
    """An RFC 3339 time from the file; one without a zone is taken as UTC."""
    try:
        parsed = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise BadExport(f"{where}: recorded_at {value!r} is not an RFC 3339 time") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _exists(conn: Connection[Any], game_id: UUID) -> bool:
    return conn.execute("SELECT 1 FROM games WHERE id = %s", (game_id,)).fetchone() is not None
