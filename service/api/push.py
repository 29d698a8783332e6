"""Web Push: the server's VAPID public key, and a player's subscriptions (a browser's push endpoint
with its keys), told "your turn" and clock warnings with no Kotlík tab open.

Subscriptions belong to players, not seats: a player key holds every seat of the person, on every
device, so one opt-in covers the games they are in now and those they join later; a seat token is
one game's, and the web client makes a player of whoever opts in without one (the lobby's "become
a player"). The endpoint passes the webhooks' address checks here and again before each push.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from projections import push, webhooks
from projections.push import Subscription
from service.context import connection
from service.contract import schemas
from service.contract.problems import NotFound
from service.contract.push import (
    PushKeySchema,
    PushSubscriptionRequestSchema,
    PushSubscriptionSchema,
)
from service.guard.auth import caller_player
from workers import vapid

blp = Blueprint(
    "push",
    __name__,
    url_prefix="/api/v1",
    description="Web Push: the server's VAPID key and a player's browser subscriptions",
)
_KEY: list[dict[str, list[str]]] = [{"player": []}]


def public_key() -> str:
    """The VAPID public key, from the key the app loaded (or made) at start."""
    return vapid.public_key(current_app.extensions["kotlik.vapid_key"])


@blp.route("/push/key")
class Key(MethodView):
    @blp.response(200, PushKeySchema)
    def get(self) -> dict[str, str]:
        """The key a browser subscribes with (`PushManager.subscribe({applicationServerKey})`):
        every push this server sends is signed with its private half (VAPID, RFC 8292)."""
        return {"key": public_key()}


@blp.route("/players/me/push")
class MyPush(MethodView):
    @blp.arguments(PushSubscriptionRequestSchema())
    @blp.response(201, PushSubscriptionSchema)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(422, schema=schemas.ProblemSchema)
    @blp.doc(security=_KEY)
    def post(self, body: dict[str, Any]) -> Subscription:
        """Subscribe a browser (the JSON of its `PushSubscription`) to the player's turns.

        The same endpoint again answers the subscription it has; given by another player (the
        browser changed hands), or with other keys, it replaces the old one. A player keeps at
        most 20: the oldest gives way.
        """
        try:
            webhooks.check_url(body["endpoint"], "push endpoint")
        except webhooks.RefusedUrl as e:
            raise push.RefusedEndpoint(str(e)) from None
        with connection() as conn:
            player = caller_player(conn)
            return push.subscribe(conn, player.id, body["endpoint"], body["keys"])

    @blp.response(200, PushSubscriptionSchema(many=True))
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.doc(security=_KEY)
    def get(self) -> list[Subscription]:
        """The player's active subscriptions."""
        with connection() as conn:
            return push.of_player(conn, caller_player(conn).id)


@blp.route("/players/me/push/<uuid:subscription_id>")
class MyPushOne(MethodView):
    @blp.response(204)
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(404, schema=schemas.ProblemSchema)
    @blp.doc(security=_KEY)
    def delete(self, subscription_id: UUID) -> None:
        """Unsubscribe: the browser gets no more pushes. Again, or another player's: 404."""
        with connection() as conn:
            if not push.unsubscribe(conn, caller_player(conn).id, subscription_id):
                raise NotFound("no active push subscription of yours has this id")
