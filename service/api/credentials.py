"""Revoking credentials: a seat's token reissued (``POST /games/{id}/seats/{seat}/token``) and a
player's key rotated (``POST /players/me/key``); the old one is refused at once on every node
(:mod:`commands.credentials` says how)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView
from flask_smorest import Blueprint

from commands import credentials
from projections import lobby, players
from service.context import caches, connection
from service.contract import schemas
from service.contract.problems import NotSeatHolder, Unauthorized
from service.guard.auth import bearer, caller_player

blp = Blueprint(
    "credentials",
    __name__,
    url_prefix="/api/v1",
    description="Revoke and reissue a seat's token; rotate a player's key",
)


@blp.route("/games/<uuid:game_id>/seats/<int:seat>/token")
class SeatToken(MethodView):
    @blp.response(201, schemas.ReissuedTokenSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(403, schema=schemas.ProblemSchema)
    @blp.alt_response(404, schema=schemas.ProblemSchema)
    @blp.alt_response(409, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"seat": []}, {"player": []}])
    def post(self, game_id: UUID, seat: int) -> dict[str, Any]:
        """Revoke the seat's token and issue a new one, shown only in this response.

        Asked with the seat's token, with the key of a player bound to the seat, or with the key
        of the player who created the game. The old token is refused (401) from this answer on,
        by every node; the new one plays the seat. A player bound to the seat keeps playing it
        with their key. A bot's seat or an open one has no token (409).
        """
        token = bearer()
        if token is None:
            raise Unauthorized(
                "this needs the seat's token, the key of its player, or the key of the game's creator"
            )
        with connection() as conn:
            row = lobby.get(conn, game_id)
            by = _allowed(conn, row, seat, token)
            issued = credentials.reissue_token(conn, game_id, seat, by, caches=caches())
        return {"game_id": game_id, "seat": seat, "token": issued.token, "expires_at": issued.expires_at}


def _allowed(conn: Any, row: lobby.GameRow, seat: int, token: str) -> dict[str, Any]:
    """Who asks, for the log, if they may: the seat's holder or the game's creator."""
    player = players.by_key(conn, token)
    if player is not None:
        if row.creator == player.id or players.seats_of(conn, row.id).get(seat) == player.id:
            return {"player": str(player.id)}
        raise NotSeatHolder("your key holds neither this seat nor the game it belongs to")
    held = caches().tokens.seat_for(conn, row.id, token, row.credentials)
    if held == seat:
        return {"seat": seat}
    if held is not None:
        raise NotSeatHolder(f"your token holds seat {held}, not seat {seat}")
    raise Unauthorized("the token holds no seat in this game and is no key of a player")


@blp.route("/players/me/key")
class PlayerKey(MethodView):
    @blp.response(201, schemas.CreatedPlayerSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"player": []}])
    def post(self) -> dict[str, Any]:
        """Rotate the player's key: a new one, shown only in this response; the old one is
        refused (401) from this answer on, everywhere. The player's seats, games, webhooks and
        ratings stay theirs."""
        with connection() as conn:
            player, key = credentials.rotate_key(conn, caller_player(conn).id)
        return {"id": player.id, "name": player.name, "created_at": player.created_at, "key": key}
