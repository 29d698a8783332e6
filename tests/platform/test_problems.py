"""Errors as sent, through real HTTP: what the OpenAPI document promises is what comes back.

Every error the document lists is ``application/problem+json`` with the Problem schema, and each
error provoked here arrives so, with a status its operation documents; 401s say
``WWW-Authenticate: Bearer``; a body not sent as JSON is a 415 that names the header; a refusal
names seats by number and name; ``?at=`` past the current version is 404 (no state there), as is
one before the game's set-up.
"""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

import pytest
from httpclient import Client, Reply, create, game_path

GAME = "kupferkessel"
HUMANS = [{"name": "Alice"}, {"name": "Bob"}]
PROBLEM_JSON = "application/problem+json"


@pytest.fixture(scope="module")
def api(live_url: str) -> Client:
    return Client(live_url)


@pytest.fixture(scope="module")
def spec(api: Client) -> dict[str, Any]:
    return dict(api.get("/api/v1/openapi.json").body)


@pytest.fixture(scope="module")
def game(api: Client) -> dict[str, Any]:
    """One game for the module (``POST /games`` is rate limited per address, and the suite shares
    the count): no test here relies on its version but through what it reads first."""
    return create(api, GAME, HUMANS)


def _mover(api: Client, game: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The token of the seat to move and the first command it may play."""
    seat = api.get(game_path(game)).body["to_move"][0]
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
    return token, api.seat(token).get(game_path(game, "/actions")).body[0]


def _resolve(spec: dict[str, Any], item: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in item:
        *_, kind, name = item["$ref"].split("/")
        item = spec["components"][kind][name]
    return item


def _error_responses(spec: dict[str, Any]) -> list[tuple[str, str, str, dict[str, Any]]]:
    found = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict):
                continue  # the path's own parameters
            for status, response in operation.get("responses", {}).items():
                if status == "default" or status[0] in "45":
                    found.append((method.upper(), path, status, _resolve(spec, response)))
    return found


def test_every_documented_error_is_problem_json(spec: dict[str, Any]) -> None:
    problem = spec["components"]["schemas"]["Problem"]["properties"]
    assert {"type", "title", "status", "detail", "errors"} <= set(problem)
    assert "Error" not in spec["components"]["schemas"]  # flask-smorest's own, never sent
    errors = _error_responses(spec)
    assert len(errors) > 30
    for method, path, status, response in errors:
        where = (method, path, status)
        assert set(response["content"]) == {PROBLEM_JSON}, where
        schema = _resolve(spec, response["content"][PROBLEM_JSON]["schema"])
        assert set(problem) <= set(schema["properties"]), where  # Problem, or one that extends it
        if status == "401":
            assert "WWW-Authenticate" in response["headers"], where
    by_operation = {(m, p): {s for mm, pp, s, _ in errors if (mm, pp) == (m, p)} for m, p, _, _ in errors}
    for operation in [("POST", "/api/v1/games"), ("POST", "/api/v1/games/{game_id}/commands")]:
        assert {"400", "413", "415", "422", "429", "default"} <= by_operation[operation], operation
    assert {"401", "404", "409"} <= by_operation[("POST", "/api/v1/games/{game_id}/commands")]


def _documented(spec: dict[str, Any], method: str, path: str, reply: Reply) -> dict[str, Any]:
    """The reply is problem details and its status is one the operation documents by number."""
    assert reply.headers["Content-Type"].startswith(PROBLEM_JSON), reply
    assert reply.body["status"] == reply.status and reply.body["title"], reply
    responses = spec["paths"][path][method.lower()]["responses"]
    assert str(reply.status) in responses, (method, path, reply.status, sorted(responses))
    return dict(reply.body)


def test_errors_arrive_as_documented(api: Client, spec: dict[str, Any], game: dict[str, Any]) -> None:
    commands = "/api/v1/games/{game_id}/commands"
    state = "/api/v1/games/{game_id}/state"
    token, command = _mover(api, game)
    seat = api.seat(token)
    stale = {**command, "expected_version": 1}
    cases = [
        ("POST", "/api/v1/games", api.post("/api/v1/games", raw=b"{not json"), 400),
        ("POST", "/api/v1/games", api.post("/api/v1/games", {"game": "chess", "seats": HUMANS}), 422),
        ("POST", commands, api.post(game_path(game, "/commands"), {"type": "move", "steps": 1}), 401),
        ("POST", commands, seat.post(game_path(game, "/commands"), {"type": "fly"}), 422),
        ("POST", commands, seat.post(game_path(game, "/commands"), stale), 409),
        ("GET", state, api.seat("not-a-token").get(game_path(game, "/state")), 401),
        ("GET", state, api.get(game_path(game, "/state?at=100000")), 404),
        ("GET", state, api.get("/api/v1/games/00000000-0000-0000-0000-000000000000/state"), 404),
        ("GET", "/api/v1/catalog/{game}", api.get("/api/v1/catalog/chess"), 404),
    ]
    for method, path, reply, status in cases:
        assert reply.status == status, (method, path, reply)
        _documented(spec, method, path, reply)


def test_a_401_asks_for_a_bearer_token(api: Client, game: dict[str, Any]) -> None:
    _, command = _mover(api, game)
    missing = api.post(game_path(game, "/commands"), command)
    assert missing.status == 401 and missing.headers["WWW-Authenticate"] == "Bearer"
    wrong = api.seat("no-such-token").get(game_path(game, "/state"))
    assert wrong.status == 401
    assert wrong.headers["WWW-Authenticate"] == 'Bearer error="invalid_token"'
    malformed = api.get(game_path(game, "/state"), headers={"Authorization": "Basic YWxpY2U6"})
    assert malformed.status == 401 and malformed.headers["WWW-Authenticate"].startswith("Bearer")


def _post_raw(api: Client, path: str, body: bytes, headers: dict[str, str]) -> Reply:
    """A POST with exactly these headers (urllib would add a form Content-Type of its own)."""
    url = urlsplit(api.base)
    conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=30)
    try:
        conn.request("POST", path, body=body, headers={"Content-Length": str(len(body)), **headers})
        response = conn.getresponse()
        raw = response.read()
        return Reply(response.status, dict(response.headers), json.loads(raw) if raw else None, raw)
    finally:
        conn.close()


def test_a_body_not_sent_as_json_is_a_415_that_names_the_header(
    api: Client, spec: dict[str, Any], game: dict[str, Any]
) -> None:
    token, command = _mover(api, game)
    body = json.dumps(command).encode()
    before = api.seat(token).get(game_path(game, "/events")).body
    auth = {"Authorization": f"Bearer {token}"}
    for kind in (None, "text/plain", "application/x-www-form-urlencoded"):
        headers = {"Content-Type": kind} if kind else {}
        reply = _post_raw(api, game_path(game, "/commands"), body, {**auth, **headers})
        assert reply.status == 415, (headers, reply)
        problem = _documented(spec, "POST", "/api/v1/games/{game_id}/commands", reply)
        assert "Content-Type: application/json" in problem["detail"], problem
        assert "missing" not in problem["detail"].lower(), problem
    created = _post_raw(api, "/api/v1/games", json.dumps({"game": GAME, "seats": HUMANS}).encode(), {})
    assert created.status == 415 and "Content-Type: application/json" in created.body["detail"]
    assert api.seat(token).get(game_path(game, "/events")).body == before
    as_json = _post_raw(api, game_path(game, "/commands"), body, {**auth, "Content-Type": "application/json"})
    assert as_json.status == 201, as_json  # the same bytes, declared as JSON, are played


def test_not_your_turn_names_the_seat_to_move_by_number_and_name(api: Client, game: dict[str, Any]) -> None:
    summary = api.get(game_path(game)).body
    mover = summary["to_move"][0]
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    command = api.seat(tokens[mover]).get(game_path(game, "/actions")).body[0]
    reply = api.seat(tokens[1 - mover]).post(game_path(game, "/commands"), command)
    assert reply.status == 409 and reply.problem["title"] == "Not your turn"
    name = HUMANS[mover]["name"]
    assert f"seat {mover} ({name})" in reply.problem["detail"], reply.problem


def test_state_at_a_version_past_the_current_one_is_not_found(api: Client, game: dict[str, Any]) -> None:
    """A version the schema allows but the game has not reached is no state (404), not a bad
    request: a generic client's valid request is not refused as malformed."""
    current = api.get(game_path(game, "/state")).body["version"]
    assert api.get(game_path(game, f"/state?at={current}")).status == 200
    reply = api.get(game_path(game, f"/state?at={current + 1}"))
    assert reply.status == 404 and reply.problem["type"].endswith("/no-such-version"), reply
    assert str(current) in reply.problem["detail"]
    assert api.get(game_path(game, "/state?at=0")).status in (200, 404)
