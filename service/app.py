"""The Flask application: the REST API v1, its OpenAPI document and the docs page."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import swagger_ui_bundle
from flask import Flask, current_app, send_from_directory
from flask.typing import ResponseReturnValue
from flask_smorest import Api
from psycopg import Connection
from psycopg_pool import ConnectionPool

from events.database import create_pool
from service import errors

API_PREFIX = "/api/v1"


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
                "securitySchemes": {"seat": {"type": "http", "scheme": "bearer"}},
            },
        },
        JSON_SORT_KEYS=False,
    )
    app.config.update(config)
    app.extensions["kotlik.pool"] = pool or create_pool()

    from service.catalog import blp as catalog
    from service.games import blp as games

    api = Api(app)
    api.register_blueprint(games)
    api.register_blueprint(catalog)
    errors.register(app)
    app.add_url_rule(f"{API_PREFIX}/docs/assets/<path:name>", "docs_assets", _docs_asset)
    return app


def _docs_asset(name: str) -> ResponseReturnValue:
    """Swagger UI's files, served from the installed bundle so the docs page works offline."""
    return send_from_directory(swagger_ui_bundle.swagger_ui_path, name)


def pool() -> ConnectionPool:
    return current_app.extensions["kotlik.pool"]  # type: ignore[no-any-return]


def database_url() -> str:
    """The pool's database, for the connections that LISTEN outside the pool."""
    conninfo = pool().conninfo
    return conninfo if isinstance(conninfo, str) else conninfo()


@contextmanager
def connection() -> Iterator[Connection[Any]]:
    with pool().connection() as conn:
        yield conn
