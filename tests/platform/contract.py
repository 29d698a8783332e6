"""A served answer checked against the OpenAPI document, as a generic client's validator checks it.

The document's schemas are JSON Schema draft 2020-12 (OpenAPI 3.1), checked here by ``jsonschema``
(not the server's ``jsonschema-rs``: a second implementation reading the same document), every
``$ref`` resolved inside the document. An answer fits when its status is documented (or falls to
``default``), its media type is one the response lists, its body fits that media type's schema and
every header the response marks ``required`` is sent and fits its schema; every header of
:data:`WATCHED` it sends must be documented on that response.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from httpclient import Reply
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

URI = "urn:kotlik:openapi"
#: Headers whose presence the document must announce.
WATCHED = ("ETag", "Location", "Retry-After")


def _pointer(*parts: str) -> str:
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


class Contract:
    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self.registry: Registry[Any] = Registry().with_resource(URI, resource)
        # A literal segment wins over a parameter (``/games/import`` is not ``/games/{game_id}``).
        templates = sorted(document["paths"], key=lambda t: (t.count("{"), -len(t)))
        self.paths = [(re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", t) + "$"), t) for t in templates]

    def template(self, path: str) -> str:
        bare = path.split("?", 1)[0]
        for pattern, template in self.paths:
            if pattern.match(bare):
                return template
        raise AssertionError(f"{path} is in no path of the document")

    @cache  # noqa: B019 - one contract per test module
    def validator(self, pointer: str) -> Draft202012Validator:
        return Draft202012Validator({"$ref": URI + pointer}, registry=self.registry)

    def errors(self, method: str, path: str, reply: Reply) -> list[str]:
        """What is wrong with ``reply`` to ``method path`` (empty when it fits)."""
        template = self.template(path)
        operation = self.document["paths"][template].get(method.lower())
        where = f"{method} {path} → {reply.status}"
        if operation is None:
            return [f"{where}: {method} {template} is not documented"]
        status = str(reply.status)
        responses = operation["responses"]
        key = status if status in responses else "default"
        if key not in responses:
            return [f"{where}: status not documented"]
        response = responses[key]
        base = ["paths", template, method.lower(), "responses", key]
        if "$ref" in response:
            name = response["$ref"].rsplit("/", 1)[1]
            response, base = self.document["components"]["responses"][name], ["components", "responses", name]
        out = self._headers(where, reply, response, base)
        media = reply.headers.get("Content-Type", "").split(";")[0].strip()
        content = response.get("content", {})
        if not reply.raw:
            return out if not content or reply.status in (204, 304) else [*out, f"{where}: an empty body"]
        if media not in content:
            return [*out, f"{where}: {media} is not among {sorted(content)}"]
        schema_at = _pointer(*base, "content", media, "schema")
        body = reply.body if "json" in media and "ndjson" not in media else reply.raw.decode()
        for error in self.validator(schema_at).iter_errors(body):
            at = "/".join(str(p) for p in error.absolute_path)
            out.append(f"{where}: at /{at}: {error.message[:300]}")
        return out

    def _headers(self, where: str, reply: Reply, response: dict[str, Any], base: list[str]) -> list[str]:
        out = []
        documented = {name.lower(): (name, h) for name, h in response.get("headers", {}).items()}
        sent = {name.lower(): value for name, value in reply.headers.items()}
        for name in WATCHED:
            if name.lower() in sent and name.lower() not in documented:
                out.append(f"{where}: sends {name}, which the document does not announce")
        for low, (name, header) in documented.items():
            if low not in sent:
                if header.get("required"):
                    out.append(f"{where}: no {name} header")
                continue
            if "schema" in header:
                validator = self.validator(_pointer(*base, "headers", name, "schema"))
                if not validator.is_valid(sent[low]):
                    out.append(f"{where}: header {name}: {sent[low]!r} does not fit")
        return out
