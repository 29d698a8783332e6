"""Whether this process can serve requests now: the database answers, its schema is at the newest
migration, and the broker answers. ``/ready`` reports these checks, and a request that meets a
missing table asks the second one whether the schema is behind (:mod:`service.contract.problems`).
Each check is bounded by ``TIMEOUT``, so a probe answers before a balancer gives up on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, partial
from pathlib import Path
from typing import Any

from psycopg import Connection
from psycopg_pool import ConnectionPool

#: Seconds each readiness check may take, so a probe answers before a balancer gives up on it.
TIMEOUT = 2.0
OK = "ok"


def _run(check: Callable[[], str]) -> str:
    try:
        return check()
    except Exception as e:  # a probe reports every failure; it must never answer 500
        return f"{type(e).__name__}: {e}".strip().splitlines()[0]


def schema(pool: ConnectionPool) -> str:
    """Whether the database's schema is at the newest migration: ``ok``, or what to do."""
    return _run(partial(_migrations, pool))


def checks(pool: ConnectionPool) -> dict[str, str]:
    """Each check's result by name: ``ok``, or what is wrong."""
    results = {"database": _run(partial(_database, pool))}
    results["migrations"] = schema(pool) if results["database"] == OK else "unknown: no database"
    results["broker"] = _run(_broker)
    return results


@contextmanager
def _transaction(pool: ConnectionPool) -> Iterator[Connection[Any]]:
    """A pooled connection whose statements, and whose wait for it, end within ``TIMEOUT``."""
    with pool.connection(timeout=TIMEOUT) as conn, conn.transaction():
        conn.execute("SELECT set_config('statement_timeout', %s, true)", [str(int(TIMEOUT * 1000))])
        yield conn


def _database(pool: ConnectionPool) -> str:
    with _transaction(pool) as conn:
        conn.execute("SELECT 1")
    return OK


def _migrations(pool: ConnectionPool) -> str:
    with _transaction(pool) as conn:
        if conn.execute("SELECT to_regclass('alembic_version') IS NULL AS missing").fetchall()[0]["missing"]:
            return "not migrated; run kotlik migrate"
        rows = conn.execute("SELECT version_num FROM alembic_version").fetchall()
    current = sorted(row["version_num"] for row in rows)
    if current != sorted(heads()):
        return f"at {', '.join(current) or 'nothing'}, the newest is {', '.join(heads())}; run kotlik migrate"
    return OK


def _broker() -> str:
    from workers.app import app
    from workers.broker import check

    check(app.conf.broker_url, TIMEOUT)
    return OK


@cache
def heads() -> tuple[str, ...]:
    """The newest revision(s) in ``alembic/versions``: what a current database is at."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    ini = Path(__file__).resolve().parents[2] / "alembic.ini"
    return tuple(sorted(ScriptDirectory.from_config(Config(str(ini))).get_heads()))
