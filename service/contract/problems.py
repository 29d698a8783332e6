"""Every error as RFC 9457 problem details, built in one place.

Views raise domain errors (``IllegalMove``, ``VersionConflict``...) where they are found; this
module maps each class to a status once. Nothing is appended on any error: the write path runs in
one transaction that an exception rolls back.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, has_request_context, json, request
from marshmallow import ValidationError
from psycopg import OperationalError
from psycopg.errors import UndefinedColumn, UndefinedTable
from psycopg_pool import PoolTimeout
from werkzeug.exceptions import HTTPException

from commands.credentials import NoSuchSeat, SeatWithoutToken
from commands.handlers import EntropyRefused, GameOver, KeyReused, RematchTaken, UndoRefused
from commands.openings import NotCreator, SeatsClosed
from commands.seeks import SeekClosed, SeekNotFound, TooManySeeks
from events import VersionConflict
from games import UnknownGame, UnknownRulesVersion
from games.interface import GameError, IllegalMove, InvalidOptions, NotYourTurn
from projections import lobby
from projections.lobby import GameNotFound
from projections.players import NameTaken, SeatTaken, UnknownPlayer
from projections.push import BadSubscription, RefusedEndpoint
from projections.tokens import TokenExpired
from projections.webhooks import RefusedUrl
from service.context import pool
from service.contract import problem_types
from service.server import readiness

#: Every problem ``type`` starts so: a page of this server (:mod:`service.contract.problem_types`).
PROBLEMS = problem_types.PREFIX


class Unauthorized(Exception):
    """No bearer token where one is required, or one that belongs to no seat of this game."""


class NotSeatHolder(Exception):
    """A token or key that holds another seat (or another game), not the one asked about (HTTP 403)."""


class NotFound(Exception):
    """A resource of an existing game that does not exist (yet)."""


class NoSuchVersion(Exception):
    """``?at=`` a version the game has no state at: past its current one, or before it was set up."""


#: Domain error → (status, problem type slug, title).
STATUS: dict[type[Exception], tuple[int, str, str]] = {
    GameNotFound: (404, "game-not-found", "Unknown game"),
    UnknownGame: (404, "unknown-game-type", "Unknown kind of game"),
    NotFound: (404, "not-found", "Not found"),
    NoSuchVersion: (404, "no-such-version", "No state at that version"),
    Unauthorized: (401, "unauthorized", "Missing or unknown seat token"),
    TokenExpired: (401, "token-expired", "Expired seat token"),
    NotYourTurn: (409, "not-your-turn", "Not your turn"),
    GameOver: (409, "game-over", "The game is over"),
    VersionConflict: (409, "stale-version", "Stale version"),
    IllegalMove: (422, "illegal-move", "Illegal move"),
    InvalidOptions: (422, "invalid-options", "Invalid game options"),
    KeyReused: (422, "idempotency-key-reused", "Idempotency-Key reused"),
    UnknownPlayer: (422, "unknown-player", "Unknown player"),
    SeatTaken: (409, "seat-taken", "The seat belongs to another player"),
    NameTaken: (409, "name-taken", "The name is taken"),
    RematchTaken: (409, "rematch-taken", "No rematch of this game can start"),
    EntropyRefused: (409, "entropy-refused", "The seat's entropy comes too late"),
    UndoRefused: (409, "undo-refused", "Nothing to take back"),
    SeatsClosed: (409, "seat-not-open", "The seat cannot be taken"),
    NotCreator: (403, "not-creator", "Not this game's creator"),
    NotSeatHolder: (403, "not-seat-holder", "Not this seat's holder"),
    NoSuchSeat: (404, "no-such-seat", "No such seat"),
    SeatWithoutToken: (409, "seat-without-token", "The seat has no token"),
    TooManySeeks: (429, "too-many-seeks", "Too many waiting seeks"),
    SeekClosed: (409, "seek-closed", "The seek no longer waits"),
    SeekNotFound: (404, "seek-not-found", "Unknown seek"),
    RefusedUrl: (422, "refused-webhook-url", "Refused webhook URL"),
    RefusedEndpoint: (422, "refused-push-endpoint", "Refused push endpoint"),
    BadSubscription: (422, "bad-push-subscription", "Malformed push subscription"),
    # A game stored under rules this server does not ship (a deploy rolled back, a fleet mid-upgrade):
    # the game is fine, this server cannot play it; one that ships those rules can.
    UnknownRulesVersion: (503, "unknown-rules-version", "Rules version not on this server"),
}


def problem(
    status: int, title: str, detail: str | None = None, slug: str | None = None, **extra: Any
) -> Response:
    body: dict[str, Any] = {
        "type": PROBLEMS + slug if slug else "about:blank",
        "title": title,
        "status": status,
    }
    if detail:
        body["detail"] = detail
    body.update({k: v for k, v in extra.items() if v is not None})
    return Response(json.dumps(body), status=status, mimetype="application/problem+json")


#: How a 401 says which scheme it wants (RFC 6750 §3); a token that was sent but holds no seat
#: (or has expired) is an ``invalid_token``.
CHALLENGE = "Bearer"
INVALID_TOKEN = 'Bearer error="invalid_token"'


def _domain(status: int, slug: str, title: str) -> Callable[[Exception], Response]:
    def handle(error: Exception) -> Response:
        detail = getattr(error, "reason", None) or str(error)
        extra: dict[str, Any] = {}
        if isinstance(error, VersionConflict) and error.actual is not None:
            extra["version"] = error.actual
        if isinstance(error, UndoRefused):
            extra["reason"] = error.code
        if isinstance(error, GameError):
            detail = _named_seats(detail)
        response = problem(status, title, detail, slug, **extra)
        if status == 401:
            sent = has_request_context() and request.headers.get("Authorization") is not None
            response.headers["WWW-Authenticate"] = INVALID_TOKEN if sent else CHALLENGE
        return response

    return handle


#: A seat as the rules name it: by number, as they know no names.
_SEAT = re.compile(r"\bseat (\d+)\b")
#: Seconds an error may wait for a connection to look up seat names; past it the reason goes
#: out with numbers only.
_NAMES_WAIT = 1.0


def _named_seats(detail: str) -> str:
    """``seat 1`` in a rule's reason becomes ``seat 1 (Bob)``, the number and the name the API
    lists in ``seats``; the engines know seats only by number."""
    game_id = (request.view_args or {}).get("game_id") if has_request_context() else None
    if game_id is None or not _SEAT.search(detail):
        return detail
    try:
        with pool().connection(timeout=_NAMES_WAIT) as conn:
            seats = lobby.get(conn, game_id).seats
    except (GameNotFound, OperationalError, PoolTimeout):
        return detail

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        if seat >= len(seats) or not seats[seat].get("name"):
            return match.group(0)
        return f"seat {seat} ({seats[seat]['name']})"

    return _SEAT.sub(name, detail)


def http_problem(error: HTTPException) -> Response:
    """Werkzeug's and webargs' errors (400 malformed JSON, 422 field errors, 404, 405...).

    The exception's own headers are kept (a 405's ``Allow``, a 413's ``Retry-After``); only its
    HTML content type is not.
    """
    data = getattr(error, "data", None) or {}
    errors = data.get("messages")
    detail = data.get("message") or (_describe(errors) if errors else error.description)
    response = problem(error.code or 500, error.name, detail, None, errors=errors)
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    for name, value in (data.get("headers") or {}).items():
        response.headers[name] = value
    return response


def _describe(errors: Any, path: str = "") -> str:
    """Field errors as one readable line: ``json.seats.0.name: Missing data for required field.``"""
    if isinstance(errors, dict):
        return "; ".join(_describe(v, f"{path}.{k}" if path else str(k)) for k, v in errors.items())
    if isinstance(errors, list) and all(isinstance(e, str) for e in errors):
        return f"{path}: {' '.join(errors)}" if path else " ".join(errors)
    return f"{path}: {errors}"


def invalid(error: ValidationError) -> Response:
    """A field error found in a view rather than by the request schema."""
    messages = error.normalized_messages()
    return problem(422, "Unprocessable Entity", _describe(messages), None, errors=messages)


#: Seconds a client is asked to wait when the database cannot serve it.
RETRY_AFTER = 5


def _retry_later(detail: str, slug: str) -> Response:
    """A 503 with ``Retry-After``: the database cannot serve the request now."""
    response = problem(503, "Service Unavailable", detail, slug)
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def unavailable(error: Exception) -> Response:
    """The database is unreachable or every connection is busy: retry later, nothing was written
    (a command whose transaction did not commit appended nothing)."""
    return _retry_later("the database cannot be reached; retry shortly", "unavailable")


def unmigrated(error: Exception) -> Response:
    """A table or column the server needs is not in the database. When the schema is behind this
    server's (``kotlik web`` started before ``kotlik migrate``), 503 says what to do; when it is
    not, the error is a bug, and stays a 500."""
    state = readiness.schema(pool())
    if state == readiness.OK:
        raise error
    return _retry_later(f"the database's schema is not this server's: {state}", "not-migrated")


def gunicorn_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's own refusals (a request line or headers past its limits, a request it cannot
    parse), which never reach the app, as problem details rather than its HTML page."""
    from gunicorn.util import write_nonblock

    body = json.dumps({"type": "about:blank", "title": reason, "status": status_int, "detail": mesg}).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    write_nonblock(sock, head.encode("latin-1") + body)


def answer_gunicorn_errors_as_problems() -> None:
    """Have this process's gunicorn worker send :func:`gunicorn_problem` (it looks its error writer
    up in ``gunicorn.util`` on every error)."""
    import gunicorn.util

    gunicorn.util.write_error = gunicorn_problem


def register(app: Flask) -> None:
    for cls, (status, slug, title) in STATUS.items():
        app.register_error_handler(cls, _domain(status, slug, title))
    app.register_error_handler(ValidationError, invalid)
    app.register_error_handler(HTTPException, http_problem)
    app.register_error_handler(OperationalError, unavailable)
    app.register_error_handler(PoolTimeout, unavailable)
    app.register_error_handler(UndefinedTable, unmigrated)
    app.register_error_handler(UndefinedColumn, unmigrated)
