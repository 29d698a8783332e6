"""The REST contract as marshmallow schemas; flask-smorest turns them into the OpenAPI document."""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema
from webargs.flaskparser import FlaskParser

import games
from games.rng import ENTROPY
from projections.webhooks import KINDS
from service.contract.document import OPTIONAL, PAGE_MAX

#: Versions are PostgreSQL integers; anything larger is refused, not overflowed.
VERSION = validate.Range(min=0, max=2**31 - 1)

#: PostgreSQL stores no U+0000 in text; a query string holding one was a 500 (bodies are checked
#: as they are read, by :func:`service.guard.limits.check_json`).
#: Written so that it reads the same as an ECMA regex in the OpenAPI document (no ``\A``/``\Z``).
NO_NUL = validate.Regexp(r"^[^\u0000]*$", error="may not hold U+0000")

#: Lobby pages: the row offset (page - 1) × page_size must stay a PostgreSQL bigint.
PAGE = validate.Range(min=1, max=PAGE_MAX)


class PaginationParser(FlaskParser):
    """flask-smorest's pagination parameters with ``page`` bounded too.

    Its schema bounds ``page_size`` (by ``max_page_size``) but not ``page``, and a page past
    2⁶³ rows overflowed the query's OFFSET into a 500; now it is a 422 like any bad field.
    """

    def parse(self, argmap: Any, req: Any = None, **kwargs: Any) -> Any:
        return super().parse(argmap, req, validate=_bounded_page, **kwargs)


def _bounded_page(params: Any) -> None:
    try:
        PAGE(params.page)
    except ValidationError as e:
        raise ValidationError({"page": e.messages}) from None


#: Set on each blueprint as its ``PAGINATION_ARGUMENTS_PARSER`` (read per request).
PAGINATION_PARSER = PaginationParser()


def _entropy(description: str) -> fields.String:
    """A seat's entropy: 64 lowercase hex digits (``docs/random.md``, "The key")."""
    return fields.String(
        validate=validate.Regexp(
            f"^{ENTROPY.pattern}\\Z", error="entropy must be 32 bytes as 64 lowercase hex digits (0-9, a-f)"
        ),
        metadata={"description": description, "pattern": f"^{ENTROPY.pattern}$"},
    )


#: Every status a game may have: waiting for players, running, being scored, finished, or closed unstarted.
STATUSES = ["open", "active", "scoring", "finished", "cancelled", "expired"]


class SeatRequestSchema(Schema):
    name = fields.String(
        validate=validate.Length(min=1, max=80),
        metadata={"description": "required unless `player` is given (then it defaults to theirs)"},
    )
    bot = fields.String(
        load_default=None, allow_none=True, metadata={"description": "a bot name, e.g. default"}
    )
    player = fields.UUID(metadata={"description": "a player's id: the seat is bound to that player"})
    entropy = _entropy(
        "a person's seat only: 32 random bytes of the player's own, in hex, keyed into the game's "
        "random stream with the server's seed (docs/random.md)"
    )
    open = fields.Boolean(
        metadata={"description": "left open for a player to take (`POST /games/{id}/join`); the game waits"}
    )

    @validates_schema
    def _named(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("open"):
            if data.get("name") or data.get("player") or data.get("bot") or data.get("entropy"):
                raise ValidationError(
                    "an open seat names nobody: a player takes it later (with their entropy)", "open"
                )
            return
        if not data.get("name") and not data.get("player"):
            raise ValidationError("a seat needs a name or a player", "name")
        if data.get("player") and data.get("bot"):
            raise ValidationError("a seat is a player's or a bot's, not both", "player")


class WebhookRequestSchema(Schema):
    url = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=2000), NO_NUL],
        metadata={"description": "http(s); private and loopback addresses are refused"},
    )
    kinds = fields.List(
        fields.String(validate=validate.OneOf(KINDS)),
        load_default=lambda: list(KINDS),
        validate=validate.Length(min=1, max=len(KINDS)),
        metadata={"description": f"the notices to send: {', '.join(KINDS)} (default: all)"},
    )


class CreateGameSchema(Schema):
    game = fields.String(
        required=True,
        validate=validate.OneOf(games.known(), error="unknown game {input!r}; this server hosts {choices}"),
        metadata={"example": "kupferkessel"},
    )
    seats = fields.List(
        fields.Nested(SeatRequestSchema), required=True, validate=validate.Length(min=1, max=8)
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={
            "description": "the game's options, and `clock` for any game: "
            '`{"per_move": "24h", "on_timeout": "bot" | "forfeit", "warn_before"?: "1h"}`'
        },
    )
    webhooks = fields.List(
        fields.Nested(WebhookRequestSchema),
        load_default=list,
        validate=validate.Length(max=5),
        metadata={"description": "the creator's webhooks for this game; each one's secret is in the answer"},
    )
    rated = fields.Boolean(
        load_default=False,
        metadata={"description": "the game moves its players' ratings; needs the creator's player key"},
    )
    expires_in = fields.Integer(
        validate=validate.Range(min=60, max=90 * 24 * 3600),
        metadata={"description": "seconds a game with open seats waits for players (default a week)"},
    )


class SeatSchema(Schema):
    seat = fields.Integer()
    name = fields.String(allow_none=True)
    bot = fields.String(allow_none=True)
    entropy = fields.String(
        allow_none=True,
        dump_default=None,
        metadata={"description": "the entropy the seat gave, as given; null: it gave none"},
    )
    player = fields.String(
        metadata={"description": "the player whose seat it is, if bound to one", OPTIONAL: True}
    )
    open = fields.Boolean(metadata={"description": "true while the seat waits for a player", OPTIONAL: True})


class CreatedSeatSchema(SeatSchema):
    token = fields.String(allow_none=True, metadata={"description": "bearer token, shown only here"})


class GameSummarySchema(Schema):
    id = fields.UUID()
    game = fields.String()
    status = fields.String(
        metadata={"description": "open (waiting for players), active, scoring, finished, cancelled, expired"}
    )
    version = fields.Integer()
    rules_version = fields.Integer()
    options = fields.Dict()
    arranged = fields.Boolean()
    seats = fields.List(fields.Nested(SeatSchema))
    to_move = fields.List(fields.Integer())
    result = fields.Dict(allow_none=True)
    seed_sha256 = fields.String()
    seed = fields.String(allow_none=True, metadata={"description": "revealed once the game is finished"})
    created_at = fields.DateTime()
    updated_at = fields.DateTime()
    clock = fields.Dict(allow_none=True, metadata={"description": "the turn clock, if the game has one"})
    deadline = fields.DateTime(
        allow_none=True, metadata={"description": "when the seats to move run out of time (RFC 3339)"}
    )
    rematch = fields.UUID(allow_none=True, metadata={"description": "the rematch of this game, once started"})
    rated = fields.Boolean(metadata={"description": "whether the game moves its players' ratings"})
    expires_at = fields.DateTime(
        allow_none=True, metadata={"description": "when a game waiting for players expires"}
    )


class WebhookSchema(Schema):
    id = fields.UUID()
    url = fields.String()
    kinds = fields.List(fields.String())
    created_at = fields.DateTime()


class CreatedWebhookSchema(WebhookSchema):
    secret = fields.String(
        metadata={"description": "the HMAC-SHA256 key of X-Kotlik-Signature, shown only here"}
    )


class CreatedGameSchema(GameSummarySchema):
    seats = fields.List(fields.Nested(CreatedSeatSchema))
    webhooks = fields.List(fields.Nested(CreatedWebhookSchema))


class PlayerRequestSchema(Schema):
    name = fields.String(required=True, validate=[validate.Length(min=1, max=80), NO_NUL])


class PlayerSchema(Schema):
    id = fields.UUID()
    name = fields.String()
    created_at = fields.DateTime()


class CreatedPlayerSchema(PlayerSchema):
    key = fields.String(metadata={"description": "the player's bearer key, shown only here"})


class PlayerGameSchema(GameSummarySchema):
    seat = fields.Integer(metadata={"description": "the player's seat in this game"})
    your_turn = fields.Boolean(metadata={"description": "the game waits on this player's seat"})


class PlayerGamesQuerySchema(Schema):
    status = fields.String(validate=validate.OneOf(["active", "scoring", "finished"]))


class SigningKeySchema(Schema):
    kty = fields.String(metadata={"description": "OKP"})
    crv = fields.String(metadata={"description": "Ed25519"})
    x = fields.String(metadata={"description": "the public key's 32 bytes, base64url"})
    kid = fields.String(metadata={"description": "the key's RFC 7638 thumbprint"})


class ClaimSchema(Schema):
    token = fields.String(
        required=True,
        validate=validate.Length(min=1, max=200),
        metadata={"description": "the invite's seat token"},
    )
    entropy = _entropy(
        "the seat's own entropy; counted only before the game is dealt (409 once it has been, "
        "or if the seat gave some already)"
    )


class RematchSeatSchema(Schema):
    seat = fields.Integer(
        required=True, validate=validate.Range(min=0, max=7), metadata={"description": "a person's seat"}
    )
    entropy = _entropy(
        "32 random bytes of the seat's player, in hex, keyed into the rematch's random stream with "
        "the server's new seed and the other seats' (docs/random.md)"
    )

    @validates_schema
    def _given(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("entropy") is None:
            raise ValidationError("a seat listed in a rematch gives its entropy", "entropy")


class RematchSchema(Schema):
    seats = fields.List(
        fields.Nested(RematchSeatSchema),
        load_default=list,
        validate=validate.Length(max=8),
        metadata={
            "description": "the seats that give entropy to the rematch's deal, each once; a person's "
            "seat only. The others give none (the rematch is dealt when it starts, so later is too late)"
        },
    )

    @validates_schema
    def _once(self, data: dict[str, Any], **kwargs: Any) -> None:
        listed = [s["seat"] for s in data.get("seats", [])]
        if len(listed) != len(set(listed)):
            raise ValidationError("each seat gives its entropy once", "seats")


class ReissuedTokenSchema(Schema):
    game_id = fields.UUID(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(
        required=True,
        metadata={"description": "the seat's new bearer token, shown only here; the old one is refused"},
    )
    expires_at = fields.DateTime(required=True)


class ClaimedSchema(Schema):
    game_id = fields.UUID()
    seat = fields.Integer()
    player = fields.UUID()


class DeliverySchema(Schema):
    id = fields.Integer()
    webhook_id = fields.UUID()
    url = fields.String()
    kind = fields.String()
    body = fields.Dict()
    status = fields.String(
        metadata={"description": "pending, delivered, failed, or cancelled (its webhook was removed)"}
    )
    attempts = fields.List(
        fields.Dict(), metadata={"description": "each attempt: at (Unix time), status (HTTP) or error"}
    )
    next_at = fields.DateTime()
    created_at = fields.DateTime()
    delivered_at = fields.DateTime(allow_none=True)


class LobbyQuerySchema(Schema):
    game = fields.String(validate=NO_NUL)
    status = fields.String(validate=validate.OneOf(STATUSES))
    open = fields.Boolean(metadata={"description": "true: the games waiting for players (`status=open`)"})
    rated = fields.Boolean(metadata={"description": "rated games only (true) or casual ones (false)"})


class JoinSchema(Schema):
    seat = fields.Integer(validate=validate.Range(min=0, max=7), metadata={"description": "an open seat"})
    entropy = _entropy(
        "32 random bytes of the player's own, in hex, keyed into the game's random stream with the "
        "server's seed and the other seats' (docs/random.md)"
    )


class JoinedSchema(Schema):
    game = fields.Nested(GameSummarySchema)
    seat = fields.Integer()
    started = fields.Boolean(metadata={"description": "this was the last open seat: the game has started"})


class StateQuerySchema(Schema):
    at = fields.Integer(
        validate=VERSION,
        metadata={"description": "replay to this version; one the game has no state at (yet) is 404"},
    )
    wait = fields.Integer(
        validate=validate.Range(min=0, max=60),
        metadata={
            "description": "long-poll: wait up to N seconds for a version newer than If-None-Match or since; "
            "the answer (304 if none came) takes at most N seconds and the time to send it"
        },
    )
    since = fields.Integer(validate=VERSION)


class StateSchema(Schema):
    id = fields.UUID()
    version = fields.Integer()
    seat = fields.Integer(allow_none=True)
    to_move = fields.List(fields.Integer())
    over = fields.Boolean()
    deadline = fields.DateTime(
        allow_none=True, metadata={"description": "when the seats to move run out of time (RFC 3339)"}
    )
    view = fields.Dict()


class CommandSchema(Schema):
    """A command body: ``type`` plus the game's own fields (see ``GET /actions``)."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, validate=validate.Length(min=1, max=64))
    expected_version = fields.Integer(validate=VERSION)


class EventSchema(Schema):
    version = fields.Integer()
    type = fields.String()
    data = fields.Dict()
    seat = fields.Integer(allow_none=True, metadata={"description": "the seat whose command caused it"})
    command = fields.Dict(
        allow_none=True,
        metadata={
            "description": "the command that caused it; while the game runs, other seats see only its type"
        },
    )
    recorded_at = fields.DateTime()


class AppendedSchema(Schema):
    """What a command (or a resignation) did: the new version, the events it caused as the caller
    may see them, and who moves next, so a client knows whether to play again without asking."""

    version = fields.Integer()
    events = fields.List(fields.Nested(EventSchema))
    to_move = fields.List(
        fields.Integer(),
        metadata={"description": "the seats to move now, as in `GET /state`; empty once the game is over"},
    )
    over = fields.Boolean(metadata={"description": "whether the game is over (being scored or finished)"})


class ActionsQuerySchema(Schema):
    final = fields.Boolean(
        load_default=False,
        metadata={
            "description": "also say which actions are final (no `undo` could take them back: they draw, "
            "bring something to light or hand the turn on): the header `Kotlik-Final` lists their "
            "indexes in the list, comma-separated (empty: none). A client asks before it sends one."
        },
    )


class EventsQuerySchema(Schema):
    after = fields.Integer(load_default=0, validate=VERSION)


class ScoreSchema(Schema):
    seats = fields.List(fields.Dict())
    winners = fields.List(fields.Integer())
    ended = fields.List(
        fields.Dict(),
        metadata={
            "description": "seats that resigned or forfeited on time: {seat, reason}; the rest win",
            OPTIONAL: True,
        },
    )


class ProblemSchema(Schema):
    """RFC 9457 problem details, sent as `application/problem+json` with every error.

    Beside the standard members, a problem type may carry its own (RFC 9457 §3.2): each one is
    listed here, optional, with the types that send it."""

    type = fields.String(
        metadata={
            "description": "the problem's kind: `/problems/<slug>`, a page of this server that documents it "
            "(a URI reference, the same on every server); `about:blank`: plain HTTP, see `status`",
            "format": "uri-reference",
        }
    )
    title = fields.String(metadata={"description": "the kind of problem, in words"})
    status = fields.Integer(metadata={"description": "the HTTP status"})
    detail = fields.String(
        metadata={"description": "this occurrence: the rule's reason, the field at fault", OPTIONAL: True}
    )
    errors = fields.Dict(
        metadata={"description": "field errors, by location and field (422)", OPTIONAL: True}
    )
    version = fields.Integer(
        metadata={"description": "the game's current version (409 stale version)", OPTIONAL: True}
    )
    limit = fields.String(metadata={"description": "the rate limit that was exceeded (429)", OPTIONAL: True})
    reason = fields.String(
        metadata={
            "description": "why nothing can be taken back (409 undo-refused): `not_to_move`, `nothing`, "
            "`other_seat` or `revealed`",
            OPTIONAL: True,
        }
    )
    problems = fields.List(
        fields.String(),
        metadata={
            "description": "why an import does not verify (422 export-does-not-verify)",
            OPTIONAL: True,
        },
    )


class FallbackSchema(Schema):
    bot = fields.String(
        required=True, validate=validate.Length(min=1, max=40), metadata={"example": "default"}
    )
    after = fields.Integer(
        required=True,
        validate=validate.Range(min=0, max=24 * 3600),
        metadata={"description": "seconds to wait for a person before the bot takes the other seats"},
    )


class SeekRequestSchema(Schema):
    game = fields.String(
        required=True,
        validate=validate.OneOf(games.known(), error="unknown game {input!r}; this server hosts {choices}"),
    )
    seats = fields.Integer(required=True, validate=validate.Range(min=1, max=8))
    rated = fields.Boolean(load_default=False)
    clock = fields.Dict(
        metadata={
            "description": 'a turn clock, as the option `clock` of `POST /games`: `{"per_move": "24h"}`'
        }
    )
    fallback = fields.Nested(
        FallbackSchema, metadata={"description": "a bot to play if nobody comes in time"}
    )
    expires_in = fields.Integer(
        validate=validate.Range(min=10, max=7 * 24 * 3600),
        metadata={"description": "seconds the seek waits (default an hour)"},
    )


class SeekQuerySchema(Schema):
    wait = fields.Integer(
        validate=validate.Range(min=0, max=60),
        metadata={
            "description": "long-poll: while the seek waits, answer once it is paired, cancelled or "
            "expired, or after N seconds with it still `waiting`"
        },
    )


class SeekSchema(Schema):
    id = fields.UUID()
    player = fields.UUID(attribute="player_id")
    game = fields.String()
    seats = fields.Integer()
    rated = fields.Boolean()
    clock = fields.Dict(allow_none=True)
    fallback = fields.Dict(allow_none=True)
    status = fields.String(metadata={"description": "waiting, paired, cancelled or expired"})
    game_id = fields.UUID(allow_none=True, metadata={"description": "the game it was paired into"})
    created_at = fields.DateTime()
    expires_at = fields.DateTime()


class RatingEntrySchema(Schema):
    player = fields.String(metadata={"description": "a player's id, or `bot:<level>` for a bot"})
    name = fields.String()
    rating = fields.Float(metadata={"description": "the conservative value shown: mu - 3 sigma"})
    mu = fields.Float()
    sigma = fields.Float()
    games = fields.Integer()


class PlayerRatingSchema(Schema):
    game = fields.String()
    rating = fields.Float()
    mu = fields.Float()
    sigma = fields.Float()
    games = fields.Integer()


class RecentResultSchema(Schema):
    game_id = fields.UUID()
    game = fields.String()
    seat = fields.Integer()
    rated = fields.Boolean()
    outcome = fields.String(metadata={"description": "won, lost, or left (resigned or forfeited)"})
    finished_at = fields.DateTime()


class ProfileSchema(Schema):
    id = fields.UUID()
    name = fields.String()
    created_at = fields.DateTime()
    ratings = fields.List(fields.Nested(PlayerRatingSchema))
    games_played = fields.Integer()
    recent = fields.List(fields.Nested(RecentResultSchema))
