"""``/games``: create, list, watch, replay and play games, for every game alike."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from flask import Response, request, stream_with_context, url_for
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import ValidationError

import games
from events import StoredEvent, read
from projections import commands, lobby
from projections.fold import PLATFORM, load, opening_version
from projections.lobby import GameRow
from service import schemas
from service.app import connection, database_url
from service.auth import caller_seat
from service.errors import NotFound
from service.live import wait_for_newer
from workers.relay import flush

log = logging.getLogger(__name__)

blp = Blueprint(
    "games",
    __name__,
    url_prefix="/api/v1/games",
    description="Create, play, watch and replay games",
)

#: How long one server-sent-events response stays open; clients reconnect with Last-Event-ID.
STREAM_SECONDS = 300


def summary(row: GameRow) -> dict[str, Any]:
    """A game as the lobby shows it; the arrangement and seed stay secret until it is over."""
    out = {k: getattr(row, k) for k in schemas.GameSummarySchema().fields if hasattr(row, k)}
    out["options"] = _public_options(row)
    out["seed"] = row.seed.hex() if row.status == "finished" else None
    return out


def _public_options(row: GameRow) -> dict[str, Any]:
    if row.status == "finished" or "arranged" not in row.options:
        return row.options
    return {**row.options, "arranged": "hidden until the game is over"}


def _running_state(conn: Any, row: GameRow) -> Any:
    """The state to redact events by while the game runs; ``None`` once it is over."""
    return load(conn, row.id, games.load(row.game)).state if row.status == "active" else None


def _relay() -> None:
    """Hand the outbox to the broker now; if it is down, the workers' sweep sends it later."""
    try:
        with connection() as conn:
            flush(conn)
    except Exception:  # the commit is done; the sweep retries what is left
        log.warning("outbox relay failed; the periodic sweep will resend", exc_info=True)


@blp.route("")
class Games(MethodView):
    @blp.arguments(schemas.CreateGameSchema)
    @blp.response(201, schemas.CreatedGameSchema)
    @blp.alt_response(422, schema=schemas.ProblemSchema)
    def post(self, body: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
        """Create a game; each human seat's bearer token is shown only in this response."""
        with connection() as conn:
            created = commands.create_game(conn, body["game"], body["seats"], body["options"])
        _relay()
        out = summary(created.game)
        out["seats"] = [{**s, "token": created.tokens.get(s["seat"])} for s in created.game.seats]
        return out, 201, {"Location": url_for("games.Game", game_id=created.game.id)}

    @blp.arguments(schemas.LobbyQuerySchema, location="query")
    @blp.response(200, schemas.GameSummarySchema(many=True))
    @blp.paginate()
    def get(self, query: dict[str, Any], pagination_parameters: Any) -> list[dict[str, Any]]:
        """The lobby, newest first; filter by ``game`` and ``status``."""
        size = pagination_parameters.page_size
        with connection() as conn:
            rows, total = lobby.page(
                conn,
                query.get("game"),
                query.get("status"),
                size,
                (pagination_parameters.page - 1) * size,
            )
        pagination_parameters.item_count = total
        return [summary(r) for r in rows]


@blp.route("/<uuid:game_id>")
class Game(MethodView):
    @blp.response(200, schemas.GameSummarySchema)
    @blp.alt_response(404, schema=schemas.ProblemSchema)
    def get(self, game_id: UUID) -> dict[str, Any]:
        """A game's summary: status, version, seats (no tokens), who is to move, the result."""
        with connection() as conn:
            return summary(lobby.get(conn, game_id))


@blp.route("/<uuid:game_id>/state")
class State(MethodView):
    @blp.arguments(schemas.StateQuerySchema, location="query")
    @blp.response(200, schemas.StateSchema)
    @blp.alt_response(304, description="not modified (If-None-Match, or nothing new within wait)")
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"seat": []}, {}])
    def get(self, query: dict[str, Any], game_id: UUID) -> Any:
        """The caller's view (a spectator's without a token); ``?at=`` replays to a version.

        ``ETag`` is the version. With ``?wait=N`` the request waits up to N seconds for a version
        newer than ``If-None-Match`` (or ``?since=``) and answers 304 if none comes.
        """
        at = query.get("at")
        known = query.get("since", _etag_version())
        with connection() as conn:
            row = lobby.get(conn, game_id)
            seat = caller_seat(conn, game_id, required=False)
        if at is None and known is not None and query.get("wait") and row.version <= known:
            wait_for_newer(database_url(), game_id, known, query["wait"])
        with connection() as conn:
            row = lobby.get(conn, game_id)
            if at is None and known is not None and row.version <= known:
                return Response(status=304, headers={"ETag": f'"{row.version}"'})
            if at is not None and at < (opening := opening_version(conn, game_id)):
                raise ValidationError({"query": {"at": [f"the game is set up at version {opening}"]}})
            game = games.load(row.game)
            folded = load(conn, game_id, game, at=at)
        over = game.is_over(folded.state)
        body = {
            "id": game_id,
            "version": folded.version,
            "seat": seat,
            "to_move": [] if over else game.to_move(folded.state),
            "over": over,
            "view": game.view(folded.state, seat),
        }
        return body, 200, {"ETag": f'"{folded.version}"'}


def _etag_version() -> int | None:
    tag = (request.headers.get("If-None-Match") or "").strip().removeprefix("W/").strip('"')
    return int(tag) if tag.isdigit() else None


@blp.route("/<uuid:game_id>/actions")
class Actions(MethodView):
    @blp.response(200)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"seat": []}, {}])
    def get(self, game_id: UUID) -> Any:
        """The caller's legal commands now, each a body ready to POST to ``/commands``."""
        with connection() as conn:
            row = lobby.get(conn, game_id)
            seat = caller_seat(conn, game_id, required=False)
            if seat is None or row.over:
                return [], 200, {"ETag": f'"{row.version}"'}
            game = games.load(row.game)
            folded = load(conn, game_id, game)
        return game.legal_actions(folded.state, seat), 200, {"ETag": f'"{folded.version}"'}


@blp.route("/<uuid:game_id>/commands")
class Commands(MethodView):
    @blp.arguments(schemas.CommandSchema)
    @blp.response(201, schemas.AppendedSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(409, schema=schemas.ProblemSchema)
    @blp.alt_response(422, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"seat": []}])
    def post(self, body: dict[str, Any], game_id: UUID) -> Any:
        """Play a command as the caller's seat.

        ``expected_version`` makes a stale command fail with 409; an ``Idempotency-Key`` header
        makes a retried command return its first result without appending again.
        """
        expected = body.pop("expected_version", None)
        key = request.headers.get("Idempotency-Key")
        with connection() as conn:
            lobby.get(conn, game_id)
            seat = caller_seat(conn, game_id, required=True)
            assert seat is not None
            played = commands.play(conn, game_id, seat, body, expected_version=expected, command_id=key)
        if not played.replayed:
            _relay()
        with connection() as conn:
            row = lobby.get(conn, game_id)
            state = _running_state(conn, row)
        shown = _shown(row, state, played.events, seat)
        headers = {"ETag": f'"{played.version}"'}
        if played.replayed:
            headers["Idempotent-Replayed"] = "true"
        return {"version": played.version, "events": shown}, 201, headers


@blp.route("/<uuid:game_id>/events")
class Events(MethodView):
    @blp.arguments(schemas.EventsQuerySchema, location="query")
    @blp.response(200, schemas.EventSchema(many=True))
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"seat": []}, {}])
    def get(self, query: dict[str, Any], game_id: UUID) -> Any:
        """The log as the caller may see it; whole and unredacted once the game is over."""
        with connection() as conn:
            row = lobby.get(conn, game_id)
            seat = caller_seat(conn, game_id, required=False)
            events = read(conn, game_id, after=query["after"])
            state = _running_state(conn, row)
        return _shown(row, state, events, seat), 200, {"ETag": f'"{row.version}"'}


def _shown(row: GameRow, state: Any, events: list[StoredEvent], seat: int | None) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them: redacted by the rules while the game runs."""
    game = games.load(row.game)
    out = []
    for event in events:
        if event.type.startswith(PLATFORM):
            data = event.data
            if state is not None and "options" in data:
                data = {**data, "options": _public_options(row)}
        elif state is None:
            data = event.data
        else:
            shown = game.redact(state, event.body(), seat)
            data = {k: v for k, v in shown.items() if k != "type"}
        out.append(
            {
                "version": event.version,
                "type": event.type,
                "data": data,
                "seat": event.meta.get("seat"),
                "recorded_at": event.recorded_at,
            }
        )
    return out


@blp.route("/<uuid:game_id>/stream")
class Stream(MethodView):
    @blp.response(200, content_type="text/event-stream")
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"seat": []}, {}])
    def get(self, game_id: UUID) -> Response:
        """Server-sent events: each new event as the caller may see it (``id`` = version).

        Reconnect with ``Last-Event-ID`` (or ``?after=``) to continue where the stream stopped.
        """
        after = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
        if not after.isdigit():
            raise ValidationError("after must be a version number", "after")
        with connection() as conn:
            lobby.get(conn, game_id)
            seat = caller_seat(conn, game_id, required=False)
        return Response(
            stream_with_context(_stream(game_id, seat, int(after))),
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )


def _stream(game_id: UUID, seat: int | None, after: int) -> Iterator[str]:
    yield "retry: 2000\n\n"
    deadline = time.monotonic() + STREAM_SECONDS
    while time.monotonic() < deadline:
        with connection() as conn:
            row = lobby.get(conn, game_id)
            events = read(conn, game_id, after=after)
            state = _running_state(conn, row) if events else None
        for event in _shown(row, state, events, seat):
            after = event["version"]
            yield f"id: {after}\nevent: {event['type']}\ndata: {json.dumps(event, default=str)}\n\n"
        if row.status == "finished" and row.version <= after:
            yield "event: end\ndata: {}\n\n"
            return
        if wait_for_newer(database_url(), game_id, after, min(15.0, deadline - time.monotonic())) is None:
            yield ": keep-alive\n\n"


@blp.route("/<uuid:game_id>/score")
class Score(MethodView):
    @blp.response(200, schemas.ScoreSchema)
    @blp.alt_response(404, schema=schemas.ProblemSchema)
    def get(self, game_id: UUID) -> dict[str, Any]:
        """The final score breakdown per seat, written by the scoring worker."""
        with connection() as conn:
            lobby.get(conn, game_id)
            result = lobby.score(conn, game_id)
        if result is None:
            raise NotFound("the game has not been scored yet")
        return result
