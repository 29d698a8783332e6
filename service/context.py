"""What a request reaches through the running app: its connection pool and its caches. (The live
paths' own parts are reached through their modules: :func:`service.live.listener.current`,
:func:`service.live.polls.current`, :func:`service.live.feed.spans`.)

The app puts them in ``app.extensions`` when it is made (:func:`service.app.create_app`); the
blueprints reach them here, so that no blueprint imports the module that imports it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import Flask, current_app
from psycopg import Connection
from psycopg_pool import ConnectionPool

from projections.caches import Caches


def pool() -> ConnectionPool:
    return current_app.extensions["kotlik.pool"]  # type: ignore[no-any-return]


def caches() -> Caches:
    """Every in-process cache of the app (:class:`projections.caches.Caches`)."""
    return current_app.extensions["kotlik.caches"]  # type: ignore[no-any-return]


def signing_key() -> Ed25519PrivateKey:
    """The key every export is signed with (:mod:`audit.signing`), loaded or made at start."""
    return current_app.extensions["kotlik.signing_key"]  # type: ignore[no-any-return]


def database_url(app: Flask | None = None) -> str:
    """The pool's database, for the connection that LISTENs outside the pool."""
    conninfo = (app or current_app).extensions["kotlik.pool"].conninfo
    return conninfo if isinstance(conninfo, str) else conninfo()


@contextmanager
def connection() -> Iterator[Connection[Any]]:
    with pool().connection() as conn:
        yield conn
