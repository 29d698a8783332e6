"""The OpenAPI document finished as a whole, so every operation, today's and tomorrow's, gets the same rules.

apispec builds the document an operation and a component at a time; some rules are about the
whole of it, and live here, applied to the finished dict (:func:`finish`, run by
:class:`service.contract.openapi.KotlikApi` each time the document is built):

- **OpenAPI 3.1 types.** A ``nullable`` left by a hand-written schema becomes a type array
  (``type: [T, "null"]``) or a ``null`` in its ``enum``; 3.1 has no ``nullable``.
- **Response fields are required.** A client generator reads a field without ``required`` as one
  that may be missing; every field of an object schema a response carries is sent, so each is
  listed in ``required``, unless its marshmallow field says otherwise with
  ``metadata={"x-optional": True}`` (written into the document as a description line, the marker
  itself removed). Components a request also uses are left as they are (a request's fields are
  optional unless the schema says ``required=True``), as are the games' own (``<id>.View``...),
  which their JSON Schemas already make required where they are.
- **No U+0000 in what is sent.** The body reader refuses a JSON string holding U+0000 (PostgreSQL
  cannot store it, :func:`service.guard.limits.check_json`); every free string of a request body
  (one with no ``pattern``, ``enum``, ``const`` or ``format``) says so with :data:`NO_NUL`, and so
  does every open object's ``propertyNames``.
- **Bounds the parsers keep beyond their schemas** (:data:`QUERY_BOUNDS`: flask-smorest's ``page``).
- **Headers.** Every 429 and 503 carries ``Retry-After``; the headers and request headers of
  :data:`RESPONSE_HEADERS` and :data:`REQUEST_HEADERS` (``ETag``, ``Location``, ``If-None-Match``,
  ``Idempotency-Key``, ``Last-Event-ID``) are documented on the operations that send or read them,
  matched by method and path suffix, so a new endpoint of the same shape gets them too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: A marshmallow field's metadata that makes a response field optional in the document.
OPTIONAL = "x-optional"
OPTIONAL_NOTE = "Not always sent."

REF = "#/components/schemas/"

#: The version tag of an answer (``service.live.polls.etag``).
ETAG = {
    "required": True,
    "description": "The game's version, quoted: send it back as `If-None-Match` (or `?since=`) to long-poll",
    "schema": {"type": "string", "pattern": '^"[0-9]+"$'},
}
LOCATION = {"required": True, "description": "The new game's URL", "schema": {"type": "string"}}
RETRY_AFTER = {
    "required": True,
    "description": "Seconds to wait before retrying",
    "schema": {"type": "string", "pattern": "^[0-9]+$"},
}

#: (method, path suffix, status) → the headers that answer carries.
RESPONSE_HEADERS: dict[tuple[str, str, str], dict[str, Any]] = {
    ("get", "/state", "200"): {"ETag": ETAG},
    ("get", "/state", "304"): {"ETag": ETAG},
    ("get", "/actions", "200"): {"ETag": ETAG},
    ("get", "/events", "200"): {"ETag": ETAG},
    ("post", "/commands", "201"): {"ETag": ETAG},
    ("post", "/games", "201"): {"Location": LOCATION},
    ("post", "/import", "201"): {"Location": LOCATION},
    ("post", "/rematch", "201"): {"Location": LOCATION},
}

#: (method, path suffix) → the request headers the operation reads.
REQUEST_HEADERS: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("get", "/state"): [
        {
            "name": "If-None-Match",
            "in": "header",
            "description": "An `ETag` this API gave: 304 unless the game is past it (`?wait=`: by then); "
            "any other value matches no version (RFC 9110), so the answer is the state",
            "schema": {"type": "string"},
        }
    ],
    ("post", "/commands"): [
        {
            "name": "Idempotency-Key",
            "in": "header",
            "description": "A retried command with the same key answers its first result and appends nothing",
            "schema": {"type": "string", "minLength": 1, "maxLength": 200},
        }
    ],
    ("get", "/stream"): [
        {
            "name": "Last-Event-ID",
            "in": "header",
            "description": "The last `id` (version) received: the stream goes on after it, as with `?after=`",
            "schema": {"type": "string", "pattern": "^[0-9]+$", "maxLength": 10},
        }
    ],
}

#: A string without U+0000, as an ECMA-262 regex (the document's dialect).
NO_NUL = "^[^\\u0000]*$"
#: The largest lobby page: its row offset must stay a PostgreSQL bigint (``schemas.PAGE``).
PAGE_MAX = 2**31 - 1
#: Query parameter → the bounds its parser keeps that its schema does not say.
QUERY_BOUNDS: dict[str, dict[str, Any]] = {"page": {"minimum": 1, "maximum": PAGE_MAX}}

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def finish(document: dict[str, Any]) -> dict[str, Any]:
    """The document with the whole-document rules applied (in place; returned for convenience)."""
    for schema in _schemas(document):
        _union(schema)
    _no_nul(document)
    _require_response_fields(document)
    _bounds(document)
    _headers(document)
    return document


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every (path, method, operation) of the document."""
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def _schemas(node: Any) -> Iterator[dict[str, Any]]:
    """Every dict in the document (a superset of its schema objects; :func:`_union` touches only
    the ones with ``nullable``, which only schema objects have)."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _schemas(value)
    elif isinstance(node, list):
        for value in node:
            yield from _schemas(value)


def _union(schema: dict[str, Any]) -> None:
    """``nullable: true`` → ``null`` among the types (and in the ``enum``); ``nullable: false`` dropped."""
    if "nullable" not in schema or not isinstance(schema["nullable"], bool):
        return
    if not schema.pop("nullable"):
        return
    kind = schema.get("type")
    if isinstance(kind, str):
        schema["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        schema["type"] = [*kind, "null"]
    if "enum" in schema and None not in schema["enum"]:
        schema["enum"] = [*schema["enum"], None]


def _no_nul(document: dict[str, Any]) -> None:
    components = document.get("components", {}).get("schemas", {})
    bodies = [
        media.get("schema")
        for _, _, operation in operations(document)
        for media in operation.get("requestBody", {}).get("content", {}).values()
    ]
    reached = [components[name] for name in _reached(document, components, iter(bodies))]
    for schema in (node for root in [*bodies, *reached] for node in _schemas(root)):
        kind = schema.get("type")
        kinds = kind if isinstance(kind, list) else [kind]
        if "string" in kinds and not {"pattern", "enum", "const", "format"} & set(schema):
            schema["pattern"] = NO_NUL
        if "object" in kinds and schema.get("additionalProperties", True) is not False:
            schema.setdefault("propertyNames", {"pattern": NO_NUL})


def _bounds(document: dict[str, Any]) -> None:
    for _, _, operation in operations(document):
        for parameter in operation.get("parameters", []):
            bounds = QUERY_BOUNDS.get(parameter.get("name", "")) if parameter.get("in") == "query" else None
            if bounds and isinstance(parameter.get("schema"), dict):
                parameter["schema"].update(bounds)


def _require_response_fields(document: dict[str, Any]) -> None:
    components = document.get("components", {}).get("schemas", {})
    requested = _reached(document, components, _request_schemas(document))
    answered = _reached(document, components, _response_schemas(document))
    for name in answered - requested:
        if "." not in name:  # a game's own components keep their JSON Schemas' ``required``
            _require(components[name], components, requested)
    for schema in _response_schemas(document):
        _require(schema, components, requested)


def _request_schemas(document: dict[str, Any]) -> Iterator[Any]:
    for _, _, operation in operations(document):
        for parameter in operation.get("parameters", []):
            yield parameter.get("schema")
        for media in operation.get("requestBody", {}).get("content", {}).values():
            yield media.get("schema")


def _response_schemas(document: dict[str, Any]) -> Iterator[Any]:
    for _, _, operation in operations(document):
        for response in operation.get("responses", {}).values():
            for media in response.get("content", {}).values():
                yield media.get("schema")
    for response in document.get("components", {}).get("responses", {}).values():
        for media in response.get("content", {}).values():
            yield media.get("schema")


def _reached(document: dict[str, Any], components: dict[str, Any], roots: Iterator[Any]) -> set[str]:
    """The names of the components ``roots`` refer to, directly or through others."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        for node in _schemas(todo.pop()):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(REF):
                name = ref[len(REF) :]
                if name not in seen and name in components:
                    seen.add(name)
                    todo.append(components[name])
    return seen


def _require(schema: Any, components: dict[str, Any], requested: set[str]) -> None:
    """Every property of ``schema`` (and of the inline object schemas inside it) required, but
    the ones marked :data:`OPTIONAL`."""
    if not isinstance(schema, dict) or "$ref" in schema:
        return
    properties = schema.get("properties")
    if isinstance(properties, dict):
        required = list(schema.get("required", []))
        for name, field in properties.items():
            if isinstance(field, dict) and field.pop(OPTIONAL, False):
                description = field.get("description")
                field["description"] = f"{description}. {OPTIONAL_NOTE}" if description else OPTIONAL_NOTE
            elif name not in required:
                required.append(name)
            _require(field, components, requested)
        if required:
            schema["required"] = required
    for key in ("items", "additionalProperties"):
        _require(schema.get(key), components, requested)
    for key in ("allOf", "anyOf", "oneOf"):
        for branch in schema.get(key, []):
            _require(branch, components, requested)


def _headers(document: dict[str, Any]) -> None:
    for path, method, operation in operations(document):
        for status, response in operation.get("responses", {}).items():
            if not isinstance(response, dict) or "$ref" in response:
                continue
            headers = dict(RESPONSE_HEADERS.get(_key(method, path, str(status)), {}))
            if str(status) in ("429", "503"):
                headers["Retry-After"] = RETRY_AFTER
            if headers:
                response.setdefault("headers", {}).update(headers)
        for (verb, suffix), parameters in REQUEST_HEADERS.items():
            if method == verb and path.endswith(suffix):
                known = {(p.get("in"), p.get("name")) for p in operation.get("parameters", [])}
                operation.setdefault("parameters", []).extend(
                    p for p in parameters if (p["in"], p["name"]) not in known
                )


def _key(method: str, path: str, status: str) -> tuple[str, str, str]:
    """The :data:`RESPONSE_HEADERS` key of a response: its method, the last segment of its path."""
    return method, path[path.rstrip("/").rfind("/") :], status
