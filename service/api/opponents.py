"""Finding an opponent: seeks (quick pairing), the ratings' leaderboards and players' public profiles.

Open seats (``POST /games`` with ``{"open": true}`` seats, ``POST /games/{id}/join``) live with the
games in :mod:`service.api.games`; these are the resources of their own.
"""

from __future__ import annotations

import time
from typing import Any
from uuid import UUID

from flask import url_for
from flask.views import MethodView
from marshmallow import ValidationError

import games
from commands import seeks as seeking
from games.interface import InvalidOptions
from projections import clocks, players, ratings, seeks
from service.context import answering_within, caches, connection
from service.contract import schemas
from service.contract.pagination import Blueprint
from service.contract.problems import NotFound
from service.guard.auth import caller_player
from service.live import listener, polls
from service.live.handover import after_answer

blp = Blueprint(
    "opponents",
    __name__,
    url_prefix="/api/v1",
    description="Quick pairing (seeks), ratings and players' public profiles",
)
_KEY: list[dict[str, list[str]]] = [{"player": []}]


@blp.route("/seeks")
class Seeks(MethodView):
    @blp.arguments(schemas.SeekRequestSchema())
    @blp.response(201, schemas.SeekSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(422, schema=schemas.ProblemSchema)
    @blp.alt_response(429, schema=schemas.ProblemSchema)
    @blp.doc(security=_KEY)
    def post(self, body: dict[str, Any]) -> tuple[seeks.Seek, int, dict[str, str]]:
        """Seek a game: paired at once with other players' seeks that fit (same game, seats, rated
        or casual, clock), else waiting until they come, its `fallback` bot's time, or it expires.

        The answer's `status` is `paired` (with `game_id`) or `waiting`; a waiting seek's player
        hears of its pairing by their webhook `paired` and by `GET /seeks/{id}`.
        """
        request = _checked(body)
        with connection() as conn:
            placed = seeking.place(conn, caller_player(conn), request, caches=caches())
        after_answer(placed.queued)
        return placed.seek, 201, {"Location": url_for("opponents.Seek", seek_id=placed.seek.id)}


@blp.route("/seeks/<uuid:seek_id>")
class Seek(MethodView):
    @blp.arguments(schemas.SeekQuerySchema(), location="query")
    @blp.response(200, schemas.SeekSchema)
    @blp.alt_response(404, schema=schemas.ProblemSchema)
    def get(self, query: dict[str, Any], seek_id: UUID) -> seeks.Seek:
        """A seek's status: `waiting`, `paired` (with its `game_id`), `cancelled` or `expired`.

        With `?wait=N` a waiting seek's answer waits up to N seconds for it to close: the waiting
        player hears of a pairing the moment it commits, in one request, without polling.
        """
        wait = query.get("wait") or 0
        if not wait:
            return _seek(seek_id)
        heard = listener.current()
        deadline = time.monotonic() + wait
        # Before the read, the signal: a pairing after it wakes us. A 503 within the wait (and a
        # second), should the database be away, as the state's long-poll answers.
        with answering_within(wait + polls.GRACE), heard.signals(seek_id) as woken:
            while True:
                seek = _seek(seek_id)  # no connection is held while waiting
                remaining = deadline - time.monotonic()
                if seek.status != "waiting" or remaining <= 0:
                    return seek
                # Without the listener, a notice may be missed: look again every second.
                woken.wait(remaining if heard.listening() else min(remaining, 1.0))
                woken.clear()

    @blp.response(200, schemas.SeekSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(404, schema=schemas.ProblemSchema)
    @blp.alt_response(409, schema=schemas.ProblemSchema)
    @blp.doc(security=_KEY)
    def delete(self, seek_id: UUID) -> seeks.Seek:
        """Cancel a seek of yours that still waits."""
        with connection() as conn:
            return seeking.cancel(conn, seek_id, caller_player(conn))


def _seek(seek_id: UUID) -> seeks.Seek:
    with connection() as conn:
        seek = seeks.get(conn, seek_id)
    if seek is None:
        raise NotFound(f"no seek {seek_id}")
    return seek


def _checked(body: dict[str, Any]) -> dict[str, Any]:
    """The seek with its clock parsed; a seating the game refuses is a 422 naming the field."""
    game = games.load(body["game"])
    seats, fallback = body["seats"], body.get("fallback")
    try:
        games.check_seats(game, [None] * seats, {})
    except InvalidOptions as e:
        raise ValidationError({"seats": [e.reason]}) from None
    if fallback is not None:
        bot = fallback["bot"]
        try:
            games.check_seats(game, [None, *[bot] * (seats - 1)], {})
        except InvalidOptions as e:
            raise ValidationError({"fallback": {"bot": [e.reason]}}) from None
        if body["rated"] and seats > 2:
            raise ValidationError(
                {"fallback": ["a bot level is one rated player: a rated fallback takes 2 seats"]}
            )
        if body["rated"]:
            try:
                games.check_seats(game, [bot] * seats, {})
            except InvalidOptions:
                raise ValidationError(
                    {"rated": [f"a game against the automaton {bot!r} is not rated"]}
                ) from None
    clock = clocks.parse(body["clock"], game.BOTS) if "clock" in body else None
    return {**body, "clock": clock}


@blp.route("/ratings/<string:game>")
class Leaderboard(MethodView):
    @blp.response(200, schemas.RatingEntrySchema(many=True))
    @blp.alt_response(404, schema=schemas.ProblemSchema)
    @blp.paginate()
    def get(self, game: str, pagination_parameters: Any) -> list[ratings.Entry]:
        """A game's leaderboard, best first by `rating` (OpenSkill's conservative mu - 3 sigma)."""
        games.load(game)
        size = pagination_parameters.page_size
        with connection() as conn:
            entries, total = ratings.leaderboard(conn, game, size, (pagination_parameters.page - 1) * size)
        pagination_parameters.item_count = total
        return entries


@blp.route("/players/<uuid:player_id>")
class Profile(MethodView):
    @blp.response(200, schemas.ProfileSchema)
    @blp.alt_response(404, schema=schemas.ProblemSchema)
    def get(self, player_id: UUID) -> dict[str, Any]:
        """A player's public profile: name, rating per game, games played, recent results."""
        with connection() as conn:
            profile = players.profile(conn, player_id)
            if profile is None:
                raise NotFound(f"no player {player_id}")
            return {**profile, "ratings": ratings.of_player(conn, player_id)}
