"""Security headers over real HTTP: the web client may not be framed, nothing is sniffed, every
answer has a Content-Security-Policy (the docs page's allowing exactly its own inline script), and
HSTS is sent only when the operator says the server is behind TLS. The docs page rendering under
its policy in a real browser is ``tests/browser/test_docs_web.py``."""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any

import pytest
from httpclient import Client, Reply, create, game_path

from service.guard import headers

GAME = "kupferkessel"
HUMANS = [{"name": "Alice"}, {"name": "Bob"}]


@pytest.fixture(scope="module")
def api(live_url: str) -> Client:
    return Client(live_url)


def _policy(reply: Reply) -> dict[str, str]:
    """The reply's Content-Security-Policy, directive by directive."""
    policy = reply.headers["Content-Security-Policy"]
    return {d.split()[0]: " ".join(d.split()[1:]) for d in (p.strip() for p in policy.split(";")) if d}


def _never_framed_nor_sniffed(reply: Reply) -> dict[str, str]:
    assert reply.headers["X-Frame-Options"] == "DENY", reply.headers
    assert reply.headers["X-Content-Type-Options"] == "nosniff", reply.headers
    assert "Strict-Transport-Security" not in reply.headers, reply.headers  # not behind TLS here
    policy = _policy(reply)
    assert policy["frame-ancestors"] == "'none'", policy
    return policy


def test_the_web_client_may_not_be_framed(api: Client) -> None:
    for path in ("/", "/web/app.js", "/web/style.css"):
        policy = _never_framed_nor_sniffed(api.get(path))
        assert policy["default-src"] == "'self'" and "script-src" not in policy, policy  # its own files only


def test_every_api_answer_may_load_nothing(api: Client) -> None:
    game = create(api, GAME, HUMANS)
    seat = api.seat(game["seats"][0]["token"])
    replies = [
        api.get("/api/v1/games"),  # a view of Flask's
        api.get("/api/v1/games/not-a-game"),  # a problem
        api.get("/api/v1/openapi.json"),
        api.get(game_path(game, f"/state?since={game['version']}&wait=1")),  # a long-poll, beneath Flask
        seat.get(game_path(game, "/actions")),  # a seat's hot route, beneath Flask
        api.seat("forged").post(game_path(game, "/commands"), {"type": "brew"}),
        api.get("/health"),
    ]
    assert [r.status for r in replies] == [200, 404, 200, 304, 200, 401, 200], replies
    for reply in replies:
        policy = _never_framed_nor_sniffed(reply)
        assert policy["default-src"] == "'none'", (reply, policy)


def test_the_docs_page_may_run_only_its_own_inline_script(api: Client) -> None:
    reply = api.get("/api/v1/docs")
    policy = _never_framed_nor_sniffed(reply)
    page = reply.raw
    inline = re.findall(rb"<script>(.*?)</script>", page, re.DOTALL)
    assert len(inline) == 1, page
    digest = base64.b64encode(hashlib.sha256(inline[0]).digest()).decode()
    assert policy["script-src"] == f"'self' 'sha256-{digest}'", policy
    assert policy["default-src"] == "'none'" and policy["connect-src"] == "'self'", policy
    # Everything it loads is this server's: Swagger UI's files ship in the package, no CDN.
    for source in re.findall(rb'(?:src|href)="([^"]+)"', page):
        assert source.startswith(b"/api/v1/docs/assets/"), source
        assert api.get(source.decode()).status == 200, source
    assert b'"validatorUrl": null' in page  # no badge fetched from validator.swagger.io


def test_hsts_only_when_the_operator_says_tls(pool: Any, broker: dict[str, str]) -> None:
    from service.app import create_app

    assert not headers.tls({}) and not headers.tls({"KOTLIK_TLS": "no"})
    assert headers.tls({"KOTLIK_TLS": "yes"})
    with pytest.raises(ValueError, match="KOTLIK_TLS"):
        headers.tls({"KOTLIK_TLS": "maybe"})
    app = create_app(pool, TESTING=True, KOTLIK_RATE_LIMITS="off", KOTLIK_TLS="1")
    for path in ("/", "/api/v1/games", "/api/v1/docs"):
        reply = app.test_client().get(path)
        assert reply.headers["Strict-Transport-Security"] == f"max-age={headers.HSTS_SECONDS}", path
        assert reply.headers["X-Frame-Options"] == "DENY"
