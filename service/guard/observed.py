"""The outermost layer of a request: its id, its count and time, and the operator's ``GET /metrics``.

``GET /metrics`` is not public: it answers only ``Authorization: Bearer $KOTLIK_METRICS_TOKEN``
(401 otherwise), and 404, like any unknown path, when no token is configured.

Every answer carries ``X-Request-Id``: the client's own if it sent a sane one (a proxy's, say),
else a new one; the same id is in the request's log lines.
"""

from __future__ import annotations

import hmac
import os
import re
import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from service.contract.problems import problem
from service.server.metrics import LATENCY, REQUESTS, Synced, exposition

#: Where the request's id is kept in its WSGI environ, for the log lines.
ENVIRON_KEY = "kotlik.request_id"
_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def token() -> str | None:
    return os.environ.get("KOTLIK_METRICS_TOKEN") or None


class Observed:
    """The outermost WSGI layer: answers ``GET /metrics``, gives each request its id, and counts
    and times every request, those answered beneath Flask (hot routes, spectators) included."""

    def __init__(
        self,
        wsgi_app: Any,
        route_of: Callable[[dict[str, Any]], str],
        sync: Synced,
        extra: list[Collector],
    ) -> None:
        self.app = wsgi_app
        self.route_of = route_of
        self.sync = sync
        self.extra = extra

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        sent = environ.get("HTTP_X_REQUEST_ID", "")
        request_id = sent if _SANE_ID.fullmatch(sent) else uuid.uuid4().hex
        environ[ENVIRON_KEY] = request_id
        if environ.get("PATH_INFO") == "/metrics" and (secret := token()) is not None:
            return self._metrics(environ, start_response, secret, request_id)
        started = time.perf_counter()
        method = environ.get("REQUEST_METHOD", "GET")

        def observed(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            route = self.route_of(environ)
            REQUESTS.labels(route, method, status[:3]).inc()
            LATENCY.labels(route, method).observe(time.perf_counter() - started)
            headers.append(("X-Request-Id", request_id))
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        self.sync()
        return self.app(environ, observed)

    def _metrics(
        self, environ: dict[str, Any], start_response: Callable[..., Any], secret: str, request_id: str
    ) -> Iterable[bytes]:
        given = environ.get("HTTP_AUTHORIZATION", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {secret}".encode()):
            refused = problem(
                401,
                "Unauthorized",
                "GET /metrics needs Authorization: Bearer $KOTLIK_METRICS_TOKEN",
                "unauthorized",
            )
            refused.headers["WWW-Authenticate"] = 'Bearer realm="metrics"'
            refused.headers["X-Request-Id"] = request_id
            return refused(environ, start_response)  # type: ignore[no-any-return]
        self.sync.last = 0.0
        self.sync()
        body = exposition(self.extra)
        start_response("200 OK", [("Content-Type", CONTENT_TYPE_LATEST), ("X-Request-Id", request_id)])
        return [body]
