"""Sending one Web Push message: encrypted for the browser, signed for the push service.

The payload is the notice as JSON (``kind``, ``game_id``, ``game``, ``seat``, ``version``, and a
clock warning's ``deadline``), encrypted with the subscription's keys (RFC 8291, ``aes128gcm``,
by pywebpush and http_ece) so the push service cannot read it, and sent with a VAPID
``Authorization: vapid t=<JWT>, k=<public key>`` (RFC 8292, py_vapid) whose audience is the push
service's origin, so it can tell the message comes from the server the browser subscribed with.
``Topic`` is the game (a newer notice of a game replaces one the push service still holds), TTL a
day (a turn waits that long at most for a phone to come online), ``Urgency`` high for a clock.

The endpoint passes the webhooks' address checks again and the message goes to an address it was
checked at (:func:`workers.deliveries.post_pinned`). The answer decides what follows
(:func:`send`): 2xx sent; 404 or 410 the subscription is gone and is dropped
(:func:`projections.push.expire`); 429, 5xx or no answer, tried again after the webhooks' backoff,
at most :data:`ATTEMPTS` times; any other answer (a 400, a 403 for a VAPID key the endpoint was not
made for, a 413) is logged and not retried. A duplicate task sends a duplicate message, which
``Topic`` and the notification's ``tag`` (one per game, :file:`service/web/sw.js`) fold into one.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any, Literal
from urllib.parse import urlsplit
from uuid import UUID

from psycopg import Connection
from py_vapid import Vapid02
from pywebpush import WebPusher

from projections import push
from projections.webhooks import RefusedUrl, check_url
from workers import vapid
from workers.deliveries import post_pinned

log = logging.getLogger(__name__)

#: How long the push service keeps a message for a browser that is offline, in seconds.
TTL = 86400
#: How many times one message is tried.
ATTEMPTS = 5

Outcome = Literal["sent", "dropped", "retry", "failed", "gone"]


def payload(notice: dict[str, Any]) -> bytes:
    """What the service worker reads (``event.data.json()``), and what it opens on a click."""
    keep = ("kind", "game_id", "game", "seat", "version", "deadline")
    body: dict[str, Any] = {k: notice[k] for k in keep if k in notice}
    body["url"] = f"/#/game/{notice['game_id']}"
    return json.dumps(body, separators=(",", ":"), sort_keys=True).encode()


def headers(endpoint: str, notice: dict[str, Any]) -> dict[str, str]:
    """The VAPID signature for the endpoint's origin, and how the push service should keep it."""
    parts = urlsplit(endpoint)
    claims: dict[str, str | int] = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + 12 * 3600,
        "sub": vapid.subject(),
    }
    signed = Vapid02(private_key=vapid.key()).sign(claims)
    return {
        "Authorization": signed["Authorization"],
        "TTL": str(TTL),
        "Urgency": "high" if notice.get("kind") == "clock_warning" else "normal",
        "Topic": UUID(str(notice["game_id"])).hex,
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "User-Agent": "Kotlik-Push/1",
    }


def send(conn: Connection[Any], subscription_id: UUID, notice: dict[str, Any]) -> Outcome:
    """Push ``notice`` to the subscription if it is still active; what came of it."""
    sub = push.get(conn, subscription_id)
    if sub is None or sub.status != "active":
        return "gone"
    try:
        addresses = check_url(sub.endpoint, "push endpoint")
    except RefusedUrl as e:
        log.warning("push %s not sent: %s", subscription_id, e)
        return "failed"
    body = WebPusher(sub.info()).encode(payload(notice), "aes128gcm")["body"]
    status, error = post_pinned(sub.endpoint, addresses, body, headers(sub.endpoint, notice))
    if status is not None and 200 <= status < 300:
        return "sent"
    if status in (404, 410):
        push.expire(conn, subscription_id, status)
        return "dropped"
    if status is None or status == 429 or status >= 500:
        log.info("push %s not delivered (%s); tried again later", subscription_id, error)
        return "retry"
    log.warning("push %s refused by the push service: %s", subscription_id, error)
    return "failed"
