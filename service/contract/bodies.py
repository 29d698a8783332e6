"""The hot endpoints' bodies, read and written without a schema walk, documented as if they had one.

A command is a few dozen bytes, yet webargs and marshmallow cost more to read its body and write its
answer than the rules cost to decide it (issue 13). A body that plainly fits its schema is taken as
parsed (the app's bounded parser has already read it, :mod:`service.guard.limits`); anything else goes
through webargs, so every refusal is the one the schema always gave. Answers are encoded straight
to JSON in the shape their schema documents.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from http import HTTPStatus
from typing import Any, TypeVar

import orjson
from flask import Response, current_app, g
from flask_smorest import Blueprint
from marshmallow import Schema

F = TypeVar("F", bound=Callable[..., Any])

#: The status webargs answers a body its schema refuses with.
REFUSED = HTTPStatus.UNPROCESSABLE_ENTITY


def documented_body(schema: Schema) -> Callable[[F], F]:
    """Put ``schema`` in the OpenAPI document as the JSON body, as ``@blp.arguments`` does, without
    wrapping the view in a parser; the view reads the body with :func:`read`."""

    def decorator(func: F) -> F:
        doc = deepcopy(getattr(func, "_apidoc", {}))
        arguments = doc.setdefault("arguments", {})
        arguments.setdefault("parameters", []).append({"in": "json", "required": True, "schema": schema})
        arguments.setdefault("responses", {})[REFUSED.value] = REFUSED.name
        func._apidoc = doc  # type: ignore[attr-defined]
        return func

    return decorator


def read(blp: Blueprint, schema: Schema, fits: Callable[[Any], bool]) -> dict[str, Any]:
    """The request's JSON body: as parsed when ``fits`` says it plainly matches ``schema``, else as
    the schema loads it (webargs' 422 for what it refuses, its conversions for what it accepts)."""
    body = g.get("json_body")
    if fits(body):
        return dict(body)
    loaded: dict[str, Any] = blp.ARGUMENTS_PARSER.parse(schema, location="json")
    return loaded


def encode(payload: Any) -> bytes:
    """``payload`` as JSON, encoded as the app encodes every other answer."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS)


def answer(payload: Any, status: int, headers: dict[str, str]) -> Response:
    """``payload`` as a JSON response."""
    return encoded(encode(payload), status, headers)


def encoded(body: bytes, status: int, headers: dict[str, str]) -> Response:
    """A JSON body already encoded, as a response."""
    return current_app.response_class(body, status, headers, mimetype="application/json")
