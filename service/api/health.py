"""``/health`` and ``/ready``: probes for ``kotlik up``, load balancers and process managers.

They sit outside ``/api/v1`` because they describe the process, not the API's resources.
``/health`` touches nothing, so a slow database never gets a healthy web process restarted;
``/ready`` says whether requests can be served now, so a balancer sends none until they can.
"""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from service.context import pool
from service.contract.problems import problem
from service.contract.schemas import ProblemSchema
from service.server.readiness import OK, checks

#: How long a client should wait before asking ``/ready`` again.
RETRY_AFTER = 5

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
        results = checks(pool())
        if all(result == OK for result in results.values()):
            return {"status": "ready", "checks": results}
        failed = "; ".join(f"{name}: {result}" for name, result in results.items() if result != OK)
        response = problem(503, "Not ready", failed, "not-ready", checks=results)
        response.headers["Retry-After"] = str(RETRY_AFTER)
        return response
