"""Each problem ``type`` the API sends is a page of the server that documents it (issue 53).

Every slug the code raises is in :data:`service.contract.problem_types.TYPES` and every entry is one
the code sends; each page answers in Czech, Polish and English with the type's members; a problem
that comes back names a page that is there, resolved against the URL that answered.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from httpclient import Client, create, game_path

from service.api import exports
from service.contract import problem_types, problems

SERVICE = Path(problems.__file__).resolve().parent.parent
#: Slugs passed to ``problem()`` as literals (outside the class tables).
LITERAL = {"rate-limited", "unavailable", "not-migrated", "not-ready"}


def _raised() -> set[str]:
    return (
        {slug for _, slug, _ in problems.STATUS.values()}
        | {slug for _, slug, _ in exports._REFUSED.values()}
        | LITERAL
    )


def test_every_slug_the_code_sends_is_documented_and_every_entry_is_sent() -> None:
    assert _raised() <= set(problem_types.TYPES)
    source = "\n".join(p.read_text() for p in SERVICE.rglob("*.py") if p.name != "problem_types.py")
    quoted = set(re.findall(r'"([a-z]+(?:-[a-z]+)*)"', source))
    assert set(problem_types.TYPES) <= quoted, set(problem_types.TYPES) - quoted
    for slug in LITERAL:
        assert f'"{slug}"' in source
    for slug, kind in problem_types.TYPES.items():
        assert set(kind.text) == {"cs", "pl", "en"} and all(kind.text.values()), slug
    for status, slug, title in [*problems.STATUS.values(), *exports._REFUSED.values()]:
        assert (problem_types.TYPES[slug].status, problem_types.TYPES[slug].title) == (status, title), slug


def test_each_type_has_its_page_in_three_languages(live_url: str) -> None:
    api = Client(live_url)
    listed = api.get("/problems/")
    assert listed.status == 200 and listed.headers["Content-Type"].startswith("text/html")
    for slug, kind in problem_types.TYPES.items():
        page = api.get(f"/problems/{slug}")
        assert page.status == 200, slug
        assert f'href="/problems/{slug}"' in listed.body
        for lang, text in kind.text.items():
            assert f'<section lang="{lang}">' in page.body, (slug, lang)
            assert escape(text) in page.body, (slug, lang)
        for member in kind.members:
            assert member in page.body
    assert api.get("/problems/no-such-problem").status == 404


def test_a_problem_names_a_page_the_server_serves(live_url: str) -> None:
    api = Client(live_url)
    game = create(api, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    answers: list[dict[str, Any]] = [
        api.get(game_path(game, "/state?at=99999")).problem,
        api.get("/api/v1/games/00000000-0000-0000-0000-000000000000").problem,
        api.post(game_path(game, "/commands"), {"type": "move", "steps": 1}).problem,
    ]
    for answer in answers:
        assert answer["type"].startswith("/problems/"), answer
        page = api.get(urljoin(f"{live_url}{game_path(game)}", answer["type"]).removeprefix(live_url))
        assert page.status == 200 and escape(answer["title"]) in page.body, answer


def test_the_document_lists_each_type_and_its_members(live_url: str) -> None:
    problem = Client(live_url).get("/api/v1/openapi.json").body["components"]["schemas"]["Problem"]
    listed = problem["x-problem-types"]
    assert set(listed) == {problem_types.uri(slug) for slug in problem_types.TYPES}
    for slug, kind in problem_types.TYPES.items():
        assert listed[problem_types.uri(slug)]["members"] == list(kind.members)
        for member in kind.members:
            assert member in problem["properties"] or member == "checks", (slug, member)


def test_the_web_clients_words_for_each_type_come_from_the_registry(live_url: str) -> None:
    """``/problems/index.json``: every type, its status and a sentence a player reads in each
    language (no API words: no path, no header name, no member in backquotes)."""
    body = Client(live_url).get("/problems/index.json").body
    assert set(body) == set(problem_types.TYPES)
    for slug, kind in problem_types.TYPES.items():
        entry = body[slug]
        assert entry["status"] == kind.status and entry["title"] == kind.title, slug
        for lang in ("cs", "pl", "en"):
            said = entry["say"][lang]
            assert said == kind.words(lang) and said.endswith("."), (slug, lang, said)
            assert not re.search(r"`|/[a-z]|Retry-After|Authorization|\?wait", said), (slug, lang, said)
