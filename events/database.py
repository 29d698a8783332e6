"""Where the database is: ``DATABASE_URL``, or else an embedded PostgreSQL kept in the user's data dir.

The embedded server (the ``pgserver`` package) lets ``kotlik up`` run on a machine with no
PostgreSQL installed; it stops when the last process that opened it exits.
"""

from __future__ import annotations

import os
import warnings
from functools import cache
from pathlib import Path
from typing import Any

import orjson
from psycopg import Connection
from psycopg.rows import dict_row
from psycopg.types.json import set_json_dumps, set_json_loads
from psycopg_pool import ConnectionPool

from events import privileges


def data_dir() -> Path:
    """``KOTLIK_DATA`` or the XDG data home: where the embedded server keeps its files."""
    configured = os.environ.get("KOTLIK_DATA")
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "kotlik"


def embedded_server(pgdata: Path, cleanup_mode: str = "stop") -> Any:
    """A ``pgserver`` PostgreSQL keeping its files in ``pgdata``: started, or joined if running."""
    with warnings.catch_warnings():
        # Without XDG_RUNTIME_DIR (a server, a container) pgserver's lock goes under /tmp, which
        # is fine; platformdirs would warn about it on every start.
        warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
        import pgserver  # imported late: only a machine without DATABASE_URL needs it

    pgdata.mkdir(parents=True, exist_ok=True)
    return pgserver.get_server(pgdata, cleanup_mode=cleanup_mode)


@cache
def embedded_url() -> str:
    """Start (or join) the embedded server under the data directory and return its URL."""
    return str(embedded_server(data_dir() / "pgdata").get_uri())


def database_url() -> str:
    return os.environ.get("DATABASE_URL") or embedded_url()


def sqlalchemy_url(url: str) -> str:
    """The same database as a SQLAlchemy URL on the psycopg 3 driver (for alembic and kombu)."""
    scheme, sep, rest = url.partition("://")
    if scheme in ("postgres", "postgresql"):
        return f"postgresql+psycopg://{rest}"
    return url if sep else f"postgresql+psycopg://{url}"


def _dumps(obj: Any) -> bytes:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS)


def configure(conn: Connection[Any]) -> None:
    """JSON through orjson: decoding events and states is most of what a fold costs otherwise."""
    set_json_loads(orjson.loads, conn)
    set_json_dumps(_dumps, conn)


#: Seconds to wait for a connection, from the pool or from the server, before giving up: a
#: request answers 503 in bounded time when the database is down rather than hanging.
CONNECT_TIMEOUT = 5
#: Seconds a run of failed reconnections lasts, once the pool is open, before the pool gives it
#: up; the next request that finds no connection starts a new run. Within a run the pause between
#: tries doubles from 1 s with no cap, so a long run left the pool asleep for up to as long again
#: after the database was back, and the API came back long after PostgreSQL did (figures:
#: docs/performance.md, "Figures formerly quoted in the code").
RECONNECT_SECONDS = CONNECT_TIMEOUT


def create_pool(
    url: str | None = None,
    *,
    min_size: int = 1,
    max_size: int = 10,
    kind: type[ConnectionPool] = ConnectionPool,
) -> ConnectionPool:
    """A connection pool (of ``kind``) whose rows are dicts; opened and waited for, so errors
    surface at start.

    Without ``url`` it connects as the service role (:mod:`events.privileges`).
    """
    pool = kind(
        url or privileges.service_url(database_url()),
        min_size=min_size,
        max_size=max_size,
        timeout=2 * CONNECT_TIMEOUT,
        kwargs={"row_factory": dict_row, "autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
        configure=configure,
        open=False,
    )
    pool.open(wait=True, timeout=30)
    # Only once open: a run given up during the wait above would not be started again, and a
    # server that starts a little after the database would fail although it came up in time.
    pool.reconnect_timeout = RECONNECT_SECONDS
    return pool


def migrate(url: str | None = None) -> None:
    """Bring the schema up to the newest alembic revision, as the owner, then set what the service
    role may do (:mod:`events.privileges`)."""
    from alembic.config import Config

    from alembic import command

    config = Config(str(Path(__file__).resolve().parent.parent / "alembic.ini"))
    owner = url or database_url()
    config.attributes["url"] = sqlalchemy_url(owner)
    command.upgrade(config, "head")
    privileges.apply(owner)
