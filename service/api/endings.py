"""Ending a game early and playing it again: resign, and a rematch of a finished game."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView
from flask_smorest import Blueprint

import commands
from games import InvalidOptions
from projections import lobby, players, seen
from service.api.games import created_answer
from service.context import caches, connection
from service.contract import schemas
from service.guard.auth import caller_seat
from service.live.handover import after_answer

blp = Blueprint("endings", __name__, url_prefix="/api/v1/games", description="Resign and rematch")
_SEAT: list[dict[str, list[str]]] = [{"seat": []}, {"player": []}]


@blp.route("/<uuid:game_id>/resign")
class Resign(MethodView):
    @blp.response(201, schemas.AppendedSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(409, schema=schemas.ProblemSchema)
    @blp.doc(security=_SEAT)
    def post(self, game_id: UUID) -> dict[str, Any]:
        """Resign the caller's seat: the game ends and is scored as a loss for that seat and a
        win for every other (`kotlik.SeatResigned`, the same for every game)."""
        with connection() as conn:
            seat = caller_seat(conn, game_id, required=True)
            assert seat is not None
            played = commands.resign(conn, game_id, [seat], "resigned", caches=caches())
        after_answer(played.queued)
        events = seen.events(played.game, None, played.events, seat)
        return {"version": played.version, "events": events, "to_move": [], "over": True}


@blp.route("/<uuid:game_id>/rematch")
class Rematch(MethodView):
    @blp.arguments(schemas.RematchSchema(), required=False)
    @blp.response(201, schemas.CreatedGameSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(409, schema=schemas.ProblemSchema)
    @blp.alt_response(422, schema=schemas.ProblemSchema)
    @blp.doc(security=_SEAT)
    def post(self, body: dict[str, Any], game_id: UUID) -> Any:
        """Start a rematch of a finished game: the same game, seats (and their players), options
        and clock. Any seat of it may; there is one rematch per game (then 409, and the summary
        names it in `rematch`). New seat tokens are in this answer; bound players use their keys.

        The rematch is dealt as it starts, so the seats' entropy comes with this request, as in
        `POST /games`: `{"seats": [{"seat": 0, "entropy": "<64 hex digits>"}]}`, a person's seat
        each, once (422 otherwise); a seat not listed gives none. With no body, none does.
        """
        with connection() as conn:
            caller_seat(conn, game_id, required=True)
            row = lobby.get(conn, game_id)
            if row.status != "finished" or row.rematch is not None:
                raise commands.RematchTaken("this game is not finished, or its rematch has started already")
            bound = players.seats_of(conn, game_id)
            entropy = _entropy(body.get("seats", []), len(row.seats))
            seats = [
                {
                    "name": s["name"],
                    "bot": s.get("bot"),
                    **({"player": bound[i]} if i in bound else {}),
                    **({"entropy": entropy[i]} if i in entropy else {}),
                }
                for i, s in enumerate(row.seats)
            ]
            created = commands.create_game(
                conn, row.kind, seats, dict(row.options), clock=row.clock, rematch_of=row.id, caches=caches()
            )
        after_answer(created.queued)
        return created_answer(created)


def _entropy(given: list[dict[str, Any]], seats: int) -> dict[int, str]:
    """The rematch's entropy by seat; a seat the game does not have is 422 (a bot's is refused
    where every seat's entropy is, in :func:`commands.seating.seat_record`)."""
    for g in given:
        if g["seat"] >= seats:
            raise InvalidOptions(f"seat {g['seat']}: the game has seats 0 to {seats - 1}")
    return {g["seat"]: g["entropy"] for g in given}
