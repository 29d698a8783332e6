"""The web client: the page at ``/`` and its ES modules and CSS under ``/web/``.

Plain files shipped in the package (``service/web/``), no build step and no CDN: the browser loads
``index.html``, which imports ``app.js``; boards are ``boards/<game>.js``. The client talks only to
the public REST API. Seat tokens live in the URL fragment and the browser's storage, never in a path
or query, so no request line (and no access log) carries one.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

#: Where the client's files are, inside the installed package.
WEB = Path(__file__).parent

#: Types a module script needs (``mimetypes`` may call ``.js`` ``application/javascript`` or nothing).
_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".svg": "image/svg+xml"}

#: The page may load only its own files and talk only to its own origin, and no other site may
#: frame it (clickjacking: it holds seat tokens and move buttons); no referrer leaves it.
_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}

blp = Blueprint("webclient", __name__)


@blp.get("/")
def index() -> Response:
    """The single page; the fragment (``#/game/<id>`` …) picks what it shows."""
    return _file("index.html", cache="no-cache")


@blp.get("/web/<path:name>")
def asset(name: str) -> Response:
    """A module, stylesheet or picture of the client; revalidated so an upgrade shows at once."""
    return _file(name, cache="no-cache")


def _file(name: str, cache: str) -> Response:
    response = send_from_directory(WEB, name)
    kind = _TYPES.get(Path(name).suffix)
    if kind:
        response.content_type = f"{kind}; charset=utf-8"
    response.headers["Cache-Control"] = cache
    response.headers.update(_HEADERS)
    return response
