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
from commands.handlers import CredentialsChanged
from events.outbox import Queued
from games.interface import GameError
from games.rng import Rng
from projections import seen, undo
from projections.caches import Caches
from projections.fold import Folded
from projections.lobby import GameRow
from projections.tokens import Seated
from service.contract import schemas, validation
from service.contract.problems import Unauthorized
from service.guard.auth import holder
from service.live.polls import etag
from service.server.metrics import COMMANDS

#: The longest ``Idempotency-Key`` taken, as the document bounds it (``service.contract.document``).
MAX_IDEMPOTENCY_KEY = 200


def key_fits(key: str | None) -> bool:
    """Whether an ``Idempotency-Key`` (``None``: none sent) is within the document's bounds; the
    app answers one that is not with a 400, the fast path leaves it to the app."""
    return key is None or 1 <= len(key) <= MAX_IDEMPOTENCY_KEY


def legal_now(
    conn: Connection[Any], caches: Caches, row: GameRow, folded: Folded, seat: int | None
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """``GET /actions``' body and headers: ``seat``'s legal commands in the state ``folded``, the
    rules' own and, last, the platform's ``{"type": "undo"}`` when the seat may take a move back
    (:mod:`projections.undo`)."""
    if seat is None or row.over:
        return [], etag(row.version)
    actions = row.rules.legal_actions(folded.state, seat)
    entry = caches.states.get(row.id)
    recent = entry.recent if entry is not None else ()
    if actions and undo.offered(conn, row.id, row.rules, folded.state, seat, folded.version, recent):
        actions = [*actions, {"type": undo.COMMAND}]
    return actions, etag(folded.version)


def final_ones(row: GameRow, folded: Folded, seat: int, actions: list[dict[str, Any]]) -> list[int]:
    """The indexes of ``actions`` no ``undo`` could take back, for a client to confirm before it
    sends one (``?final=true``): each decided on the state now, with a stream of no game's key, as
    whether a command draws at all, and what else it causes, does not depend on what it draws (a
    draw is always final: ``Rules.IRREVERSIBLE``). Only whether it is final leaves the server."""
    rules, out = row.rules, []
    for index, action in enumerate(actions):
        if action.get("type") == undo.COMMAND:
            continue
        try:
            decided = rules.decide(folded.state, seat, action, Rng(b"final?", f"v{folded.version}"))
        except GameError:
            continue
        if any(e["type"] in rules.IRREVERSIBLE for e in decided):
            out.append(index)
    return out


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
    caller: tuple[str, Seated],
    body: dict[str, Any],
    key: str | None,
    newest: Callable[[UUID], int],
) -> tuple[dict[str, Any], dict[str, str], list[Queued]]:
    """Play ``body`` as the seat ``caller`` (the bearer token and the seat it holds, as
    :func:`service.guard.auth.holder` found it): ``POST /commands``' 201 body and headers, and
    the work it committed for the broker, to hand over once the answer is sent
    (:mod:`service.live.handover`). ``newest`` is the listener's word on the game's newest version
    (``commands.play``).

    A seat token this process remembered is played only while the game's count of reissued
    tokens is the one it was known at; if a token of the game was reissued since (on any node),
    the tokens are read again: a token still good plays, one reissued is a 401.
    """
    token, seated = caller
    command = {k: v for k, v in body.items() if k != "expected_version"}

    def attempt(seated: Seated) -> commands.Played:
        return commands.play(
            conn,
            game_id,
            seated.seat,
            command,
            expected_version=body.get("expected_version"),
            command_id=key,
            check=validation.check_command,
            newest=newest,
            caches=caches,
            credentials=seated.credentials,
        )

    try:
        played = attempt(seated)
    except CredentialsChanged:
        caches.tokens.forget(game_id)
        again = holder(conn, caches, game_id, token)
        if again is None:
            raise Unauthorized("the token holds no seat in this game (was it reissued?)") from None
        played, played_by = attempt(again), again.seat
    else:
        played_by = seated.seat
    COMMANDS.labels(played.game.kind).inc()
    rules = played.game.rules
    running = not rules.is_over(played.state)
    over = played.game.over or not running
    answer = {
        "version": played.version,
        "events": seen.events(played.game, played.state if running else None, played.events, played_by),
        "to_move": [] if over else rules.to_move(played.state),
        "over": over,
    }
    headers = etag(played.version)
    if played.replayed:
        headers["Idempotent-Replayed"] = "true"
    return answer, headers, played.queued
