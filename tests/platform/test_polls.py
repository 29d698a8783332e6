"""The spectators' long-polls answered beneath Flask (:class:`service.live.polls.Spectators`) get the very
answer the app gives, headers included; every request the layer cannot answer reaches the app."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any
from uuid import uuid4

import pytest
from werkzeug.test import Client, TestResponse

from service.live.polls import Spectators

ORIGIN = "https://client.example"


@pytest.fixture(scope="module")
def app(pool: Any, broker: dict[str, str]) -> Any:
    from service.app import create_app

    return create_app(pool, TESTING=True, KOTLIK_RATE_LIMITS="off", KOTLIK_CORS_ORIGINS=ORIGIN)


def _layer(app: Any) -> Spectators:
    """The spectators' layer, beneath the security headers' and the request ids' (which add their
    headers to every answer, the layer's and the app's alike)."""
    layer = app.wsgi_app
    while not isinstance(layer, Spectators):
        layer = layer.app
    return layer


@pytest.fixture
def passed(app: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The paths of the requests the layer passed on to the app."""
    layer = _layer(app)
    inner, seen = layer.app, []

    def counting(environ: dict[str, Any], start_response: Any) -> Any:
        seen.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    monkeypatch.setattr(layer, "app", counting)
    yield seen


@pytest.fixture(scope="module")
def game(app: Any) -> dict[str, Any]:
    reply = app.test_client().post(
        "/api/v1/games", json={"game": "kupferkessel", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
    )
    assert reply.status_code == 201, reply.json
    created: dict[str, Any] = reply.json
    return created


def _both(app: Any, path: str, **kwargs: Any) -> tuple[TestResponse, TestResponse]:
    """The answer through the layer, and the app's own answer without it."""
    layer = _layer(app)
    return Client(layer).get(path, **kwargs), Client(layer.app).get(path, **kwargs)


def _same(layered: TestResponse, direct: TestResponse) -> None:
    assert layered.status == direct.status
    assert sorted(layered.headers.items()) == sorted(direct.headers.items())
    assert layered.data == direct.data


@pytest.mark.parametrize(
    ("query", "headers"),
    [
        ("wait=5&since=0", {}),
        ("since=0&wait=60", {"Origin": ORIGIN}),
        ("wait=5", {"If-None-Match": 'W/"0"', "Origin": "https://elsewhere.example"}),
    ],
)
def test_a_spectators_poll_past_its_version_is_answered_as_the_app_answers_it(
    app: Any, game: dict[str, Any], passed: list[str], query: str, headers: dict[str, str]
) -> None:
    path = f"/api/v1/games/{game['id']}/state?{query}"
    layered, direct = _both(app, path, headers=headers)
    assert layered.status_code == 200 and layered.json["version"] == game["version"]
    assert layered.json["seat"] is None
    _same(layered, direct)
    assert passed == [path.split("?")[0]]  # the app's own answer only


def test_a_spectators_poll_with_nothing_new_is_a_304_after_its_wait(
    app: Any, game: dict[str, Any], passed: list[str]
) -> None:
    path = f"/api/v1/games/{game['id']}/state?wait=1&since={game['version']}"
    start = time.monotonic()
    layered, direct = _both(app, path, headers={"Origin": ORIGIN})
    assert time.monotonic() - start >= 2  # each waited its second
    assert layered.status_code == 304
    _same(layered, direct)
    assert len(passed) == 1


@pytest.mark.parametrize(
    ("query", "headers", "status"),
    [
        ("wait=5&since=0", {"Authorization": "Bearer forged"}, 401),
        ("wait=0&since=0", {}, 200),
        ("wait=61&since=0", {}, 422),
        ("wait=5&since=-1", {}, 422),
        ("wait=5&since=x", {}, 422),
        ("wait=5&wait=1&since=0", {}, 200),
        ("wait=5&since=0&at=1", {}, 404),  # a replay past the new game's version: no state there
        ("wait=5&since=0&color=red", {}, 200),
        ("wait=5", {}, 200),
    ],
)
def test_what_the_layer_cannot_answer_reaches_the_app(
    app: Any, game: dict[str, Any], passed: list[str], query: str, headers: dict[str, str], status: int
) -> None:
    path = f"/api/v1/games/{game['id']}/state?{query}"
    layered, direct = _both(app, path, headers=headers)
    assert layered.status_code == status
    _same(layered, direct)
    assert len(passed) == 2


def test_an_unknown_game_is_the_apps_404(app: Any, passed: list[str]) -> None:
    layered, direct = _both(app, f"/api/v1/games/{uuid4()}/state?wait=5&since=0")
    assert layered.status_code == 404 and layered.json["type"].endswith("not-found")
    _same(layered, direct)
    assert len(passed) == 2


def test_other_requests_pass_through(app: Any, game: dict[str, Any], passed: list[str]) -> None:
    client = Client(_layer(app))
    assert client.head(f"/api/v1/games/{game['id']}/state?wait=5&since=0").status_code == 200
    assert client.get(f"/api/v1/games/{game['id']}/state/?wait=5&since=0").status_code in (308, 404)
    assert client.get(f"/api/v1/games/{game['id']}?wait=5&since=0").status_code == 200
    assert len(passed) == 3
