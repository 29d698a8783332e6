"""A seat's turn: its legal commands now (``GET /actions``) and a command played
(``POST /commands``), answered alike by both doors of those endpoints.

The Flask views (:mod:`service.api.games`) and the layer beneath Flask (:mod:`service.api.fast`)
each read the request their own way, then call these, so a body, a status and a header cannot
differ between them; ``tests/platform/test_hot_routes.py`` plays the same game through both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from psycopg import Connection

import commands
from events.outbox import Queued
from projections import seen
from projections.caches import Caches
from projections.fold import Folded
from projections.lobby import GameRow
from service.contract import schemas, validation
from service.live.polls import etag
from service.server.metrics import COMMANDS

#: The longest ``Idempotency-Key`` taken, as the document bounds it (``service.contract.document``).
MAX_IDEMPOTENCY_KEY = 200


def key_fits(key: str | None) -> bool:
    """Whether an ``Idempotency-Key`` (``None``: none sent) is within the document's bounds; the
    app answers one that is not with a 400, the fast path leaves it to the app."""
    return key is None or 1 <= len(key) <= MAX_IDEMPOTENCY_KEY


def legal_now(row: GameRow, folded: Folded, seat: int | None) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """``GET /actions``' body and headers: ``seat``'s legal commands in the state ``folded``."""
    if seat is None or row.over:
        return [], etag(row.version)
    return row.rules.legal_actions(folded.state, seat), etag(folded.version)


def plain_command(body: Any) -> bool:
    """Whether ``body`` fits :class:`schemas.CommandSchema` as it is (see :mod:`service.contract.bodies`)."""
    if not isinstance(body, dict):
        return False
    kind, expected = body.get("type"), body.get("expected_version", 0)
    return (
        isinstance(kind, str)
        and 0 < len(kind) <= 64
        and type(expected) is int
        and schemas.VERSION.min <= expected <= schemas.VERSION.max
    )


def play(
    conn: Connection[Any],
    caches: Caches,
    game_id: UUID,
    seat: int,
    body: dict[str, Any],
    key: str | None,
    newest: Callable[[UUID], int],
) -> tuple[dict[str, Any], dict[str, str], list[Queued]]:
    """Play ``body`` as ``seat``: ``POST /commands``' 201 body and headers, and the work it
    committed for the broker, to hand over once the answer is sent (:mod:`service.live.handover`).
    ``newest`` is the listener's word on the game's newest version (``commands.play``)."""
    played = commands.play(
        conn,
        game_id,
        seat,
        {k: v for k, v in body.items() if k != "expected_version"},
        expected_version=body.get("expected_version"),
        command_id=key,
        check=validation.check_command,
        newest=newest,
        caches=caches,
    )
    COMMANDS.labels(played.game.kind).inc()
    rules = played.game.rules
    running = not rules.is_over(played.state)
    over = played.game.over or not running
    answer = {
        "version": played.version,
        "events": seen.events(played.game, played.state if running else None, played.events, seat),
        "to_move": [] if over else rules.to_move(played.state),
        "over": over,
    }
    headers = etag(played.version)
    if played.replayed:
        headers["Idempotent-Replayed"] = "true"
    return answer, headers, played.queued
