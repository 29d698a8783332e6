"""``/problems/<slug>``: the page each problem ``type`` names, in Czech, Polish and English.

The text is :data:`service.contract.problem_types.TYPES`'s; ``/problems/`` lists every type. Plain
HTML built here (escaped), no script, so any browser or ``curl`` reads it. ``/problems/index.json``
gives each type's status and the short sentence a player reads in each language: the web client's
words for a problem come from there, so the registry is the one place they are written.
"""

from __future__ import annotations

from html import escape

from flask import Blueprint, Response, abort, jsonify

from service.contract.problem_types import PREFIX, TYPES, ProblemType

blp = Blueprint("problem_pages", __name__)

LANGUAGES = {"cs": "Česky", "pl": "Po polsku", "en": "English"}
STANDARD = "type, title, status, detail"

_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "public, max-age=3600",
}


@blp.get(PREFIX)
def index() -> Response:
    """Every problem type, each linked to its page."""
    items = "".join(
        f'<li><a href="{PREFIX}{escape(slug)}"><code>{escape(slug)}</code></a> '
        f"{kind.status} {escape(kind.title)}</li>"
        for slug, kind in sorted(TYPES.items())
    )
    return _page("Kotlík: problem types", f"<h1>Problem types</h1><ul>{items}</ul>")


@blp.get(f"{PREFIX}index.json")
def index_json() -> Response:
    """``{slug: {status, title, say: {cs, pl, en}}}`` for every type (the web client's words)."""
    body = {
        slug: {
            "status": kind.status,
            "title": kind.title,
            "say": {lang: kind.words(lang) for lang in LANGUAGES},
        }
        for slug, kind in sorted(TYPES.items())
    }
    response = jsonify(body)
    response.headers.update(_HEADERS)
    return response


@blp.get(f"{PREFIX}<slug>")
def problem_type(slug: str) -> Response:
    """One problem type: its status, title, what it means in three languages, its members."""
    kind = TYPES.get(slug)
    if kind is None:
        abort(404)
    return _page(f"Kotlík: {kind.title}", _body(slug, kind))


def _body(slug: str, kind: ProblemType) -> str:
    members = ", ".join([STANDARD, *kind.members])
    sections = "".join(
        f'<section lang="{lang}"><h2>{name}</h2><p>{escape(kind.text[lang])}</p></section>'
        for lang, name in LANGUAGES.items()
    )
    return (
        f"<h1><code>{PREFIX}{escape(slug)}</code></h1>"
        f"<p>HTTP {kind.status} · {escape(kind.title)}</p>{sections}"
        f"<p>Members: <code>{escape(members)}</code></p>"
        f'<p><a href="{PREFIX}">All problem types</a></p>'
    )


def _page(title: str, body: str) -> Response:
    html = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"</head><body>{body}</body></html>"
    )
    return Response(html, mimetype="text/html", headers=_HEADERS)
