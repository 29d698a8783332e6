"""What a request reaches through the running app: its connection pool and its caches. (The live
paths' own parts are reached through their modules: :func:`service.live.listener.current`,
:func:`service.live.polls.current`, :func:`service.live.feed.spans`.)

The app puts them in ``app.extensions`` when it is made (:func:`service.app.create_app`); the
blueprints reach them here, so that no blueprint imports the module that imports it.

A request may also carry a time by which it must be answered (:func:`answering_within`): a
long-poll's, which must answer within its ``wait`` even while the database is away. Its waits for
a connection (:func:`connection`, :func:`bounded`) and for a turn to read (:func:`take`) then end
by that time, in a ``PoolTimeout``: the app's 503 problem.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from time import monotonic
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import Flask, current_app
from psycopg import Connection
from psycopg_pool import ConnectionPool, PoolTimeout

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


#: When the request being answered must have its answer (``time.monotonic``), if it has a bound.
_ANSWER_BY: ContextVar[float | None] = ContextVar("kotlik_answer_by", default=None)


@contextmanager
def connection() -> Iterator[Connection[Any]]:
    requests = pool()
    with requests.connection(timeout=time_left(requests.timeout)) as conn:
        yield conn


@contextmanager
def answering_within(seconds: float) -> Iterator[None]:
    """Within this block, the request's waits end ``seconds`` from now at the latest (or by an
    earlier time already set: a spectator's poll that the app answers after its layer failed)."""
    by, outer = monotonic() + seconds, _ANSWER_BY.get()
    token = _ANSWER_BY.set(by if outer is None else min(by, outer))
    try:
        yield
    finally:
        _ANSWER_BY.reset(token)


def time_left(longest: float) -> float:
    """Seconds the request may still wait: ``longest``, or less if it must be answered sooner."""
    by = _ANSWER_BY.get()
    return longest if by is None else max(0.0, min(longest, by - monotonic()))


def bounded(connections: ConnectionPool) -> Callable[[], AbstractContextManager[Connection[Any]]]:
    """``connections.connection``, its wait ending when the request's time is up."""
    return lambda: connections.connection(timeout=time_left(connections.timeout))


def take(lock: threading.Lock) -> None:
    """Acquire ``lock``, waiting no longer than the request may; ``PoolTimeout`` if its time is up."""
    by = _ANSWER_BY.get()
    if not lock.acquire(timeout=-1 if by is None else max(0.0, by - monotonic())):
        raise PoolTimeout("the request's time was up while it waited its turn to read")
