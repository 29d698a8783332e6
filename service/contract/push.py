"""The bodies of the Web Push endpoints (``/push/key``, ``/players/me/push``)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.contract.schemas import NO_NUL


class PushKeySchema(Schema):
    key = fields.String(
        metadata={
            "description": "the server's VAPID public key (RFC 8292): the uncompressed P-256 point, "
            "base64url; a browser subscribes with it as `applicationServerKey`"
        }
    )


class PushKeysSchema(Schema):
    p256dh = fields.String(
        required=True,
        validate=[validate.Length(min=80, max=100), NO_NUL],
        metadata={"description": "the browser's P-256 public key, base64url (65 bytes)"},
    )
    auth = fields.String(
        required=True,
        validate=[validate.Length(min=16, max=30), NO_NUL],
        metadata={"description": "the browser's authentication secret, base64url (16 bytes)"},
    )


class PushSubscriptionRequestSchema(Schema):
    """What a browser's ``PushSubscription.toJSON()`` gives; ``expirationTime`` is ignored."""

    endpoint = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=2000), NO_NUL],
        metadata={"description": "the push service's URL for this browser; private and loopback refused"},
    )
    keys = fields.Nested(PushKeysSchema, required=True)
    expirationTime = fields.Raw(load_default=None, allow_none=True)  # noqa: N815 (the browser's name)


class PushSubscriptionSchema(Schema):
    id = fields.UUID()
    endpoint = fields.String()
    created_at = fields.DateTime()
