"""The games' JSON Schemas as the server's contract, through real HTTP.

Bodies a game's schema refuses (a wrong type, a missing field, a field the schema does not have, a
command type the game does not know, options out of range) are 422 problem details naming the
field, and nothing is appended or created; bodies ``/actions`` lists still pass. The catalog
carries each game's options schema and the OpenAPI document each game's components.
"""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest
from httpclient import Client, Reply, create, game_path

import games

HUMANS = [{"name": "Alice"}, {"name": "Bob"}]
WITH_SCHEMAS = [g for g in games.known() if games.load(g).SCHEMAS is not None]

#: Per game: a command that fits no schema, and what the problem's ``errors.json`` must name.
REFUSED: dict[str, list[tuple[dict[str, Any], list[str]]]] = {
    "kupferkessel": [
        ({"type": "move", "steps": "two"}, ["steps"]),  # wrong type
        ({"type": "move"}, ["steps"]),  # a missing field
        ({"type": "move", "steps": 2, "hop": True}, ["hop"]),  # a field the schema lacks
        ({"type": "move", "steps": 9}, ["steps"]),  # out of range
        ({"type": "take", "card": ["white-hair-1"]}, ["card"]),
        ({"type": "end", "keep": "yes"}, ["keep"]),
        ({"type": "brew"}, ["type"]),  # a command the game does not have
    ],
    "skodakouzla": [
        ({"type": "lay", "card": 5}, ["card"]),
        ({"type": "buy"}, ["card"]),
        ({"type": "end_phase", "now": True}, ["now"]),
        ({"type": "swap_shop", "cards": []}, ["cards"]),
        ({"type": "promote", "colour": "purple"}, ["colour"]),
        ({"type": "resolve", "card": "p0.01", "option": -1}, ["option"]),
        ({"type": "brew"}, ["type"]),
    ],
}

#: Per game: options that fit no schema, and the option the problem must name.
BAD_OPTIONS: dict[str, list[tuple[dict[str, Any], str]]] = {
    "kupferkessel": [
        ({"direction": "sideways"}, "direction"),
        ({"recipes": "yes"}, "recipes"),
        ({"arranged": {"deck": "white-hair-1"}}, "arranged"),
    ],
    "skodakouzla": [
        ({"income": 7}, "income"),
        ({"income": True}, "income"),
        ({"masters": ["fire"]}, "masters"),
        ({"two_colours": ["fire", "fire"]}, "two_colours"),
    ],
}


@pytest.fixture(scope="module")
def api(live_url: str) -> Client:
    return Client(live_url)


def _unprocessable(reply: Reply, title: str) -> dict[str, Any]:
    """A 422 as the rules answered such bodies before the schemas, now with ``errors``."""
    assert reply.status == 422, reply
    problem = reply.problem
    assert problem["status"] == 422 and problem["title"] == title and problem["errors"]["json"], problem
    return problem


def _to_move(api: Client, game: dict[str, Any]) -> Client:
    summary = api.get(game_path(game)).body
    return api.seat(game["seats"][summary["to_move"][0]]["token"])


def test_every_game_with_schemas_is_exercised() -> None:
    assert set(REFUSED) == set(BAD_OPTIONS) <= set(WITH_SCHEMAS)
    assert {"kupferkessel", "skodakouzla"} <= set(REFUSED)


@pytest.mark.parametrize("game_id", sorted(REFUSED))
def test_commands_the_schema_refuses_are_422_and_append_nothing(api: Client, game_id: str) -> None:
    game = create(api, game_id, HUMANS)
    seat = _to_move(api, game)
    before = seat.get(game_path(game, "/events")).body
    for body, fields in REFUSED[game_id]:
        problem = _unprocessable(seat.post(game_path(game, "/commands"), body), "Illegal move")
        assert sorted(problem["errors"]["json"]) == fields, (body, problem)
        assert all(word in problem["detail"] for word in fields), problem
        # with expected_version too: the platform's field is not the game's
        versioned = {**body, "expected_version": game["version"]}
        assert seat.post(game_path(game, "/commands"), versioned).status == 422
    # a huge value is refused briefly: the messages quote only a little of it
    body, fields = REFUSED[game_id][0]
    huge = seat.post(game_path(game, "/commands"), {**body, fields[0]: "x" * 200_000})
    assert huge.status == 422 and len(huge.raw) < 4000, len(huge.raw)
    # the errors that came before the rules still come first: a seat that may not act is 409
    waiting = api.seat(next(s["token"] for s in game["seats"] if s["token"] != seat.token))
    assert waiting.post(game_path(game, "/commands"), REFUSED[game_id][0][0]).status == 409
    assert seat.get(game_path(game, "/events")).body == before


@pytest.mark.parametrize("game_id", sorted(REFUSED))
def test_bodies_actions_lists_pass_the_schema(api: Client, game_id: str) -> None:
    """Thirty commands chosen from ``/actions``, each with its ``expected_version``: all 201."""
    game = create(api, game_id, HUMANS)
    for _ in range(30):
        seat = _to_move(api, game)
        actions = seat.get(game_path(game, "/actions"))
        body = {**actions.body[-1], "expected_version": int(actions.headers["ETag"].strip('"'))}
        reply = seat.post(game_path(game, "/commands"), body)
        assert reply.status == 201, (body, reply)
        if api.get(game_path(game)).body["status"] != "active":
            break


@pytest.mark.parametrize("game_id", sorted(BAD_OPTIONS))
def test_options_the_schema_refuses_are_422_and_create_nothing(api: Client, game_id: str) -> None:
    lobby = f"/api/v1/games?game={game_id}"
    before = api.get(lobby).headers["X-Pagination"]
    for options, name in BAD_OPTIONS[game_id]:
        reply = api.post("/api/v1/games", {"game": game_id, "seats": HUMANS, "options": options})
        problem = _unprocessable(reply, "Invalid game options")
        assert list(problem["errors"]["json"]["options"]) == [name], (options, problem)
    unknown = api.post("/api/v1/games", {"game": game_id, "seats": HUMANS, "options": {"speed": 3}})
    assert "speed" in _unprocessable(unknown, "Invalid game options")["detail"]
    assert api.get(lobby).headers["X-Pagination"] == before


@pytest.mark.parametrize("game_id", WITH_SCHEMAS)
def test_the_catalog_has_the_options_with_defaults_and_three_languages(api: Client, game_id: str) -> None:
    catalog = api.get(f"/api/v1/catalog/{game_id}").body
    options = catalog["options"]
    assert options == games.load(game_id).SCHEMAS["options"]
    for option in options["properties"].values():
        assert set(option["x-names"]) == set(option["x-descriptions"]) == {"cs", "pl", "en"}
    defaults = {k: o["default"] for k, o in options["properties"].items() if "default" in o}
    assert create(api, game_id, HUMANS, defaults)["status"] == "active"  # the defaults are accepted


def _schema_object() -> Any:
    """A validator of OpenAPI 3.1's Schema Object: a draft 2020-12 schema (its meta-schema)."""
    return jsonschema_rs.Draft202012Validator({"$ref": "https://json-schema.org/draft/2020-12/schema"})


@pytest.mark.parametrize("game_id", WITH_SCHEMAS)
def test_the_openapi_document_has_each_games_schemas(api: Client, game_id: str) -> None:
    components = api.get("/api/v1/openapi.json").body["components"]["schemas"]
    schemas = games.load(game_id).SCHEMAS
    # every game's commands, and the platform's undo beside them (service.contract.game_schemas.UNDO)
    for part, kinds in (("Command", [*schemas["commands"], "undo"]), ("Event", schemas["events"])):
        union = components[f"{game_id}.{part}"]
        assert union["discriminator"]["propertyName"] == "type"
        mapping = union["discriminator"]["mapping"]
        assert set(mapping) == set(kinds)
        assert [one["$ref"] for one in union["oneOf"]] == list(mapping.values())
        for kind, ref in mapping.items():
            variant = components[ref.rsplit("/", 1)[1]]
            assert variant["properties"]["type"] == {"const": kind}
    move = components[f"{game_id}.Command.{next(iter(schemas['commands']))}"]
    assert "expected_version" in move["properties"] and "expected_version" not in move["required"]
    options = components[f"{game_id}.Options"]
    assert set(options["properties"]) == set(schemas["options"]["properties"])
    assert components[f"{game_id}.View"]["type"] == "object"
    schema_object = _schema_object()
    for name, component in components.items():
        if name.startswith(f"{game_id}."):
            errors = [f"{e.instance_path}: {e.message[:200]}" for e in schema_object.iter_errors(component)]
            assert not errors, f"{name} is no OpenAPI 3.1 schema: {errors[:3]}"


def test_the_whole_openapi_document_is_valid_openapi_31(api: Client) -> None:
    """What a client generator reads first; a Python-only regex in one parameter broke it once."""
    definitions = pytest.importorskip("schemathesis.specs.openapi.definitions")
    document = api.get("/api/v1/openapi.json").body
    errors = [
        f"{e.instance_path}: {e.message[:200]}"
        for e in jsonschema_rs.validator_for(definitions.OPENAPI_31).iter_errors(document)
    ]
    assert not errors, errors[:5]
