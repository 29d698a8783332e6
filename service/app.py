"""The Flask application: the REST API v1, its OpenAPI document and the docs page."""

from __future__ import annotations

from typing import Any

import orjson
import swagger_ui_bundle
from flask import Flask, send_from_directory
from flask.json.provider import DefaultJSONProvider
from flask.typing import ResponseReturnValue
from psycopg_pool import ConnectionPool
from werkzeug.exceptions import HTTPException

from audit import signing
from events import outbox
from events.database import create_pool
from projections.caches import Caches
from service.api import fast
from service.api.catalog import blp as catalog
from service.api.credentials import blp as credentials
from service.api.endings import blp as endings
from service.api.exports import blp as exports
from service.api.exports import import_keys, keys
from service.api.games import blp as games
from service.api.health import blp as health
from service.api.opponents import blp as opponents
from service.api.players import blp as players
from service.api.push import blp as push
from service.context import bounded, database_url
from service.contract import game_schemas, problems, schemas, validation
from service.contract.openapi import KotlikApi
from service.guard import cors, headers, limits, observed, proxies, ratelimit
from service.live import polls
from service.live.feed import SPANS_KEPT, Spans
from service.live.listener import HEARD_KEPT, Listener
from service.live.polls import ANSWERS_KEPT, LongPolls
from service.live.rows import ROWS_KEPT, Rows
from service.server import greenpool, metrics, settings
from service.web import pages, problem_pages
from workers import vapid

API_PREFIX = "/api/v1"
#: Connections each process keeps for the reads of its streams and long-polls, apart from the
#: pool the commands use. A move wakes every watcher of its game, and the game's first reader
#: reads for them all; from the commands' pool, that read queued behind every command waiting for
#: a connection, while the game's other watchers queued behind it: on a saturated server, moves
#: reached their watchers late (figures: docs/performance.md, "The watchers' reads, a pool of their own").
WATCHERS_POOL = 4
#: Connections each process keeps for everything else (commands, reads, new games), unless
#: ``KOTLIK_DB_CONNECTIONS`` says otherwise. A request holds one only for its round trips, so a
#: few serve many clients; more only add PostgreSQL processes taking turns for the same cores.
#: Against 10, 5 served more commands at a lower p99 and brought watchers their moves sooner
#: (figures: docs/performance.md, "Fewer connections for requests").
REQUESTS_POOL = 5


def create_app(pool: ConnectionPool | None = None, **config: Any) -> Flask:
    """The app; ``pool`` defaults to one on ``DATABASE_URL`` (or the embedded server)."""
    app = Flask("kotlik")
    app.config.update(
        # ASCII: generators name the client's package after it (openapi-python-client: kotlik-api-client)
        API_TITLE="Kotlik API",
        API_VERSION="1.2.0",  # the document's version (CHANGES.md); the URLs stay /api/v1
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX=API_PREFIX,
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL=f"{API_PREFIX}/docs/assets/",
        # Swagger UI would show a badge from validator.swagger.io, telling it the document's address.
        OPENAPI_SWAGGER_UI_CONFIG={"validatorUrl": None},
        API_SPEC_OPTIONS={
            "info": {"description": "Kotlík: an event-sourced backend for turn-based board games."},
            "components": {
                "securitySchemes": {
                    "seat": {"type": "http", "scheme": "bearer"},
                    "player": {"type": "http", "scheme": "bearer", "description": "a player key"},
                    "admin": {"type": "http", "scheme": "bearer", "description": "KOTLIK_ADMIN_TOKEN"},
                },
            },
        },
    )
    app.config.update(MAX_CONTENT_LENGTH=limits.max_body(config))
    app.config.update(config)
    app.json = FastJSON(app)
    connections = settings.positive(config, "KOTLIK_DB_CONNECTIONS", REQUESTS_POOL, "connections")
    kind = greenpool.pool_class()
    app.extensions["kotlik.pool"] = pool or create_pool(max_size=connections, kind=kind)
    app.extensions["kotlik.watchers_pool"] = watchers = create_pool(
        database_url(app), max_size=WATCHERS_POOL, kind=kind
    )
    app.extensions["kotlik.caches"] = caches = Caches.sized(config)
    app.extensions["kotlik.signing_key"] = signing.load_or_create(settings.signing_key_path(config))
    import_keys(config)  # a configured key that cannot be read stops the start, not an import later
    app.extensions["kotlik.vapid_key"] = vapid.key()  # Web Push's, made at first start (workers.vapid)
    _live(app, config, caches, watchers)

    api = KotlikApi(app)
    for blueprint in (games, endings, players, credentials, push, opponents, exports, keys, catalog, health):
        blueprint.PAGINATION_ARGUMENTS_PARSER = schemas.PAGINATION_PARSER
        api.register_blueprint(blueprint)
    game_schemas.register(api)
    problems.register(app)
    validation.register(app)
    app.register_blueprint(pages.blp)
    app.register_blueprint(problem_pages.blp)
    _pipeline(app)
    app.add_url_rule(f"{API_PREFIX}/docs/assets/<path:name>", "docs_assets", _docs_asset)
    return app


def _live(app: Flask, config: dict[str, Any], caches: Caches, watchers: ConnectionPool) -> None:
    """The live paths' parts, each one of the app's caches and sized by its setting: the listener
    and the versions it heard, the lobby rows the waiters share, the long-polls' rendered answers
    and the streams' rendered spans."""
    heard = settings.positive(config, "KOTLIK_HEARD_GAMES", HEARD_KEPT, "games")
    listener = caches.add("heard versions", Listener(database_url(app), heard).start())
    app.extensions["kotlik.listener"] = listener
    kept = settings.positive(config, "KOTLIK_ROWS_GAMES", ROWS_KEPT, "games")
    rows = caches.add("lobby rows", Rows(listener, caches.states, bounded(watchers), kept))
    listener.follow(rows.heard)
    answers = settings.positive(config, "KOTLIK_POLL_ANSWERS", ANSWERS_KEPT, "answers")
    waiting = LongPolls(rows, caches.states, bounded(watchers), answers)
    app.extensions["kotlik.polls"] = caches.add("poll answers", waiting)
    spans = settings.positive(config, "KOTLIK_STREAM_SPANS", SPANS_KEPT, "spans")
    app.extensions["kotlik.spans"] = caches.add("stream spans", Spans(spans))


def _pipeline(app: Flask) -> None:
    """The request's way in, in the order a request meets it (``tests/platform/test_pipeline.py``
    lists it):

    1. :class:`service.guard.headers.SecurityHeaders`, around everything: every answer's security
       headers (no framing, ``nosniff``, a Content-Security-Policy, HSTS behind TLS);
    2. :class:`service.guard.observed.Observed`: the request's id, its count and time in the
       metrics, and the operator's ``GET /metrics``;
    3. :class:`service.live.polls.Spectators`, beneath the rest: a spectator's plain long-poll
       of ``/state`` waits and is answered here, holding no Flask context while it waits;
    4. :class:`werkzeug.middleware.proxy_fix.ProxyFix`, with ``KOTLIK_PROXIES`` only: the client's
       address from ``X-Forwarded-For``, before anything counts requests by address;
    5. :class:`service.api.fast.HotRoutes`: a seat's ``GET /actions`` and ``POST /commands``,
       under the app's rate limits and CORS, answered by :mod:`service.api.turns` as the views are;
    6. Flask, whose ``before_request`` hooks run in this order: the CORS preflight (answered before
       the others read anything), the rate limits (a refused request is not read), then the body's
       media type and the bounded JSON read (:mod:`service.guard.limits`); then the view; then the
       ``after_request`` hooks: CORS headers, and a wrong token counted against its address.

    Errors anywhere in Flask's part are the app's problems (:mod:`service.contract.problems`).
    """
    ratelimit.register(app, database_url(app))
    limits.register(app)
    cors.register(app)  # puts the preflight first among the before_request hooks
    app.wsgi_app = fast.HotRoutes(app, API_PREFIX)  # type: ignore[method-assign]
    proxies.register(app)
    app.wsgi_app = polls.Spectators(  # type: ignore[method-assign]  # Flask's documented way to wrap it
        app.wsgi_app, app.extensions["kotlik.polls"], API_PREFIX, cors.policy(app.config)
    )
    app.wsgi_app = _observed(app)  # type: ignore[method-assign]
    app.wsgi_app = headers.SecurityHeaders(  # type: ignore[method-assign]
        app.wsgi_app, f"{API_PREFIX}/docs", app.config
    )


def _observed(app: Flask) -> observed.Observed:
    """Beneath the security headers: request ids, the request metrics and ``GET /metrics``, which
    also reports this process's pools and state cache, and the outbox's backlog."""
    requests, watchers = app.extensions["kotlik.pool"], app.extensions["kotlik.watchers_pool"]

    def route_of(environ: dict[str, Any]) -> str:
        try:
            rule, _ = app.url_map.bind_to_environ(environ).match(return_rule=True)
        except HTTPException:
            return "unmatched"
        return str(rule.rule)

    def backlog() -> int:
        with requests.connection() as conn:
            return outbox.pending(conn)

    synced = metrics.Synced(
        {"requests": requests, "watchers": watchers}, app.extensions["kotlik.caches"].states
    )
    return observed.Observed(app.wsgi_app, route_of, synced, [metrics.Backlog(backlog)])


def _docs_asset(name: str) -> ResponseReturnValue:
    """Swagger UI's files, served from the installed bundle so the docs page works offline."""
    return send_from_directory(swagger_ui_bundle.swagger_ui_path, name)


class FastJSON(DefaultJSONProvider):
    """Responses through orjson: on the hot endpoints, encoding cost more than the rules.

    Bodies are read by orjson too, which refuses nesting past 1024 levels with a ValueError
    where the standard library's parser recursed into a RecursionError (a 500); Kotlík's own
    bound on nesting (:func:`service.guard.limits.check_json`) is far lower.
    """

    sort_keys = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        value = orjson.loads(s)
        limits.check_json(value)
        return value

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if set(kwargs) - {"separators"}:  # an indent or a sort order: the standard library's encoder
            return super().dumps(obj, **kwargs)
        return orjson.dumps(obj, default=self.default, option=orjson.OPT_NON_STR_KEYS).decode()
