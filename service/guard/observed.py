"""The outermost layer of a request: its id, its count and time, and the operator's ``GET /metrics``.

``GET /metrics`` is not public: it answers only ``Authorization: Bearer $KOTLIK_METRICS_TOKEN``
(401 otherwise), and 404, like any unknown path, when no token is configured.

Every answer carries ``X-Request-Id``: the client's own if it sent a sane one (a proxy's, say),
else a new one. The same id is in the request's JSON log lines (:data:`workers.logs.REQUEST_ID`)
and goes with every task the request queues (:mod:`workers.traced`), into the worker's lines.

With ``KOTLIK_ACCESS_LOG`` set and JSON logs (:func:`workers.logs.log_format`), each answer is
logged here as a JSON line: its request id, method, path (never its query, which may hold a
token), status, seconds to its headers, and the game's id when the path names one.
"""

from __future__ import annotations

import hmac
import logging
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
from workers.logs import GAME_ID, REQUEST_ID, log_format

#: Where the request's id is kept in its WSGI environ, for the log lines.
ENVIRON_KEY = "kotlik.request_id"
_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_GAME = re.compile(r"/games/([0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12})(?=/|$)")

access = logging.getLogger("kotlik.access")


def logs_access() -> bool:
    """Whether answers are logged here: ``KOTLIK_ACCESS_LOG`` with JSON logs (in text, gunicorn's
    own access log is used)."""
    return bool(os.environ.get("KOTLIK_ACCESS_LOG")) and log_format() == "json"


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
        self.route_of = Routes(route_of)
        self.sync = sync
        self.extra = extra
        #: (route, method, status) → its request counter and its latency histogram
        self._instruments: dict[tuple[str, str, str], tuple[Any, Any]] = {}
        self.logs_access = logs_access()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        sent = environ.get("HTTP_X_REQUEST_ID", "")
        request_id = sent if _SANE_ID.fullmatch(sent) else uuid.uuid4().hex
        environ[ENVIRON_KEY] = request_id
        path = environ.get("PATH_INFO", "")
        game = _GAME.search(path)
        # each request runs in a greenlet (or thread) of its own, with a context of its own
        REQUEST_ID.set(request_id)
        GAME_ID.set(game.group(1) if game else None)
        if environ.get("PATH_INFO") == "/metrics" and (secret := token()) is not None:
            return self._metrics(environ, start_response, secret, request_id)
        started = time.perf_counter()
        method = environ.get("REQUEST_METHOD", "GET")

        def observed(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            counter, timer = self._instrumented(self.route_of(environ), method, status[:3])
            counter.inc()
            took = time.perf_counter() - started
            timer.observe(took)
            if self.logs_access:
                code = int(status[:3])
                line = {"method": method, "path": path, "status": code, "duration": round(took, 6)}
                access.info("%s %s %d", method, path, code, extra=line)
            headers.append(("X-Request-Id", request_id))
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        self.sync()
        return self.app(environ, observed)

    def _instrumented(self, route: str, method: str, status: str) -> tuple[Any, Any]:
        """The labelled instruments of a kind of request, looked up once (labels() takes a lock)."""
        key = (route, method, status)
        found = self._instruments.get(key)
        if found is None:
            found = self._instruments[key] = (REQUESTS.labels(*key), LATENCY.labels(route, method))
        return found

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


_UUID = re.compile(r"/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?=/|$)")
_NUMBER = re.compile(r"/[0-9]+(?=/|$)")


class Routes:
    """A request's route, its URL rule, for the metrics' labels: matched by the app's URL map once
    for each shape of path (its ids and numbers left out), not on every request."""

    #: Shapes remembered; past them (a scanner's made-up paths) each request is matched anew.
    KEPT = 1024

    def __init__(self, match: Callable[[dict[str, Any]], str]) -> None:
        self.match = match
        self.known: dict[tuple[str, str], str] = {}

    def __call__(self, environ: dict[str, Any]) -> str:
        path = _NUMBER.sub("/{n}", _UUID.sub("/{id}", environ.get("PATH_INFO", "")))
        shape = (environ.get("REQUEST_METHOD", "GET"), path)
        route = self.known.get(shape)
        if route is None:
            route = self.match(environ)
            if len(self.known) < self.KEPT:
                self.known[shape] = route
        return route
