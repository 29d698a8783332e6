"""What a request reaches through the running app: its connection pool, its listener and its
long-polls (with the lobby rows they share).

The app puts them in ``app.extensions`` when it is made (:func:`service.app.create_app`); the
blueprints reach them here, so that no blueprint imports the module that imports it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask, current_app
from psycopg import Connection
from psycopg_pool import ConnectionPool

from service.live import Listener
from service.polls import LongPolls


def pool() -> ConnectionPool:
    return current_app.extensions["kotlik.pool"]  # type: ignore[no-any-return]


def listener() -> Listener:
    return current_app.extensions["kotlik.listener"]  # type: ignore[no-any-return]


def database_url(app: Flask | None = None) -> str:
    """The pool's database, for the connection that LISTENs outside the pool."""
    conninfo = (app or current_app).extensions["kotlik.pool"].conninfo
    return conninfo if isinstance(conninfo, str) else conninfo()


@contextmanager
def connection() -> Iterator[Connection[Any]]:
    with pool().connection() as conn:
        yield conn


def long_polls() -> LongPolls:
    return current_app.extensions["kotlik.polls"]  # type: ignore[no-any-return]
