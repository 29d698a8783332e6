"""Paged lists: flask-smorest's ``X-Pagination`` header, and an RFC 8288 ``Link`` header beside it.

Every list that pages (``?page=``, ``?page_size=``) answers ``X-Pagination`` (a JSON object: total,
pages, this page, the previous and next ones) and ``Link`` with the addresses of the ``first``,
``prev``, ``next`` and ``last`` pages, so a generic client follows ``rel="next"`` until there is
none. Each address is this request's path and query with ``page`` (and ``page_size``) set: an
absolute-path reference, resolved against the URL the client asked, so it holds behind any proxy.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import flask_smorest
from flask import request

#: The ``Link`` header as the OpenAPI document describes it on every paged answer.
LINK_HEADER = {
    "description": (
        'RFC 8288 links to the other pages of this list: `rel="first"`, `rel="prev"` (not on the '
        'first page), `rel="next"` (not on the last page) and `rel="last"`, each an absolute-path '
        "reference (this path and query with `page` and `page_size` set). Follow `next` until it "
        "is absent to read the whole list; `X-Pagination` says the same as JSON."
    ),
    "schema": {"type": "string"},
    "example": '</api/v1/games?page=2&page_size=10>; rel="next", </api/v1/games?page=1&page_size=10>; '
    'rel="first", </api/v1/games?page=3&page_size=10>; rel="last"',
}


def links(path: str, args: list[tuple[str, str]], meta: dict[str, Any], page_size: int) -> str:
    """The ``Link`` header of a page whose ``X-Pagination`` is ``meta``, asked at ``path`` with
    query ``args``; empty for an empty list."""
    others = [(k, v) for k, v in args if k not in ("page", "page_size")]

    def address(page: int) -> str:
        return f"{path}?{urlencode([*others, ('page', str(page)), ('page_size', str(page_size))])}"

    rels = [("first", meta.get("first_page")), ("prev", meta.get("previous_page"))]
    rels += [("next", meta.get("next_page")), ("last", meta.get("last_page"))]
    return ", ".join(f'<{address(page)}>; rel="{rel}"' for rel, page in rels if page is not None)


class Blueprint(flask_smorest.Blueprint):
    """A blueprint whose paged lists send ``Link`` beside ``X-Pagination``, both documented."""

    def _set_pagination_metadata(self, page_params: Any, result: Any, headers: Any) -> Any:
        result, headers = super()._set_pagination_metadata(page_params, result, headers)
        meta = json.loads(headers[self.PAGINATION_HEADER_NAME])
        link = links(request.path, list(request.args.items(multi=True)), meta, page_params.page_size)
        if link:
            headers["Link"] = link
        return result, headers

    def _document_pagination_metadata(self, spec: Any, resp_doc: dict[str, Any]) -> None:
        super()._document_pagination_metadata(spec, resp_doc)
        resp_doc.setdefault("headers", {})["Link"] = dict(LINK_HEADER)
