"""CORS for third-party web clients: origins from ``KOTLIK_CORS_ORIGINS``, none by default.

A browser page on another origin may call the API only when its origin is listed. Seat tokens
travel in ``Authorization`` (never cookies), so credentials mode is not needed and not allowed;
a preflight is answered before anything else reads the request (rate limits, body checks), and
every answer to a listed origin, errors included, names it and exposes ``ETag`` (the version a
client sends back as ``If-None-Match``) and the headers a client reads.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, request

#: Request headers a client may send (``Content-Type`` for JSON bodies, which is not a "simple" one).
ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key, If-None-Match, Last-Event-ID"
#: Response headers a script on another origin may read.
EXPOSED_HEADERS = "ETag, X-Pagination, Link, Retry-After, Location, WWW-Authenticate"
ALLOWED_METHODS = "GET, POST, DELETE, OPTIONS"
#: Seconds a browser may keep a preflight's answer.
MAX_AGE = "600"


def origins(config: Mapping[str, Any]) -> frozenset[str]:
    """``KOTLIK_CORS_ORIGINS`` (app config, else the environment): a comma list; ``*`` allows any."""
    spec = config.get("KOTLIK_CORS_ORIGINS", os.environ.get("KOTLIK_CORS_ORIGINS", ""))
    return frozenset(o.strip().rstrip("/") for o in str(spec).split(",") if o.strip())


class Cors:
    """The origins allowed, and what an answer to a request from ``origin`` says of them."""

    def __init__(self, allowed: frozenset[str]) -> None:
        self.allowed = allowed

    def listed(self, origin: str | None) -> str | None:
        if origin is None:
            return None
        return origin if origin in self.allowed or "*" in self.allowed else None

    def granted(self, origin: str | None) -> dict[str, str]:
        """The headers that let a page from ``origin`` read the answer; none if it is not listed."""
        if not self.listed(origin):
            return {}
        return {"Access-Control-Allow-Origin": str(origin), "Access-Control-Expose-Headers": EXPOSED_HEADERS}

    def annotated(self, headers: Mapping[str, str], origin: str | None) -> dict[str, str]:
        """``headers`` of an answer to ``origin``: ``Vary: Origin``, and the grant if it is listed."""
        out = dict(headers)
        out["Vary"] = f"{out['Vary']}, Origin" if out.get("Vary") else "Origin"
        return out | self.granted(origin)


def policy(config: Mapping[str, Any]) -> Cors | None:
    """The app's CORS policy; ``None`` when no origin is listed."""
    allowed = origins(config)
    return Cors(allowed) if allowed else None


def register(app: Flask) -> None:
    """Installed first, so a preflight is answered before the other checks read the request."""
    cors = policy(app.config)
    if cors is None:
        return

    def preflight() -> Response | None:
        if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
            return None
        response = Response(status=204)
        if cors.listed(request.headers.get("Origin")):
            response.headers["Access-Control-Allow-Methods"] = ALLOWED_METHODS
            response.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
            response.headers["Access-Control-Max-Age"] = MAX_AGE
        return response

    def annotate(response: Response) -> Response:
        response.vary.add("Origin")
        response.headers.update(cors.granted(request.headers.get("Origin")))
        return response

    app.before_request_funcs.setdefault(None, []).insert(0, preflight)
    app.after_request(annotate)
