"""Sending one webhook delivery: signed, once, and again later with exponential backoff.

The body is the delivery's JSON, compact with sorted keys; ``X-Kotlik-Signature`` is
``t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the webhook's secret>``, so a
receiver checks both the body and that the timestamp is recent (a replayed request is old).
A delivery is locked while it is sent (``FOR UPDATE SKIP LOCKED``) and sent only while pending
and due, so a duplicate task or two workers send it once. A failure (no answer, or not 2xx) is
recorded among its attempts and the delivery is due again after ``KOTLIK_WEBHOOK_BACKOFF`` × 2ⁿ
seconds, until a day after it was made; then it is ``failed``. A delivery of a removed webhook
is ``cancelled`` instead of sent.

A delivery connects to an address its URL's host was checked at, just before: resolving the name
again could give another (DNS rebinding), one the check would have refused. The request still
names the host (``Host``, and the name TLS verifies), and no proxy stands between.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from http.client import HTTPConnection, HTTPResponse, HTTPSConnection
from typing import Any

from psycopg import Connection
from psycopg.types.json import Jsonb

from projections.webhooks import RefusedUrl, check_url

#: Seconds a receiver has to answer.
TIMEOUT = 10.0
#: How long a delivery is retried before it is given up.
GIVE_UP_AFTER = 86400.0


def backoff() -> float:
    """``KOTLIK_WEBHOOK_BACKOFF``: seconds before the first retry, doubled for each next one."""
    return float(os.environ.get("KOTLIK_WEBHOOK_BACKOFF", "30"))


def sign(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def encode(body: Any) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


def send(conn: Connection[Any], delivery_id: int) -> float | None:
    """Send the delivery if it is pending and due; the seconds until its retry, if it failed."""
    with conn.transaction():
        row = conn.execute(
            "SELECT d.id, d.kind, d.body, d.attempts, d.created_at, w.url, w.secret, w.removed_at "
            "FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id "
            "WHERE d.id = %s AND d.status = 'pending' AND d.next_at <= now() "
            "FOR UPDATE OF d SKIP LOCKED",
            (delivery_id,),
        ).fetchone()
        if row is None:
            return None
        if row["removed_at"] is not None:  # removed while this delivery was being sent
            conn.execute("UPDATE deliveries SET status = 'cancelled' WHERE id = %s", (delivery_id,))
            return None
        body = encode({**row["body"], "delivery": row["id"]})
        started = time.time()
        status, error = _post(row["url"], row["secret"], row["kind"], row["id"], body)
        attempts = [*row["attempts"], {"at": started, "status": status, "error": error}]
        if status is not None and 200 <= status < 300:
            conn.execute(
                "UPDATE deliveries SET status = 'delivered', attempts = %s, delivered_at = now() "
                "WHERE id = %s",
                (Jsonb(attempts), delivery_id),
            )
            return None
        wait = backoff() * 2 ** (len(attempts) - 1)
        gone = conn.execute(
            "UPDATE deliveries SET attempts = %s, next_at = now() + make_interval(secs => %s), "
            "status = CASE WHEN now() + make_interval(secs => %s) > created_at + make_interval(secs => %s) "
            "THEN 'failed' ELSE 'pending' END WHERE id = %s RETURNING status",
            (Jsonb(attempts), wait, wait, GIVE_UP_AFTER, delivery_id),
        ).fetchone()
    return wait if gone and gone["status"] == "pending" else None


def _post(url: str, secret: str, kind: str, delivery: int, body: bytes) -> tuple[int | None, str | None]:
    try:
        addresses = check_url(url)
    except RefusedUrl as e:
        return None, str(e)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Kotlik-Webhooks/1",
        "X-Kotlik-Event": kind,
        "X-Kotlik-Delivery": str(delivery),
        "X-Kotlik-Signature": sign(secret, int(time.time()), body),
    }
    return post_pinned(url, addresses, body, headers)


def post_pinned(
    url: str, addresses: list[str], body: bytes, headers: dict[str, str]
) -> tuple[int | None, str | None]:
    """POST ``body`` to ``url`` on a connection to one of ``addresses`` (those its host was checked
    at), following no redirect and through no proxy; the status, or None and what went wrong.
    Web Push messages go the same way (:mod:`workers.push`)."""
    request = urllib.request.Request(url, data=body, method="POST")
    for name, value in headers.items():
        request.add_header(name, value)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect, _Pinned(addresses))
    try:
        with opener.open(request, timeout=TIMEOUT) as response:
            return int(response.status), None
    except urllib.error.HTTPError as e:
        return int(e.code), f"HTTP {e.code}"
    except (OSError, ValueError) as e:
        return None, str(e)[:300]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is a failed delivery: following it could reach an address that was not checked."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class _Pinned(urllib.request.HTTPHandler, urllib.request.HTTPSHandler):
    """Opens a URL, plain or TLS, on a connection to one of ``addresses``, never resolving its host
    again; the ``Host`` header and the name TLS checks the certificate for still come from the URL."""

    def __init__(self, addresses: list[str]) -> None:
        super().__init__()
        self.addresses = addresses

    def http_open(self, req: urllib.request.Request) -> HTTPResponse:
        return self.do_open(self._connection(HTTPConnection), req)

    def https_open(self, req: urllib.request.Request) -> HTTPResponse:
        return self.do_open(self._connection(HTTPSConnection), req)

    def _connection(self, kind: type[HTTPConnection]) -> Callable[..., HTTPConnection]:
        def make(host: str, **kwargs: Any) -> HTTPConnection:
            made = kind(host, **kwargs)
            made._create_connection = self._connect  # type: ignore[attr-defined]  # http.client's own hook
            return made

        return make

    def _connect(self, where: tuple[str, int], *args: Any) -> socket.socket:
        """``socket.create_connection``, to the first of the addresses that answers."""
        failed = OSError(f"no address to reach {where[0]}")
        for address in self.addresses:
            try:
                return socket.create_connection((address, where[1]), *args)
            except OSError as e:
                failed = e
        raise failed


def due(conn: Connection[Any], limit: int = 100) -> list[int]:
    """Pending deliveries whose time has come (a retry whose task was lost with a worker)."""
    rows = conn.execute(
        "SELECT id FROM deliveries WHERE status = 'pending' AND next_at <= now() ORDER BY next_at LIMIT %s",
        (limit,),
    ).fetchall()
    return [int(r["id"]) for r in rows]
