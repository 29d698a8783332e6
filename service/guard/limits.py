"""Bounds on what one request may make the server read: the body's size and the JSON's nesting.

A body is refused (413) before more of it than ``KOTLIK_MAX_BODY`` bytes is read, whether it says
its length or comes chunked; JSON nested deeper than :data:`MAX_DEPTH` is refused (400) before
any schema walks it. Commands and game creations are a few hundred bytes and a few levels deep.
A body that is not sent as JSON to an operation that takes JSON is refused (415) unread.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, g, request
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge, UnsupportedMediaType

from service.server import settings

#: Bytes of body read at most, unless ``KOTLIK_MAX_BODY`` says otherwise.
MAX_BODY = 256 * 1024

#: Levels of JSON arrays and objects allowed; the deepest body a client sends has about five.
MAX_DEPTH = 64

#: Methods whose JSON body is read (and so bounded) before the view's schema reads it.
_WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def max_body(config: Mapping[str, Any]) -> int:
    """``KOTLIK_MAX_BODY`` from the app's config, else the environment, else :data:`MAX_BODY`."""
    return settings.positive(config, "KOTLIK_MAX_BODY", MAX_BODY, "bytes")


def check_json(value: Any, limit: int = MAX_DEPTH) -> None:
    """Raise ``ValueError`` if ``value`` nests arrays and objects deeper than ``limit``, or holds
    a NUL character (U+0000), which PostgreSQL cannot store in text or jsonb (it was a 500).

    Iterative, so a deep value cannot overflow the stack here; it stops at the first level
    past the limit, so its cost is bounded by the (already bounded) body.
    """
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise ValueError("JSON strings may not hold U+0000")
            continue
        if isinstance(item, dict):
            children: Any = [*item.keys(), *item.values()]
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            raise ValueError(f"JSON nested deeper than {limit} levels")
        pending.extend((child, depth + 1) for child in children)


def read_json_first() -> None:
    """Read and parse a JSON body here, with the app's bounded parser, before the view's schema.

    webargs parses bodies with the standard library, whose recursion on deep nesting ended in
    a 500; by the time it runs, the body is known to be small and shallow (and it reads the
    bytes cached here). The parsed value is kept as ``g.json_body`` for views that read their
    body by hand (:mod:`service.contract.bodies`). Requests that match no route are not read at all.
    """
    if request.routing_exception is not None or request.method not in _WITH_BODY or not request.is_json:
        return
    limit = request.max_content_length
    too_large = RequestEntityTooLarge(f"the body is over {limit} bytes (KOTLIK_MAX_BODY)")
    try:
        data = request.get_data(cache=True)
    except RequestEntityTooLarge:
        raise too_large from None
    if request.content_length is None and limit is not None and len(data) >= limit:
        raise too_large  # chunked: werkzeug stops reading at the limit and hands back what it read
    if not data:
        return  # the view's schema says what is missing
    try:
        g.json_body = current_app.json.loads(data)
    except ValueError as e:  # orjson's JSONDecodeError, or too deep
        raise BadRequest(f"malformed JSON: {e}") from None


def refuse_other_media() -> None:
    """A body for an operation that takes JSON must say so: ``Content-Type: application/json``.

    webargs reads a body of any other type as no body at all, so a client that forgot the header
    was told its fields were missing (``type: missing``); it gets a 415 that names the header
    instead. A request with neither a body nor a Content-Type is left to the view's schema.
    """
    if request.routing_exception is not None or request.method not in _WITH_BODY or request.is_json:
        return
    has_body = bool(request.content_length) or "chunked" in request.headers.get("Transfer-Encoding", "")
    if not (has_body or request.mimetype) or not _takes_json():
        return
    sent = f"it was sent as {request.mimetype!r}" if request.mimetype else "it was sent without one"
    raise UnsupportedMediaType(f"the body must be JSON with Content-Type: application/json; {sent}")


def _takes_json() -> bool:
    """Whether the view declares a JSON body (flask-smorest's ``@blp.arguments`` in ``json``)."""
    view = current_app.view_functions.get(request.endpoint or "")
    handler = getattr(getattr(view, "view_class", None), request.method.lower(), view)
    parameters = getattr(handler, "_apidoc", {}).get("arguments", {}).get("parameters", [])
    return any(parameter.get("in") == "json" for parameter in parameters)


def register(app: Flask) -> None:
    app.before_request(refuse_other_media)
    app.before_request(read_json_first)
