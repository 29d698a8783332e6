"""The web client: the page at ``/`` and its ES modules and CSS under ``/web/``.

Plain files shipped in the package (``service/web/``), no build step and no CDN: the browser loads
``index.html``, which imports ``app.js``; boards are ``boards/<game>.js``. The client talks only to
the public REST API. Seat tokens live in the URL fragment and the browser's storage, never in a path
or query, so no request line (and no access log) carries one.

``/rules/<game>/<lang>.md`` is each game's rules in brief, kept as data beside the game's content
(``seeds/<game>/rules.<lang>.md``, summarised from the rulebooks) and shown by the game page's
"Rules" dialog.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, send_from_directory

import seeds

#: Where the client's files are, inside the installed package.
WEB = Path(__file__).parent

#: Where each game's content is, its rules summaries among it.
SEEDS = Path(seeds.__file__).parent
#: The languages a rules summary is written in.
RULES_LANGUAGES = ("cs", "pl", "en")

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


@blp.get("/rules/<game>/<lang>.md")
def rules(game: str, lang: str) -> Response:
    """A game's rules in brief (Markdown: headings, lists, paragraphs) in ``lang``; 404 for a game or
    a language this server has no summary of."""
    if lang not in RULES_LANGUAGES or not game.isidentifier():
        abort(404)
    path = SEEDS / game / f"rules.{lang}.md"
    if not path.is_file():
        abort(404)
    response = Response(path.read_text(encoding="utf-8"), mimetype="text/markdown")
    response.headers["Cache-Control"] = "no-cache"
    response.headers.update(_HEADERS)
    return response


def _file(name: str, cache: str) -> Response:
    response = send_from_directory(WEB, name)
    kind = _TYPES.get(Path(name).suffix)
    if kind:
        response.content_type = f"{kind}; charset=utf-8"
    response.headers["Cache-Control"] = cache
    response.headers.update(_HEADERS)
    return response
