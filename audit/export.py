"""A game as an export: the header and event lines of the file :mod:`audit.verify` reads.

A finished game's export holds everything: the revealed seed and every event with its meta
(seat, command, the version it was decided at), so it can be verified with no server and imported
into another Kotlík. A running game's export is built by the service from what the caller may
see (:mod:`service.live.feed`), with the header's seed left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any
from uuid import UUID

from psycopg import Connection

from audit.verify import FORMAT, FORMAT_VERSION, Export
from events import StoredEvent, read
from projections import lobby
from projections.lobby import GameRow

#: Events read per query while an export is written: memory stays bounded for long games.
PAGE = 500


def header(
    row: GameRow,
    *,
    options: dict[str, Any],
    seat: int | None,
    seed: bytes | None,
    key: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The first line: what the game is, the seed when it may be shown, and ``key``: the public
    key (a JWK) of the server that signs the file (:mod:`audit.signing`)."""
    finished = row.status == "finished"
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "id": str(row.id),
        "game": row.kind,
        "rules_version": row.rules_version,
        "status": row.status,
        "version": row.version,
        "options": options,
        "arranged": row.arranged,
        "seats": row.seats,
        "seed_sha256": row.seed_sha256,
        "seed": seed.hex() if seed is not None else None,
        "result": row.result,
        "created_at": row.created_at.isoformat(),
        "finished_at": row.updated_at.isoformat() if finished else None,
        "seat": seat,
        "redacted": row.status == "active",
        "key": key,
    }


def line(event: StoredEvent) -> dict[str, Any]:
    """An event line with everything recorded; the seat and command named beside the meta."""
    command = event.meta.get("command")
    return {
        "version": event.version,
        "type": event.type,
        "data": event.data,
        "meta": event.meta,
        "seat": event.seat,
        "command": command if isinstance(command, dict) else None,
        "recorded_at": event.recorded_at.isoformat(),
    }


def pages(
    conn_factory: Callable[[], AbstractContextManager[Connection[Any]]], game_id: UUID, upto: int
) -> Iterator[list[StoredEvent]]:
    """A game's events up to ``upto`` in pages of :data:`PAGE`, each read on a connection of its own
    (``conn_factory()`` is a context manager), so a slow reader holds no connection between pages."""
    after = 0
    while after < upto:
        with conn_factory() as conn:
            page = read(conn, game_id, after=after, upto=min(after + PAGE, upto))
        if not page:
            return
        yield page
        after = page[-1].version


def whole(conn: Connection[Any], game_id: UUID, seed: bytes | None = None) -> Export:
    """Everything of a game with ``seed`` (default: its own) in the header, as an operator sees it."""
    row = lobby.get(conn, game_id)
    head = header(row, options=row.options, seat=None, seed=seed or row.seed)
    head["redacted"] = False
    return Export(head, [line(e) for e in read(conn, game_id, upto=row.version)])
