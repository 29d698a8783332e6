"""``/health`` and ``/ready``: probes for ``kotlik up``, load balancers and process managers.

They sit outside ``/api/v1`` because they describe the process, not the API's resources.
``/health`` touches nothing, so a slow database never gets a healthy web process restarted;
``/ready`` says whether requests can be served now, so a balancer sends none until they can.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields
from psycopg import Connection

from service.context import pool
from service.errors import problem
from service.schemas import ProblemSchema

#: Seconds each readiness check may take, so a probe answers before a balancer gives up on it.
TIMEOUT = 2.0
#: How long a client should wait before asking ``/ready`` again.
RETRY_AFTER = 5
OK = "ok"

blp = Blueprint("health", __name__, description="Liveness and readiness of this process")


class HealthSchema(Schema):
    status = fields.String(metadata={"example": OK})


class ReadySchema(Schema):
    status = fields.String(metadata={"example": "ready"})
    checks = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"example": {"database": OK, "migrations": OK, "broker": OK}},
    )


class NotReadySchema(ProblemSchema):
    checks = fields.Dict(keys=fields.String(), values=fields.String())


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    def get(self) -> dict[str, str]:
        """The process is alive and serving (nothing else is checked)."""
        return {"status": OK}


@blp.route("/ready")
class Ready(MethodView):
    @blp.response(200, ReadySchema)
    @blp.alt_response(503, schema=NotReadySchema, description="Not ready; `Retry-After` says when to retry")
    def get(self) -> dict[str, Any] | Response:
        """The database answers, its schema is at the newest migration, and the broker answers."""
        checks = _checks()
        if all(result == OK for result in checks.values()):
            return {"status": "ready", "checks": checks}
        failed = "; ".join(f"{name}: {result}" for name, result in checks.items() if result != OK)
        response = problem(503, "Not ready", failed, "not-ready", checks=checks)
        response.headers["Retry-After"] = str(RETRY_AFTER)
        return response


def _run(check: Callable[[], str]) -> str:
    try:
        return check()
    except Exception as e:  # a probe reports every failure; it must never answer 500
        return f"{type(e).__name__}: {e}".strip().splitlines()[0]


def schema() -> str:
    """Whether the database's schema is at the newest migration: ``ok``, or what to do."""
    return _run(_migrations)


def _checks() -> dict[str, str]:
    results = {"database": _run(_database)}
    results["migrations"] = schema() if results["database"] == OK else "unknown: no database"
    results["broker"] = _run(_broker)
    return results


@contextmanager
def _transaction() -> Iterator[Connection[Any]]:
    """A pooled connection whose statements, and whose wait for it, end within ``TIMEOUT``."""
    with pool().connection(timeout=TIMEOUT) as conn, conn.transaction():
        conn.execute("SELECT set_config('statement_timeout', %s, true)", [str(int(TIMEOUT * 1000))])
        yield conn


def _database() -> str:
    with _transaction() as conn:
        conn.execute("SELECT 1")
    return OK


def _migrations() -> str:
    with _transaction() as conn:
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

    ini = Path(__file__).resolve().parent.parent / "alembic.ini"
    return tuple(sorted(ScriptDirectory.from_config(Config(str(ini))).get_heads()))
