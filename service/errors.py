"""Every error as RFC 9457 problem details, built in one place.

Views raise domain errors (``IllegalMove``, ``VersionConflict``...) where they are found; this
module maps each class to a status once. Nothing is appended on any error: the write path runs in
one transaction that an exception rolls back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, Response, json
from marshmallow import ValidationError
from psycopg import OperationalError
from psycopg_pool import PoolTimeout
from werkzeug.exceptions import HTTPException

from events import VersionConflict
from games import UnknownGame
from games.interface import IllegalMove, InvalidOptions, NotYourTurn
from projections.commands import GameOver, KeyReused
from projections.lobby import GameNotFound
from projections.tokens import TokenExpired

PROBLEMS = "https://kotlik.dev/problems/"


class Unauthorized(Exception):
    """No bearer token where one is required, or one that belongs to no seat of this game."""


class NotFound(Exception):
    """A resource of an existing game that does not exist (yet)."""


#: Domain error → (status, problem type slug, title).
STATUS: dict[type[Exception], tuple[int, str, str]] = {
    GameNotFound: (404, "game-not-found", "Unknown game"),
    UnknownGame: (404, "unknown-game-type", "Unknown kind of game"),
    NotFound: (404, "not-found", "Not found"),
    Unauthorized: (401, "unauthorized", "Missing or unknown seat token"),
    TokenExpired: (401, "token-expired", "Expired seat token"),
    NotYourTurn: (409, "not-your-turn", "Not your turn"),
    GameOver: (409, "game-over", "The game is over"),
    VersionConflict: (409, "stale-version", "Stale version"),
    IllegalMove: (422, "illegal-move", "Illegal move"),
    InvalidOptions: (422, "invalid-options", "Invalid game options"),
    KeyReused: (422, "idempotency-key-reused", "Idempotency-Key reused"),
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


def _domain(status: int, slug: str, title: str) -> Callable[[Exception], Response]:
    def handle(error: Exception) -> Response:
        detail = getattr(error, "reason", None) or str(error)
        extra: dict[str, Any] = {}
        if isinstance(error, VersionConflict) and error.actual is not None:
            extra["version"] = error.actual
        return problem(status, title, detail, slug, **extra)

    return handle


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


#: Seconds a client is asked to wait when the database cannot be reached.
RETRY_AFTER = 5


def unavailable(error: Exception) -> Response:
    """The database is unreachable or every connection is busy: retry later, nothing was written
    (a command whose transaction did not commit appended nothing)."""
    response = problem(
        503, "Service Unavailable", "the database cannot be reached; retry shortly", "unavailable"
    )
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def register(app: Flask) -> None:
    for cls, (status, slug, title) in STATUS.items():
        app.register_error_handler(cls, _domain(status, slug, title))
    app.register_error_handler(ValidationError, invalid)
    app.register_error_handler(HTTPException, http_problem)
    app.register_error_handler(OperationalError, unavailable)
    app.register_error_handler(PoolTimeout, unavailable)
