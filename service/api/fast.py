"""The two requests a playing client makes most, answered beneath Flask: ``GET /actions`` and
``POST /commands`` with a bearer token.

A client that plays asks for its legal commands and posts one, move after move, so on a busy server
these two are most of the requests. Flask's part of such a request (its context, routing, hooks,
flask-smorest's wrappers, the response object) was much of its cost (figures: docs/performance.md,
"A seat's `/actions` and commands beneath Flask"). :class:`HotRoutes` answers them with the
functions the views call (:mod:`service.api.turns`), under the same rate limits and with the
same headers, CORS included.

Whatever it cannot answer as plainly goes on to the app untouched: no token or a token of no seat,
a body that is not plainly a command in JSON (the app's schemas and problems judge it), a request
past a rate limit, an error while answering ``/actions`` (a read: asking again changes nothing).
An error raised while a command is played (an unknown game among them) is answered by the app's
own error handlers, so every problem stays the app's and nothing is played twice.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from functools import partial
from http import HTTPStatus
from typing import Any
from uuid import UUID

from flask import Flask, Response

from events.outbox import Queued
from service.api.turns import key_fits, legal_now, plain_command, play
from service.contract import bodies
from service.guard import cors
from service.guard.auth import bearer_token, holder, seat_and_game
from service.guard.ratelimit import COUNTED
from service.live import handover
from service.live.polls import UUID_PATTERN, StartResponse, is_version

#: Status, body, headers, and the committed work to hand to the broker once the body is sent.
Answer = tuple[int, bytes, dict[str, str], Sequence[Queued]]


class HotRoutes:
    """WSGI: ``GET /actions`` and ``POST /commands`` of a seat, answered here; every other request
    goes on to the app's ``wsgi_app`` untouched."""

    def __init__(self, app: Flask, prefix: str) -> None:
        self.flask = app
        self.app = app.wsgi_app
        self.pool = app.extensions["kotlik.pool"]
        self.caches = app.extensions["kotlik.caches"]
        self.newest = app.extensions["kotlik.listener"].latest
        self.rate = app.extensions.get("kotlik.rate_limits")
        self.cors = cors.policy(app.config)
        self.max_body: int = app.config["MAX_CONTENT_LENGTH"]
        self._path = re.compile(f"{re.escape(prefix)}/games/({UUID_PATTERN})/(actions|commands)")

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        answer = self._answer(environ)
        if answer is None:
            return self.app(environ, start_response)
        if isinstance(answer, Response):
            return answer(environ, start_response)
        status, body, headers, queued = answer
        if self.cors is not None:
            headers = self.cors.annotated(headers, environ.get("HTTP_ORIGIN"))
        start_response(
            f"{status} {HTTPStatus(status).phrase.upper()}",
            [("Content-Type", "application/json"), ("Content-Length", str(len(body))), *headers.items()],
        )
        return handover.Then([body], partial(handover.publish, self.pool, queued)) if queued else [body]

    def _answer(self, environ: dict[str, Any]) -> Answer | Response | None:
        found = self._path.fullmatch(environ.get("PATH_INFO", ""))
        token = bearer_token(environ.get("HTTP_AUTHORIZATION", ""))
        if found is None or token is None:
            return None
        game_id, method = UUID(found.group(1)), environ.get("REQUEST_METHOD")
        if (
            found.group(2) == "actions"
            and method == "GET"
            and "final=" not in environ.get("QUERY_STRING", "")
        ):
            return self._actions(environ, game_id, token)
        if found.group(2) == "commands" and method == "POST":
            return self._command(environ, game_id, token)
        return None

    def _actions(self, environ: dict[str, Any], game_id: UUID, token: str) -> Answer | None:
        if not self._within_limits(environ, "games.Actions"):
            return None
        try:
            with self.pool.connection() as conn:
                seated, row, folded = seat_and_game(conn, self.caches, game_id, token, self.newest)
                if seated is None:
                    return None
                actions, headers = legal_now(conn, self.caches, row, folded, seated.seat)
        except Exception:  # the app answers it with its problem: asking again changes nothing
            return None
        return 200, bodies.encode(actions), headers, ()

    def _command(self, environ: dict[str, Any], game_id: UUID, token: str) -> Answer | Response | None:
        body = self._plain_body(environ)
        if body is None or not self._within_limits(environ, "games.Commands"):
            return None
        try:
            with self.pool.connection() as conn:
                if self.caches.tokens.held(game_id) or self.caches.states.get(game_id) is not None:
                    seated = holder(conn, self.caches, game_id, token)
                else:  # the game's first request here: its seat and its state in one round trip
                    seated = seat_and_game(conn, self.caches, game_id, token)[0]
                if seated is None:
                    return None
                key = environ.get("HTTP_IDEMPOTENCY_KEY")
                if not key_fits(key):
                    return None  # the app's 400
                payload, headers, queued = play(
                    conn, self.caches, game_id, (token, seated), body, key, self.newest
                )
        except Exception as error:  # every error gets the app's own answer
            return self._problem(environ, error)
        return 201, bodies.encode(payload), headers, queued

    def _plain_body(self, environ: dict[str, Any]) -> dict[str, Any] | None:
        """The body, if it is plainly a command in JSON within the app's bounds; the app can read it
        again either way."""
        media = environ.get("CONTENT_TYPE", "")
        length = environ.get("CONTENT_LENGTH", "")
        # a length of more than nine digits is past any body limit: the app refuses it (413)
        if media.partition(";")[0].strip() != "application/json" or not is_version(length):
            return None
        size = int(length)
        if not 0 < size <= self.max_body or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        data = environ["wsgi.input"].read(size)
        environ["wsgi.input"] = io.BytesIO(data)
        try:
            body = self.flask.json.loads(data)
        except ValueError:
            return None
        return dict(body) if len(data) == size and plain_command(body) else None

    def _within_limits(self, environ: dict[str, Any], endpoint: str) -> bool:
        """Whether the request is within the rate limits, counting it as the app would; if it is
        not, the app counts and refuses it itself."""
        if self.rate is None:
            return True
        refused = self.rate.refusal(
            environ["REQUEST_METHOD"], endpoint, environ.get("REMOTE_ADDR"), environ.get("HTTP_AUTHORIZATION")
        )
        environ[COUNTED] = refused is None
        return refused is None

    def _problem(self, environ: dict[str, Any], error: Exception) -> Response:
        """The app's answer to ``error`` raised by its view, after-request hooks included."""
        app = self.flask
        with app.request_context(environ):
            try:
                return app.finalize_request(app.handle_user_exception(error))
            except Exception as unhandled:  # as Flask's wsgi_app does: a 500
                return app.handle_exception(unhandled)
