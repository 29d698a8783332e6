"""The OpenAPI document is one a generic tool can trust (issue 53).

It is valid OpenAPI 3.1 (``openapi-spec-validator``), every schema in it is a valid draft 2020-12
schema, and every answer the server gave while seeded games of every kind were played to the end,
replayed at every version and exported fits the document (:mod:`contract`): status, media type,
body and headers.
"""

from __future__ import annotations

from typing import Any

import pytest
from contract import Contract
from httpclient import Client, Reply, create, play_to_end
from jsonschema import Draft202012Validator
from openapi_spec_validator import OpenAPIV31SpecValidator

import games

#: Per kind of game: seats and options; Čarodění solo, whose view has Ostara's own phase.
PLAYED: dict[str, tuple[list[dict[str, Any]], dict[str, Any]]] = {
    "kupferkessel": ([{"name": "A"}, {"name": "B"}], {}),
    "skodakouzla": ([{"name": "A"}, {"name": "B"}], {}),
    "carcassonne": ([{"name": "A"}, {"name": "B"}], {}),
    "carodeni": ([{"name": "A"}, {"name": "Ostara", "bot": "ostara"}], {"solo": True}),
}


@pytest.fixture(scope="module")
def document(live_url: str) -> dict[str, Any]:
    reply = Client(live_url).get("/api/v1/openapi.json")
    assert reply.status == 200
    return dict(reply.body)


def _walk(node: Any) -> Any:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _operations(item: dict[str, Any]) -> Any:
    return ((method, op) for method, op in item.items() if method != "parameters")


def test_the_document_is_valid_openapi_3_1(document: dict[str, Any]) -> None:
    assert document["openapi"].startswith("3.1.")
    errors = [str(e)[:300] for e in OpenAPIV31SpecValidator(document).iter_errors()]
    assert errors == []
    for name, schema in document["components"]["schemas"].items():
        Draft202012Validator.check_schema(schema)
        assert not any("nullable" in node for node in _walk(schema)), name


def test_every_answer_with_a_body_has_a_media_type_and_schema(document: dict[str, Any]) -> None:
    for path, item in document["paths"].items():
        for method, operation in _operations(item):
            for status, response in operation["responses"].items():
                if "$ref" in response or status in ("204", "304"):
                    continue
                content = response.get("content")
                assert content, f"{method} {path} {status}: no content"
                assert all("schema" in media for media in content.values()), f"{method} {path} {status}"
    stream = document["paths"]["/api/v1/games/{game_id}/stream"]["get"]["responses"]["200"]
    assert list(stream["content"]) == ["text/event-stream"]
    export = document["paths"]["/api/v1/games/{game_id}/export"]["get"]["responses"]["200"]
    assert list(export["content"]) == ["application/x-ndjson"]


def test_response_fields_are_required_unless_marked(document: dict[str, Any]) -> None:
    """A generated client types every field of an answer as present, but the ones said not to be."""
    schemas = document["components"]["schemas"]
    for name in ("GameSummary", "CreatedGame", "State", "Appended", "Score", "Player", "Webhook"):
        schema = schemas[name]
        for field, spec in schema["properties"].items():
            assert field in schema.get("required", []) or "Not always sent" in spec.get("description", ""), (
                name,
                field,
            )
    problem = schemas["Problem"]
    assert set(problem["required"]) == {"type", "title", "status"}
    assert "problems" in problem["properties"]


def test_the_headers_are_in_the_document(document: dict[str, Any]) -> None:
    paths = document["paths"]
    state = paths["/api/v1/games/{game_id}/state"]["get"]
    assert "ETag" in state["responses"]["200"]["headers"]
    assert "If-None-Match" in {p["name"] for p in state["parameters"]}
    assert "Location" in paths["/api/v1/games"]["post"]["responses"]["201"]["headers"]
    assert "Idempotency-Key" in {
        p["name"] for p in paths["/api/v1/games/{game_id}/commands"]["post"]["parameters"]
    }
    assert "Last-Event-ID" in {
        p["name"] for p in paths["/api/v1/games/{game_id}/stream"]["get"]["parameters"]
    }
    for item in paths.values():
        for _, operation in _operations(item):
            for status in ("429", "503"):
                if status in operation["responses"] and "$ref" not in operation["responses"][status]:
                    assert "Retry-After" in operation["responses"][status]["headers"]


def _replayed(api: Client, game: dict[str, Any], summary: dict[str, Any]) -> None:
    """Every version of ``game`` as the spectator or a human seat recalls it; its events, score,
    export and summary as each sees them."""
    path = f"/api/v1/games/{game['id']}"
    clients = [api, *(api.seat(s["token"]) for s in game["seats"] if s["token"])]
    for client in clients:
        client.get(f"{path}/events")
        client.get(f"{path}/export")
        client.get(f"{path}/actions")
        client.get(f"{path}/state", headers={"If-None-Match": f'"{summary["version"]}"'})
    for version in range(summary["version"] + 1):  # each version once, by the spectator and seats in turn
        clients[version % len(clients)].get(f"{path}/state?at={version}")
    api.get(f"{path}/score")
    api.get(f"{path}/state?at={summary['version'] + 1}")


def _players_and_endings(api: Client) -> None:
    """A player, a game with a seat bound to them, their lists, a refused webhook, a resignation."""
    player = api.post("/api/v1/players", {"name": "Pat"}).body
    me = api.seat(player["key"])
    game = create(api, "kupferkessel", [{"player": player["id"]}, {"name": "B"}])
    for what in ("", "/games", "/webhooks", "/deliveries"):
        me.get(f"/api/v1/players/me{what}")
    me.post("/api/v1/players/me/webhooks", {"url": "http://127.0.0.1/hook"})  # loopback: refused
    me.post(f"/api/v1/games/{game['id']}/resign")
    me.post(f"/api/v1/games/{game['id']}/resign")  # the game is over


@pytest.mark.e2e
def test_every_answer_of_played_and_replayed_games_fits_the_document(
    document: dict[str, Any], live_url: str, worker: Any
) -> None:
    contract = Contract(document)
    seen: list[tuple[str, str, Reply]] = []
    api = Client(live_url, seen=seen)
    api.get("/api/v1/catalog")
    for kind in games.known():
        api.get(f"/api/v1/catalog/{kind}")
    assert set(PLAYED) == set(games.known())
    for seed, (kind, (seats, options)) in enumerate(sorted(PLAYED.items())):
        game = create(api, kind, seats, options)
        summary = play_to_end(api, game, seed=seed)
        _replayed(api, game, summary)
        api.seat(game["seats"][0]["token"]).post(f"/api/v1/games/{game['id']}/rematch")
    _players_and_endings(api)
    api.get("/api/v1/games?page=1&page_size=5")
    api.post("/api/v1/games", {})
    statuses = {reply.status for _, _, reply in seen}
    assert {200, 201, 304, 404, 409, 422} <= statuses, statuses
    errors = [e for method, path, reply in seen for e in contract.errors(method, path, reply)]
    assert errors == [], f"{len(errors)} of {len(seen)} answers do not fit:\n" + "\n".join(errors[:30])


#: Bodies a generated client must not be able to send: each one fits no branch of its union.
WRONG: list[tuple[str, Any]] = [
    ("CreateGame", {}),
    ("CreateGame", {"game": "kupferkessel"}),
    ("CreateGame", {"game": "chess", "seats": [{"name": "A"}, {"name": "B"}]}),
    ("CreateGame", {"game": "kupferkessel", "seats": [{"name": "A"}]}),  # one seat of two
    ("CreateGame", {"game": "kupferkessel", "seats": [{"name": "A"}, {"name": "B", "bot": "ostara"}]}),
    ("CreateGame", {"game": "kupferkessel", "seats": [{"name": "A"}, {"name": "B"}], "options": {"x": 1}}),
    ("Command", {}),
    ("Command", {"type": "fly"}),
    ("Command", {"type": "move", "steps": "three"}),
    ("Command", {"type": "move", "steps": 2, "hop": True}),
]
RIGHT: list[tuple[str, Any]] = [
    ("CreateGame", {"game": "kupferkessel", "seats": [{"name": "A"}, {"name": "B", "bot": "default"}]}),
    (
        "CreateGame",
        {
            "game": "carodeni",
            "seats": [{"name": "A"}, {"name": "O", "bot": "ostara"}],
            "options": {"solo": True, "clock": {"per_move": "24h", "on_timeout": "forfeit"}},
        },
    ),
    ("Command", {"type": "move", "steps": 2, "expected_version": 3}),
]


def test_bodies_are_unions_with_nothing_beside_them(document: dict[str, Any]) -> None:
    """``properties`` beside ``anyOf`` is what generators turned into loose types; each union is bare."""
    schemas = document["components"]["schemas"]
    unions = [
        schemas["CreateGame"],
        schemas["Command"],
        schemas["Event"],
        schemas["State"]["properties"]["view"],
    ]
    for union in unions:
        assert "properties" not in union and ("oneOf" in union or "anyOf" in union), union
    assert schemas["CreateGame"]["discriminator"]["propertyName"] == "game"
    for kind in games.known():
        assert schemas[f"{kind}.Logged"]["discriminator"]["propertyName"] == "type"
    contract = Contract(document)
    for name, body in WRONG:
        assert not contract.validator(f"#/components/schemas/{name}").is_valid(body), (name, body)
    for name, body in RIGHT:
        errors = [e.message for e in contract.validator(f"#/components/schemas/{name}").iter_errors(body)]
        assert errors == [], (name, body)
