"""``/players``: players with a key, the seats bound to them across games ("where must I move?"),
their webhooks and the deliveries made to them; and claiming an invite with a player key."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView
from marshmallow import ValidationError

from commands import accept_entropy
from projections import lobby, players, webhooks
from service.api.games import summary
from service.context import caches, connection
from service.contract import schemas
from service.contract.pagination import Blueprint
from service.contract.problems import NotFound
from service.guard.auth import caller_player
from service.live.handover import after_answer

blp = Blueprint(
    "players",
    __name__,
    url_prefix="/api/v1",
    description="Players, their games across the server, webhooks and deliveries",
)
_KEY: list[dict[str, list[str]]] = [{"player": []}]


@blp.route("/players")
class Players(MethodView):
    @blp.arguments(schemas.PlayerRequestSchema())
    @blp.response(201, schemas.CreatedPlayerSchema)
    @blp.alt_response(409, schema=schemas.ProblemSchema)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a player; its bearer key is shown only in this response (only a hash is kept).
        Names are unique per server, whatever their case: a taken one is a 409."""
        with connection() as conn:
            player, key = players.create(conn, body["name"])
        return {"id": player.id, "name": player.name, "created_at": player.created_at, "key": key}


@blp.route("/players/me")
class Me(MethodView):
    @blp.response(200, schemas.PlayerSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.doc(security=_KEY)
    def get(self) -> players.Player:
        """The player whose key is the bearer token."""
        with connection() as conn:
            return caller_player(conn)

    @blp.arguments(schemas.PlayerRequestSchema())
    @blp.response(200, schemas.PlayerSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(409, schema=schemas.ProblemSchema)
    @blp.alt_response(422, schema=schemas.ProblemSchema)
    @blp.doc(security=_KEY)
    def patch(self, body: dict[str, Any]) -> players.Player:
        """Rename the player (names are unique; the games they sat in keep the name of then)."""
        with connection() as conn:
            return players.rename(conn, caller_player(conn).id, body["name"])


@blp.route("/players/me/games")
class MyGames(MethodView):
    @blp.arguments(schemas.PlayerGamesQuerySchema(), location="query")
    @blp.response(200, schemas.PlayerGameSchema(many=True))
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.paginate()
    @blp.doc(security=_KEY)
    def get(self, query: dict[str, Any], pagination_parameters: Any) -> list[dict[str, Any]]:
        """The player's games, newest activity first, each with `your_turn`; filter by `status`."""
        size = pagination_parameters.page_size
        with connection() as conn:
            player = caller_player(conn)
            rows, total = players.games(
                conn, player.id, query.get("status"), size, (pagination_parameters.page - 1) * size
            )
        pagination_parameters.item_count = total
        return [{**summary(r.game), "seat": r.seat, "your_turn": r.your_turn} for r in rows]


@blp.route("/players/me/webhooks")
class MyWebhooks(MethodView):
    @blp.arguments(schemas.WebhookRequestSchema())
    @blp.response(201, schemas.CreatedWebhookSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(422, schema=schemas.ProblemSchema)
    @blp.doc(security=_KEY)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Register a webhook for the player's notices; its signing secret is shown only here."""
        with connection() as conn:
            player = caller_player(conn)
            return webhooks.register(conn, body["url"], body["kinds"], player=player.id)

    @blp.response(200, schemas.WebhookSchema(many=True))
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.doc(security=_KEY)
    def get(self) -> list[dict[str, Any]]:
        """The player's webhooks (without their secrets)."""
        with connection() as conn:
            return webhooks.of_player(conn, caller_player(conn).id)


@blp.route("/players/me/webhooks/<uuid:webhook_id>")
class MyWebhook(MethodView):
    @blp.response(204)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(404, schema=schemas.ProblemSchema)
    @blp.doc(security=_KEY)
    def delete(self, webhook_id: UUID) -> None:
        """Remove one of the player's webhooks.

        It gets no more notices, and its deliveries not yet sent are `cancelled`; those already
        made stay in `GET /players/me/deliveries`. Removing it again answers 404.
        """
        with connection() as conn:
            if not webhooks.remove(conn, caller_player(conn).id, webhook_id):
                raise NotFound("no webhook of yours has this id (removed already?)")


@blp.route("/players/me/deliveries")
class MyDeliveries(MethodView):
    @blp.response(200, schemas.DeliverySchema(many=True))
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.doc(security=_KEY)
    def get(self) -> list[dict[str, Any]]:
        """The newest 100 deliveries to the player's webhooks, each with its attempts."""
        with connection() as conn:
            return webhooks.deliveries_of(conn, caller_player(conn).id)


@blp.route("/games/<uuid:game_id>/claim")
class Claim(MethodView):
    @blp.arguments(schemas.ClaimSchema())
    @blp.response(200, schemas.ClaimedSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(404, schema=schemas.ProblemSchema)
    @blp.alt_response(409, schema=schemas.ProblemSchema)
    @blp.alt_response(422, schema=schemas.ProblemSchema)
    @blp.doc(security=_KEY)
    def post(self, body: dict[str, Any], game_id: UUID) -> dict[str, Any]:
        """Claim an invite: bind the seat whose token is `token` to the caller's player key.

        Claiming it again is harmless; a seat bound to another player is a 409. The game's
        webhooks and the other seats' players hear of it (`invite_claimed`).
        """
        with connection() as conn:
            row = lobby.get(conn, game_id)
            player = caller_player(conn)
            seat = caches().tokens.seat_for(conn, game_id, body["token"], row.credentials)
            if seat is None:
                raise ValidationError("the token holds no seat in this game", "token")
            if body.get("entropy") is not None:
                accept_entropy(row, seat)
            with conn.transaction():
                queued = []
                if players.bind(conn, game_id, seat, player.id):
                    others = [s for s in range(len(row.seats)) if s != seat]
                    news = {"version": row.version, "claimed_seat": seat, "player_name": player.name}
                    queued += webhooks.announce(conn, game_id, "invite_claimed", news, others)
                    if seat in row.to_move and not row.over:
                        turn = {"version": row.version, "to_move": row.to_move}
                        queued += webhooks.announce(conn, game_id, "your_turn", turn, [seat])
        after_answer(queued)
        return {"game_id": game_id, "seat": seat, "player": player.id}
