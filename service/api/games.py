"""``/games``: create, list, watch, replay and play games, for every game alike."""

from __future__ import annotations

from functools import partial
from typing import Any
from uuid import UUID

from flask import Response, request, stream_with_context, url_for
from flask.views import MethodView
from marshmallow import ValidationError
from psycopg import Connection
from werkzeug.exceptions import BadRequest

import commands
import games
from commands import openings
from events import StoredEvent, read
from projections import clocks, lobby, seen
from projections.fold import Folded, opening_version, state_at
from projections.lobby import GameRow
from service.api.turns import MAX_IDEMPOTENCY_KEY, final_ones, key_fits, legal_now, plain_command, play
from service.context import answering_within, caches, connection
from service.contract import bodies, schemas, validation
from service.contract.pagination import Blueprint
from service.contract.problems import NoSuchVersion, NotFound
from service.guard.auth import caller_holder, caller_player, caller_seat, player_if_any
from service.live import listener, polls
from service.live.feed import KEEP_ALIVE, STREAM_SECONDS, stream
from service.live.handover import after_answer
from service.live.polls import current_state, etag, is_version, state_body, tagged_version

blp = Blueprint(
    "games",
    __name__,
    url_prefix="/api/v1/games",
    description="Create, play, watch and replay games",
)


def summary(row: GameRow) -> dict[str, Any]:
    """A game as the lobby shows it; the arrangement and seed stay secret until it is over."""
    out = {k: getattr(row, k) for k in schemas.GameSummarySchema().fields if hasattr(row, k)}
    out["game"] = row.kind
    out["options"] = seen.options(row)
    out["seed"] = row.seed.hex() if row.status == "finished" and row.seed is not None else None
    return out


def created_answer(created: commands.Created) -> tuple[dict[str, Any], int, dict[str, str]]:
    """A new game's 201: its summary with each human seat's token and the webhooks' secrets."""
    out = summary(created.game)
    out["seats"] = [{**s, "token": created.tokens.get(s["seat"])} for s in created.game.seats]
    out["webhooks"] = created.webhooks
    return out, 201, {"Location": url_for("games.Game", game_id=created.game.id)}


def _running_state(conn: Connection[Any], row: GameRow) -> Any:
    """The state to redact events by while the game runs; ``None`` once it is over."""
    if row.status != "active":
        return None
    return caches().states.load(conn, row.id, row.rules, row.version).state


@blp.route("")
class Games(MethodView):
    @blp.arguments(schemas.CreateGameSchema())
    @blp.response(201, schemas.CreatedGameSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(422, schema=schemas.ProblemSchema)
    def post(self, body: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
        """Create a game; each human seat's bearer token is shown only in this response.

        A seat may name a `player` (bound to them: their key plays it too); the option `clock`
        gives every move a time limit; `webhooks` notify the creator of this game's news.
        A seat `{"open": true}` waits for a player to take it (`POST /games/{id}/join`): the game
        is listed in `GET /games?open=true` and starts when its last seat is taken. Such a game,
        and a `rated` one, is created with the creator's player key, the creator sitting as
        `{"player": <their id>}`. A game created with a player key (any game) records its creator,
        who may then reissue its seats' tokens (`POST /games/{id}/seats/{seat}/token`); any other
        bearer token (a seat's, say) is not looked at here.
        """
        options = dict(body["options"])
        clock = clocks.parse(options.pop("clock", None), games.load(body["game"]).BOTS)
        validation.check_options(body["game"], options)
        with connection() as conn:
            opening = body["rated"] or any(s.get("open") for s in body["seats"])
            creator = caller_player(conn) if opening else player_if_any(conn)
            created = commands.create_game(
                conn,
                body["game"],
                body["seats"],
                options,
                clock=clock,
                hooks=body["webhooks"],
                caches=caches(),
                rated=body["rated"],
                creator=None if creator is None else creator.id,
                expires_in=body.get("expires_in"),
            )
        after_answer(created.queued)
        return created_answer(created)

    @blp.arguments(schemas.LobbyQuerySchema(), location="query")
    @blp.response(200, schemas.GameSummarySchema(many=True))
    @blp.paginate()
    def get(self, query: dict[str, Any], pagination_parameters: Any) -> list[dict[str, Any]]:
        """The lobby, newest first; filter by ``game``, ``status`` and ``rated``; ``open=true``
        lists the games waiting for players."""
        size = pagination_parameters.page_size
        status = "open" if query.get("open") else query.get("status")
        with connection() as conn:
            rows, total = lobby.page(
                conn,
                query.get("game"),
                status,
                size,
                (pagination_parameters.page - 1) * size,
                rated=query.get("rated"),
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

    @blp.response(200, schemas.GameSummarySchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(403, schema=schemas.ProblemSchema)
    @blp.alt_response(404, schema=schemas.ProblemSchema)
    @blp.alt_response(409, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"player": []}])
    def delete(self, game_id: UUID) -> dict[str, Any]:
        """Cancel a game that waits for players; only its creator may (with their player key)."""
        with connection() as conn:
            return summary(openings.cancel(conn, game_id, caller_player(conn)))


@blp.route("/<uuid:game_id>/join")
class Join(MethodView):
    @blp.arguments(schemas.JoinSchema())
    @blp.response(201, schemas.JoinedSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(404, schema=schemas.ProblemSchema)
    @blp.alt_response(409, schema=schemas.ProblemSchema)
    @blp.alt_response(422, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"player": []}])
    def post(self, body: dict[str, Any], game_id: UUID) -> dict[str, Any]:
        """Take an open seat (`seat`, or the first open one) with your player key, which plays it.

        The last seat taken starts the game. A seat already taken, or a game started, cancelled
        or expired, is a 409 saying which; so is a second seat of a rated game.
        """
        with connection() as conn:
            joined = openings.join(
                conn,
                game_id,
                caller_player(conn),
                body.get("seat"),
                entropy=body.get("entropy"),
                caches=caches(),
            )
        after_answer(joined.queued)
        return {
            "game": summary(joined.game),
            "seat": joined.seat,
            "started": joined.started,
        }


@blp.route("/<uuid:game_id>/state")
class State(MethodView):
    @blp.arguments(schemas.StateQuerySchema(), location="query")
    @blp.response(200, schemas.StateSchema)
    @blp.alt_response(304, description="not modified (If-None-Match, or nothing new within wait)")
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"seat": []}, {}])
    def get(self, query: dict[str, Any], game_id: UUID) -> Any:
        """The caller's view (a spectator's without a token); ``?at=`` replays to a version
        (while the game runs, only what the caller may still recall then: the rules' ``recall``);
        a version the game has no state at (past its current one, before its set-up) is 404.

        ``ETag`` is the version. With ``?wait=N`` the request waits up to N seconds for a version
        newer than ``If-None-Match`` (or ``?since=``) and answers 304 if none comes: the answer
        takes at most N seconds and the time to send it, so set a read timeout past N.
        """
        at = query.get("at")
        known = query.get("since", tagged_version(request.headers.get("If-None-Match")))
        if at is None and known is not None and query.get("wait"):
            return _long_poll(game_id, known, query["wait"])
        with connection() as conn:
            row, now = caches().states.with_row(
                conn, game_id, partial(lobby.later, game_id=game_id), listener.current().latest
            )
            seat = caller_seat(conn, game_id, required=False, row=row)
            if at is not None:
                return _replay(conn, row, seat, at)
        if known is None or row.version > known:
            return _now(row, now, seat)
        return _not_modified(row.version)


def _long_poll(game_id: UUID, known: int, wait: float) -> Any:
    """The state once the game passes ``known``, or 304 after ``wait`` seconds (:mod:`service.live.polls`,
    whose WSGI layer answers the plain spectators' polls before they reach this view)."""
    seat = None
    with answering_within(wait + polls.GRACE):  # a 503 within the wait, if the database is away
        if "Authorization" in request.headers:
            with connection() as conn:
                seat = caller_seat(conn, game_id, required=False)
        rendered = polls.current().next(game_id, known, wait, seat)
    if rendered is None:
        return _not_modified(known)
    return bodies.encoded(rendered.body, 200, etag(rendered.version))


def _not_modified(version: int) -> Response:
    return Response(status=304, headers=etag(version))


def _replay(conn: Connection[Any], row: GameRow, seat: int | None, at: int) -> Any:
    """The state at version ``at`` as ``seat`` may recall it (:func:`_recalled`)."""
    game = row.rules
    if at > row.version:
        raise NoSuchVersion(f"the game is at version {row.version}")
    if at < (opening := opening_version(conn, row.id)):
        raise NoSuchVersion(f"the game is set up at version {opening}")
    then = state_at(conn, row.id, game, at=at)
    return _answer(
        row, then, seat, over=game.is_over(then.state), deadline=None, view=_recalled(conn, row, then, seat)
    )


def _now(row: GameRow, folded: Folded, seat: int | None) -> Any:
    return bodies.answer(current_state(row, folded, seat), 200, etag(folded.version))


def _answer(row: GameRow, folded: Folded, seat: int | None, *, over: bool, deadline: Any, view: Any) -> Any:
    body = state_body(row, folded, seat, over=over, deadline=deadline, view=view)
    return bodies.answer(body, 200, etag(folded.version))


def _recalled(conn: Connection[Any], row: GameRow, then: Folded, seat: int | None) -> Any:
    """A replayed past view: while the game runs, only what ``seat`` may still recall of it now
    (the rules' ``recall``); once it is over, the whole view of then."""
    return seen.recalled(row.rules, _running_state(conn, row), then.state, seat)


#: The header ``?final=true`` adds (:class:`schemas.ActionsQuerySchema`).
FINAL_HEADER = {
    "Kotlik-Final": {
        "description": "with `?final=true`: the indexes of the final actions, comma-separated",
        "schema": {"type": "string"},
    }
}


@blp.route("/<uuid:game_id>/actions")
class Actions(MethodView):
    @blp.arguments(schemas.ActionsQuerySchema(), location="query")
    @blp.response(200, headers=FINAL_HEADER)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"seat": []}, {}])
    def get(self, query: dict[str, Any], game_id: UUID) -> Any:
        """The caller's legal commands now, each a body ready to POST to ``/commands``; last, the
        platform's `{"type": "undo"}` when the seat may take its newest move of the turn back."""
        with connection() as conn:
            row, folded = caches().states.with_row(
                conn, game_id, partial(lobby.later, game_id=game_id), listener.current().latest
            )
            seat = caller_seat(conn, game_id, required=False, row=row)
            actions, headers = legal_now(conn, caches(), row, folded, seat)
        if query["final"] and seat is not None:
            headers["Kotlik-Final"] = ",".join(map(str, final_ones(row, folded, seat, actions)))
        return bodies.answer(actions, 200, headers)


COMMAND = schemas.CommandSchema()


@blp.route("/<uuid:game_id>/commands")
class Commands(MethodView):
    @bodies.documented_body(COMMAND)
    @blp.response(201, schemas.AppendedSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(409, schema=schemas.ProblemSchema)
    @blp.alt_response(422, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"seat": []}])
    def post(self, game_id: UUID) -> Any:
        """Play a command as the caller's seat.

        The answer has the new version, the events the command caused as the caller may see them,
        and `to_move`: the seats to move now, so a client knows whether it plays again.
        `expected_version` makes a stale command fail with 409; an `Idempotency-Key` header makes a
        retried command return its first result without appending again (`to_move` and `over`
        are then the game's now).
        """
        body = bodies.read(blp, COMMAND, plain_command)
        with connection() as conn:
            token, seated = caller_holder(conn, game_id)
            key = _idempotency_key()
            payload, headers, queued = play(
                conn, caches(), game_id, (token, seated), body, key, listener.current().latest
            )
        after_answer(queued)
        return bodies.answer(payload, 201, headers)


def _idempotency_key() -> str | None:
    """The ``Idempotency-Key`` header, if sent: an empty or overlong one is a 400, as the document
    bounds it (Schemathesis sent both, and they were taken)."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not key_fits(key):
        raise BadRequest(
            f"an Idempotency-Key has 1 to {MAX_IDEMPOTENCY_KEY} characters; this one has {len(key)}"
        )
    return key


@blp.route("/<uuid:game_id>/events")
class Events(MethodView):
    @blp.arguments(schemas.EventsQuerySchema(), location="query")
    @blp.response(200, schemas.EventSchema(many=True))
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"seat": []}, {}])
    def get(self, query: dict[str, Any], game_id: UUID) -> Any:
        """The log as the caller may see it; whole and unredacted once the game is over."""
        with connection() as conn:
            row = lobby.get(conn, game_id)
            seat = caller_seat(conn, game_id, required=False, row=row)
            events = _events(conn, row, query["after"])
            state = _running_state(conn, row)
        return bodies.answer(seen.events(row, state, events, seat), 200, etag(row.version))


def _events(conn: Connection[Any], row: GameRow, after: int) -> list[StoredEvent]:
    """The events after ``after`` up to the row's version: from the cache when it holds them."""
    cached = caches().states.events(row.id, after, row.version)
    return cached if cached is not None else read(conn, row.id, after=after, upto=row.version)


#: The stream, for the document: one event of it (OpenAPI 3.1 gives a ``text/event-stream``'s
#: ``schema`` to each event, as Schemathesis reads it; 3.2 would call it ``itemSchema``), how it is
#: framed and when it ends (``service.live.feed``).
SSE = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "description": "the event's version", "x-optional": True},
        "event": {
            "type": "string",
            "description": "the event's type; `end` once the game is scored",
            "x-optional": True,
        },
        "data": {
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": {"anyOf": [{"$ref": "#/components/schemas/Event"}, {"const": {}}]},
            "description": "the event as `/events` sends it, as JSON; `{}` with `end`",
            "x-optional": True,
        },
        "retry": {
            "type": "integer",
            "description": "milliseconds to wait before reconnecting (the first, alone)",
            "x-optional": True,
        },
    },
    "description": (
        "Server-sent events: `retry: 2000` first; then per event `id: <version>`, `event: <type>` and "
        "`data: <an Event as /events sends it, as JSON>`; a `: keep-alive` comment every "
        f"{KEEP_ALIVE:.0f} s while the game is quiet; `event: end` once it is scored. The response ends "
        f"after at most {STREAM_SECONDS} s: reconnect with `Last-Event-ID`. A read timeout never fires "
        "on a quiet stream; bound the whole read instead."
    ),
}


@blp.route("/<uuid:game_id>/stream")
class Stream(MethodView):
    @blp.response(200, content_type="text/event-stream")
    @blp.doc(responses={200: {"content": {"text/event-stream": {"schema": SSE}}}})
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"seat": []}, {}])
    def get(self, game_id: UUID) -> Response:
        """Server-sent events: each new event as the caller may see it (``id`` = version).

        Reconnect with ``Last-Event-ID`` (or ``?after=``) to continue where the stream stopped.
        """
        after = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
        if not is_version(after):
            raise ValidationError("after must be a version number", "after")
        row = polls.current().rows.current(game_id)  # the streams opened at once share one read
        seat = None
        if "Authorization" in request.headers:
            with connection() as conn:
                seat = caller_seat(conn, game_id, required=False)
        row.rules  # noqa: B018 - rules this server does not ship answer a problem, not a broken stream
        return Response(
            stream_with_context(stream(row, seat, int(after))),
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )


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
