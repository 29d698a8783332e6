"""Rate limits on writes and on wrong tokens, per seat token and per client address.

Reads are not limited: a client that watches a game holds a stream or a long-poll, and a lobby
page costs one indexed query. Writes are: each appends to the log and may queue a bot's turn.
Each limit is a fixed window (one counter per key and window); a request past any of them gets
429 problem details with ``Retry-After`` and is not read any further.

Counters live in Redis when ``KOTLIK_RATE_LIMIT_STORAGE`` or the Celery broker names one, so
every web process shares them; otherwise in each process's memory, so with N processes a client
may get up to N times a limit. They are keyed by the database's name too, so two deployments
(or a test run and a benchmark) sharing one Redis never count each other's requests. A seat
token is keyed by its hash and never logged. If the storage cannot be reached the request goes
on unlimited: a rate limit is not worth an outage.

Failed authentication (a token sent and refused, 401) is limited twice, and neither limit ever
refuses a request whose token is valid, so one guesser behind a NAT or a proxy cannot shut out
the players who share its address:

- per token tried (``wrong_token``): a token that keeps failing is refused before it is looked
  up. Only a request carrying that same token counts towards it;
- per client address (``unauthorized``): past it, a token that fails is answered 429 (with
  ``Retry-After``) instead of 401. The token is still looked up, since a valid one must be
  served; a lookup is an indexed read, and reads are not limited anyway.

A request that needs a token and sends none is not limited at all: the view answers 401 with
``WWW-Authenticate`` first, and that answer is not counted (it guesses nothing).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, request
from limits import RateLimitItem, parse
from limits.errors import StorageError
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter
from psycopg.conninfo import conninfo_to_dict

from service.contract.problems import problem

log = logging.getLogger(__name__)

#: Limit name → (default, what it counts). ``KOTLIK_RATE_LIMITS`` overrides any of them.
#: Minute windows let a client that plays as fast as it can (the end-to-end tests do: docs/performance.md,
#: "Figures formerly quoted in the code") finish a whole game (at most ~350 commands) in a burst,
#: while bounding what it keeps up: 10 commands a second per token, 200 writes a second per address.
DEFAULTS: dict[str, tuple[str, str]] = {
    "games": (
        "60/minute",
        "POST /games (and /players, webhooks, push subscriptions, rematches, reissued tokens, rotated keys)"
        " per client address",
    ),
    "commands": ("600/minute", "POST /games/{id}/commands per seat token"),
    "writes": ("12000/minute", "every write above, resigns and claims per client address"),
    "unauthorized": (
        "30/minute",
        "tokens refused (401) per client address; past it, a token that fails is 429, a valid one is served",
    ),
    "wrong_token": ("10/minute", "refusals (401) of one token; past it, it is 429 before it is looked up"),
}

#: The endpoints each write limit applies to: (endpoint, limit names).
_WRITES: dict[str, tuple[str, ...]] = {
    "games.Games": ("games", "writes"),
    "games.Commands": ("commands", "writes"),
    # Whatever makes a row of its own (a player, a webhook, a rematch's game) counts as a game.
    "players.Players": ("games", "writes"),
    "players.MyWebhooks": ("games", "writes"),
    "push.MyPush": ("games", "writes"),
    "endings.Rematch": ("games", "writes"),
    # A new credential is a secret of its own: a token reissued, a key rotated (issue 53).
    "credentials.SeatToken": ("games", "writes"),
    "credentials.PlayerKey": ("games", "writes"),
    "endings.Resign": ("writes",),
    "players.Claim": ("writes",),
}

#: Set in a request's WSGI environ by a layer beneath Flask that has checked and counted it
#: (:mod:`service.api.fast`) before handing it on: the app does not count it again.
COUNTED = "kotlik.rate_limits.counted"

#: Seconds a Redis command may take before the request goes on unlimited.
STORAGE_TIMEOUT = 1.0


def parse_limits(spec: str) -> dict[str, RateLimitItem]:
    """``KOTLIK_RATE_LIMITS``: ``off``, or ``name=limit`` pairs separated by commas (``name=off``
    lifts one), e.g. ``commands=100/second,games=1000/minute``; the rest keep their defaults."""
    chosen = {name: default for name, (default, _) in DEFAULTS.items()}
    spec = spec.strip()
    if spec.lower() == "off":
        return {}
    for pair in filter(None, (p.strip() for p in spec.split(","))):
        name, _, value = pair.partition("=")
        name = name.strip()
        if name not in DEFAULTS or not value.strip():
            raise ValueError(
                f"KOTLIK_RATE_LIMITS: {pair!r} is not name=limit, name one of {sorted(DEFAULTS)}"
            )
        chosen[name] = value.strip()
    try:
        return {name: parse(value) for name, value in chosen.items() if value.lower() != "off"}
    except ValueError as e:
        raise ValueError(f"KOTLIK_RATE_LIMITS: {e} (write limits as 20/second or 50/minute)") from None


def storage_uri(config: Mapping[str, Any]) -> str:
    """``KOTLIK_RATE_LIMIT_STORAGE``, else the broker if it is Redis, else this process's memory."""
    configured = _setting(config, "KOTLIK_RATE_LIMIT_STORAGE")
    if configured:
        return configured
    broker = _setting(config, "CELERY_BROKER_URL") or ""
    return broker if broker.startswith(("redis://", "rediss://")) else "memory://"


def _setting(config: Mapping[str, Any], name: str) -> str | None:
    value = config.get(name, os.environ.get(name))
    return None if value is None else str(value)


@dataclass
class RateLimits:
    limits: dict[str, RateLimitItem]
    strategy: FixedWindowRateLimiter
    scope: str
    #: The endpoints whose writes need a token: without one, the view's 401 comes first.
    need_token: frozenset[str] = frozenset()

    def refuse(self) -> Response | None:
        """The 429 for this request if it is past a limit; counts it against the others."""
        if request.environ.get(COUNTED):
            return None
        return self.refusal(
            request.method, request.endpoint, request.remote_addr, request.headers.get("Authorization")
        )

    def refusal(
        self, method: str, endpoint: str | None, address: str | None, authorization: str | None
    ) -> Response | None:
        """:meth:`refuse` for a request told apart by these, as a layer beneath Flask sees it
        (:mod:`service.api.fast`)."""
        address = address or "unknown"
        token = _token_hash(authorization)
        if token is None and endpoint in self.need_token:
            return None  # no token where one is needed: the view says so (401) before any limit
        refused = None
        if token is not None and "wrong_token" in self.limits:
            refused = self._past("wrong_token", token, hit=False)
        for name in _WRITES.get(endpoint or "", ()) if method == "POST" else ():
            key = token if name == "commands" else address
            if refused is None and name in self.limits and key is not None:
                refused = self._past(name, key, hit=True)
        return refused

    def count_unauthorized(self, response: Response) -> Response:
        """A token refused counts against itself and its address; past either limit, the 401 is a
        429 instead. A 401 for a missing token is left as it is, uncounted."""
        authorization = request.headers.get("Authorization")
        if response.status_code != 401 or authorization is None:
            return response
        over = None
        if "unauthorized" in self.limits:
            over = self._past("unauthorized", request.remote_addr or "unknown", hit=True)
        token = _token_hash(authorization)
        if token is not None and "wrong_token" in self.limits:
            over = self._past("wrong_token", token, hit=True) or over
        if over is not None:  # the same response, so the headers other hooks set (CORS) stay
            response.status_code = 429
            response.set_data(over.get_data())
            response.headers["Content-Type"] = over.headers["Content-Type"]
            response.headers["Retry-After"] = over.headers["Retry-After"]
            response.headers.pop("WWW-Authenticate", None)
        return response

    def _past(self, name: str, key: str, *, hit: bool) -> Response | None:
        item = self.limits[name]
        ids = (self.scope, name, key)
        try:
            within = self.strategy.hit(item, *ids) if hit else self.strategy.test(item, *ids)
            if within:
                return None
            reset = self.strategy.get_window_stats(item, *ids).reset_time
        except StorageError as e:
            log.warning("rate limits skipped, their storage failed: %s", e.storage_error)
            return None
        wait = max(1, math.ceil(reset - time.time()))
        response = problem(
            429,
            "Too Many Requests",
            f"over {item} ({DEFAULTS[name][1]}); retry in {wait} s",
            "rate-limited",
            limit=name,
        )
        response.headers["Retry-After"] = str(wait)
        return response


def _token_hash(authorization: str | None) -> str | None:
    """The bearer token's SHA-256, so a token is never a key in the storage nor in a log."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return hashlib.sha256(token.strip().encode()).hexdigest()


def _needing_token(app: Flask) -> frozenset[str]:
    """The endpoints limited here whose POST the OpenAPI document says needs a bearer token (no
    empty alternative among its security requirements)."""
    needing = set()
    for endpoint in _WRITES:
        view = app.view_functions.get(endpoint)
        handler = getattr(getattr(view, "view_class", None), "post", None)
        security = getattr(handler, "_apidoc", {}).get("manual_doc", {}).get("security")
        if security and all(security):
            needing.add(endpoint)
    return frozenset(needing)


def register(app: Flask, database_url: str) -> None:
    """Check the limits first thing in each request, and count every 401 after it."""
    spec = _setting(app.config, "KOTLIK_RATE_LIMITS") or ""
    limits = parse_limits(spec)
    if not limits:
        return
    uri = storage_uri(app.config)
    options: dict[str, Any] = {"wrap_exceptions": True}
    if not uri.startswith("memory://"):
        options.update(socket_timeout=STORAGE_TIMEOUT, socket_connect_timeout=STORAGE_TIMEOUT)
    storage = storage_from_string(uri, **options)
    scope = conninfo_to_dict(database_url).get("dbname") or "kotlik"
    rate = RateLimits(limits, FixedWindowRateLimiter(storage), str(scope), _needing_token(app))
    app.extensions["kotlik.rate_limits"] = rate
    app.before_request(rate.refuse)
    app.after_request(rate.count_unauthorized)
