"""The Flask application: the REST API v1, its OpenAPI document and the docs page."""

from __future__ import annotations

from typing import Any

import orjson
import swagger_ui_bundle
from flask import Flask, send_from_directory
from flask.json.provider import DefaultJSONProvider
from flask.typing import ResponseReturnValue
from psycopg_pool import ConnectionPool

from events.database import create_pool
from service import (
    contract,
    cors,
    errors,
    game_docs,
    greenpool,
    hot,
    limits,
    polls,
    proxies,
    ratelimit,
    schemas,
    settings,
    webclient,
)
from service.catalog import blp as catalog
from service.context import database_url
from service.endings import blp as endings
from service.exports import blp as exports
from service.games import blp as games
from service.health import blp as health
from service.live import Listener
from service.openapi import KotlikApi
from service.players import blp as players
from service.polls import LongPolls
from service.rows import Rows

API_PREFIX = "/api/v1"
#: Connections each process keeps for the reads of its streams and long-polls, apart from the
#: pool the commands use. A move wakes every watcher of its game, and the game's first reader
#: reads for them all; from the commands' pool, that read queued behind every command waiting for
#: a connection, while the game's other watchers queued behind it. With 1,000 streams and 500
#: long-polls on two saturated cores, the stream delivery p99 was 1.7–11.7 s that way and
#: 243–253 ms this way.
WATCHERS_POOL = 4
#: Connections each process keeps for everything else (commands, reads, new games), unless
#: ``KOTLIK_DB_CONNECTIONS`` says otherwise. A request holds one only for its round trips, so a
#: few serve many clients; more only add PostgreSQL processes taking turns for the same cores.
#: On two saturated cores, 5 against 10 served 16 games 10–20 % more commands a second with a
#: lower p99, and halved the stream delivery p99 with 1,500 watchers (``docs/performance.md``).
REQUESTS_POOL = 5


def create_app(pool: ConnectionPool | None = None, **config: Any) -> Flask:
    """The app; ``pool`` defaults to one on ``DATABASE_URL`` (or the embedded server)."""
    app = Flask("kotlik")
    app.config.update(
        API_TITLE="Kotlík",
        API_VERSION="v1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX=API_PREFIX,
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL=f"{API_PREFIX}/docs/assets/",
        API_SPEC_OPTIONS={
            "info": {"description": "An event-sourced backend for turn-based board games."},
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
    app.extensions["kotlik.listener"] = listener = Listener(database_url(app)).start()
    rows = Rows(listener, watchers.connection)
    listener.follow(rows.heard)
    app.extensions["kotlik.polls"] = LongPolls(rows, watchers.connection)

    api = KotlikApi(app)
    for blueprint in (games, endings, players, exports, catalog, health):
        blueprint.PAGINATION_ARGUMENTS_PARSER = schemas.PAGINATION_PARSER
        api.register_blueprint(blueprint)
    game_docs.register(api)
    errors.register(app)
    contract.register(app)
    ratelimit.register(app, database_url(app))  # before limits: a refused request is not read
    limits.register(app)
    cors.register(app)  # first of the checks: a preflight is answered before the others read it
    app.register_blueprint(webclient.blp)
    app.wsgi_app = hot.HotRoutes(app, API_PREFIX)  # type: ignore[method-assign]
    proxies.register(app)
    app.wsgi_app = polls.Spectators(  # type: ignore[method-assign]  # Flask's documented way to wrap it
        app.wsgi_app, app.extensions["kotlik.polls"], API_PREFIX, cors.policy(app.config)
    )
    app.add_url_rule(f"{API_PREFIX}/docs/assets/<path:name>", "docs_assets", _docs_asset)
    return app


def _docs_asset(name: str) -> ResponseReturnValue:
    """Swagger UI's files, served from the installed bundle so the docs page works offline."""
    return send_from_directory(swagger_ui_bundle.swagger_ui_path, name)


class FastJSON(DefaultJSONProvider):
    """Responses through orjson: on the hot endpoints, encoding cost more than the rules.

    Bodies are read by orjson too, which refuses nesting past 1024 levels with a ValueError
    where the standard library's parser recursed into a RecursionError (a 500); Kotlík's own
    bound on nesting (:func:`service.limits.check_json`) is far lower.
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
