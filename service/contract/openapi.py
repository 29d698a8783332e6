"""The OpenAPI document says how errors are sent: problem details, as ``application/problem+json``.

flask-smorest documents every error with its own ``Error`` schema as ``application/json``, while
:mod:`service.contract.problems` answers every error (webargs' 422s and werkzeug's 4xx included) with RFC 9457
problem details. Here the default error schema is the ``Problem`` one, and a plugin rewrites each
error response (4xx, 5xx, ``default``) to ``application/problem+json`` wherever it is declared, so a
generated client parses the body it actually gets. It also documents what every operation with a
JSON body may answer before its view runs (400, 413, 415, and 429 for a write), the 404 of an
unknown game in a path, and the ``WWW-Authenticate`` of a 401.

A header that carries a JSON object (flask-smorest's ``X-Pagination``) is documented with
``content: application/json``, as OpenAPI describes JSON in a header; a ``schema`` of type
``object`` would say the ``key,value,key,value`` form that is not what is sent.
"""

from __future__ import annotations

import http
from copy import deepcopy
from typing import Any

from apispec import APISpec, BasePlugin
from flask_smorest import Api

from service.contract import document, problem_types
from service.contract.game_schemas import GameReferences
from service.contract.links import Links
from service.contract.schemas import ProblemSchema

PROBLEM_JSON = "application/problem+json"
PROBLEM_REF = "#/components/schemas/Problem"

#: Errors any JSON body may meet before its view runs (:mod:`service.guard.limits`).
BODY_ERRORS = {
    400: "Malformed JSON, or JSON nested too deep",
    413: "The body is larger than `KOTLIK_MAX_BODY`",
    415: "The body is not sent as `Content-Type: application/json`",
}

TOO_MANY = "Too many writes (or wrong tokens) from this client; `Retry-After` says when to retry"

WWW_AUTHENTICATE = {
    "description": '`Bearer`; with `error="invalid_token"` when a token was sent but holds no seat',
    "schema": {"type": "string"},
}


def _is_error(status: str | int) -> bool:
    return str(status) == "default" or str(status)[:1] in {"4", "5"}


def _as_problem(response: dict[str, Any]) -> None:
    """Move a response's JSON body to ``application/problem+json`` (a ``$ref`` is left alone: the
    component it names is rewritten where it is registered)."""
    content = response.get("content")
    if isinstance(content, dict) and "application/json" in content:
        content[PROBLEM_JSON] = content.pop("application/json")


def _problem_response(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {PROBLEM_JSON: {"schema": {"$ref": PROBLEM_REF}}},
    }


class ProblemResponses(BasePlugin):
    """Every documented error is problem details in ``application/problem+json``."""

    def init_spec(self, spec: APISpec) -> None:
        self.spec = spec

    def schema_helper(self, name: str, definition: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """The Problem schema lists each problem type: its status, title and own members."""
        if name == "Problem":
            definition["x-problem-types"] = {
                problem_types.uri(slug): {
                    "status": kind.status,
                    "title": kind.title,
                    "members": list(kind.members),
                }
                for slug, kind in problem_types.TYPES.items()
            }
        return definition

    def response_helper(self, response: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """The shared components (``UNPROCESSABLE_ENTITY``, ``DEFAULT_ERROR``...): the ones whose
        body is the Problem schema, which flask-smorest gives every error status."""
        schema = response.get("content", {}).get("application/json", {}).get("schema")
        if schema == {"$ref": PROBLEM_REF}:
            _as_problem(response)
            if response.get("description") == http.HTTPStatus.UNAUTHORIZED.phrase:
                response.setdefault("headers", {})["WWW-Authenticate"] = WWW_AUTHENTICATE
        return response

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        for operation in (operations or {}).values():
            responses = operation.setdefault("responses", {})
            for status, response in responses.items():
                if _is_error(status) and isinstance(response, dict):
                    _as_problem(response)
                    if str(status) == "401" and "$ref" not in response:
                        response.setdefault("headers", {})["WWW-Authenticate"] = WWW_AUTHENTICATE
            if "{" in (path or "") and "404" not in responses and 404 not in responses:
                responses["404"] = _problem_response("No such game, or kind of game")
            body = operation.get("requestBody", {}).get("content", {})
            if "application/json" in body:
                for status, description in BODY_ERRORS.items():
                    if str(status) not in responses and status not in responses:
                        responses[str(status)] = _problem_response(description)
                if "429" not in responses:
                    responses["429"] = _problem_response(TOO_MANY)


class JsonHeaders(BasePlugin):
    """A header whose schema is a component (an object) is sent as JSON."""

    def header_helper(self, header: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        schema = header.get("schema")
        if isinstance(schema, dict) and "$ref" in schema:
            header["content"] = {"application/json": {"schema": header.pop("schema")}}
        return header


class FinishedSpec(APISpec):
    """apispec's document, finished as a whole by :func:`service.contract.document.finish`."""

    def to_dict(self) -> dict[str, Any]:
        return document.finish(deepcopy(super().to_dict()))  # apispec's dict holds its own state


class KotlikApi(Api):
    """flask-smorest's Api with problem details as the documented error body, JSON headers as
    JSON, the links between the game operations and the games' components behind the generic ones,
    and the whole-document rules of :mod:`service.contract.document`."""

    ERROR_SCHEMA = ProblemSchema

    def _init_spec(self, **kwargs: Any) -> None:
        super()._init_spec(**kwargs)
        self.spec.__class__ = FinishedSpec  # flask-smorest makes the APISpec; this one finishes it

    def __init__(self, app: Any = None, **kwargs: Any) -> None:
        spec_kwargs = dict(kwargs.pop("spec_kwargs", None) or {})
        spec_kwargs["extra_plugins"] = [
            *spec_kwargs.get("extra_plugins", ()),
            ProblemResponses(),
            JsonHeaders(),
            Links(),
            GameReferences(),
        ]
        super().__init__(app, spec_kwargs=spec_kwargs, **kwargs)
