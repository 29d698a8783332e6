"""Each game's JSON Schemas as components of the OpenAPI document, for client generators.

Per game ``<id>``: ``<id>.Options`` (the ``options`` of ``POST /games``), ``<id>.Command`` (a
``oneOf`` of ``<id>.Command.<type>`` with a discriminator on ``type``: the bodies of
``POST /games/{id}/commands``), ``<id>.Event`` (likewise; an event of ``/events``, ``/stream`` and
a 201 is ``{type, data}`` with ``data`` the event without its ``type``: ``<id>.EventData.<type>``)
and ``<id>.View`` (the ``view`` of ``/state``). The document is OpenAPI 3.1, whose schemas are
draft 2020-12 like the games' own, so they go in as they are.

:class:`GameReferences` points the platform's generic schemas at them without changing what is
sent: a command body, an ``/actions`` item and a ``view`` are each ``anyOf`` the games' (``anyOf``,
not ``oneOf``: two games may share a command such as ``{"type": "pass"}``), and ``POST /games`` is
``anyOf`` one branch per game with its seat count and bots. An event's ``data`` is the game's
``<id>.EventData.<type>`` (the event's schema without ``type``), or anything in the platform's own.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

from apispec import APISpec, BasePlugin
from flask_smorest import Api

import games
from projections.fold import PLATFORM

#: The optional field every command body may carry besides the game's own.
EXPECTED_VERSION = {
    "type": "integer",
    "minimum": 0,
    "maximum": 2**31 - 1,
    "description": "the version the command was chosen at; a stale one is 409",
}


DESCRIPTIONS = {
    "Options": "The `options` of `POST /games` for this game; `GET /catalog/{game}` has them too.",
    "View": "The `view` of `GET /games/{id}/state`: what the caller's seat (or a spectator) sees.",
    "Command": "A body of `POST /games/{id}/commands`, as `GET /games/{id}/actions` lists them.",
    "Event": "An event of `/events`, `/stream` and a command's 201, as the caller may see it: the "
    "API sends its `type` beside the rest, which is the event's `data`.",
    "EventData": "The `data` of an event of this type, as the caller may see it.",
}


def register(api: Api) -> None:
    """Add every game's schemas to ``api``'s components (games without ``SCHEMAS`` are left out)."""
    for game_id in games.known():
        for name, schema in components(game_id).items():
            api.spec.components.schema(name, component=schema)


def components(game_id: str) -> dict[str, dict[str, Any]]:
    """The OpenAPI components of one game, by name."""
    schemas = games.load(game_id).SCHEMAS
    if schemas is None:
        return {}
    out: dict[str, dict[str, Any]] = {
        f"{game_id}.Options": {**openapi(schemas["options"]), "description": DESCRIPTIONS["Options"]},
        f"{game_id}.View": {**openapi(schemas["view"]), "description": DESCRIPTIONS["View"]},
    }
    for kind, schema in schemas["events"].items():
        out[f"{game_id}.EventData.{kind}"] = event_data(openapi(schema))
    for part, schemas_of, extra in (
        ("Command", {**schemas["commands"], UNDO_TYPE: UNDO}, {"expected_version": EXPECTED_VERSION}),
        ("Event", schemas["events"], {}),
    ):
        names = {kind: f"{game_id}.{part}.{kind}" for kind in schemas_of}
        for kind, schema in schemas_of.items():
            converted = openapi(schema)
            converted["properties"] = {**converted["properties"], **extra}
            out[names[kind]] = converted
        out[f"{game_id}.{part}"] = {
            "description": DESCRIPTIONS[part],
            "oneOf": [{"$ref": _ref(name)} for name in names.values()],
            "discriminator": {"propertyName": "type", "mapping": {k: _ref(n) for k, n in names.items()}},
        }
    return out


#: The platform's own command, the same in every game's union (:mod:`projections.undo`).
UNDO_TYPE = "undo"
UNDO: dict[str, Any] = {
    "type": "object",
    "description": (
        "The platform's undo, in every game: takes back the seat's newest move of its turn, while no "
        "other seat has moved and nothing new has come to light since (then 409 `undo-refused`). "
        "`GET /actions` lists it last when it may be sent."
    ),
    "properties": {"type": {"const": UNDO_TYPE}},
    "required": ["type"],
    "additionalProperties": False,
}


def event_data(schema: dict[str, Any]) -> dict[str, Any]:
    """An event's schema without its ``type``: the ``data`` the API sends beside the type."""
    properties = {k: v for k, v in schema["properties"].items() if k != "type"}
    required = [k for k in schema.get("required", []) if k != "type"]
    out = {**schema, "properties": properties, "description": DESCRIPTIONS["EventData"]}
    if required:
        out["required"] = required
    else:
        out.pop("required", None)
    return out


def _ref(name: str) -> str:
    return f"#/components/schemas/{name}"


def openapi(schema: Any) -> Any:
    """A game's draft 2020-12 schema as a schema object of the document: OpenAPI 3.1's schemas are
    draft 2020-12, so it is the same schema (a copy: the document's passes change what they get),
    but for a ``const`` that is a branch of a union, written as the one-value ``enum`` it equals:
    openapi-python-client's parser of a union stops at a ``const`` branch that does not match,
    never trying the branches after it (openapi-python-client#1263; Škoda kouzla's ``target`` is
    ``"wizard"`` or a card), so a generated client could not read the card a spell was aimed at."""
    copied = deepcopy(schema)
    _consts_as_enums(copied)
    return copied


def _consts_as_enums(schema: Any) -> None:
    if isinstance(schema, list):
        for item in schema:
            _consts_as_enums(item)
        return
    if not isinstance(schema, dict):
        return
    for union in ("anyOf", "oneOf"):
        for branch in schema.get(union, []):
            if isinstance(branch, dict) and "const" in branch:
                branch["enum"] = [branch.pop("const")]
    for value in schema.values():
        _consts_as_enums(value)


def described() -> list[str]:
    """The games that have schemas."""
    return [g for g in games.known() if games.load(g).SCHEMAS is not None]


def any_game(part: str) -> dict[str, Any]:
    """``anyOf`` every game's ``<id>.<part>`` component."""
    return {"anyOf": [{"$ref": _ref(f"{game_id}.{part}")} for game_id in described()]}


def _replace(schema: dict[str, Any], by: dict[str, Any]) -> None:
    """``schema`` (a component being registered) becomes ``by``, its description kept: a union
    with ``properties`` beside it is one a generator reads as a loose one."""
    description = schema.get("description")
    schema.clear()
    schema.update(by)
    if description and "description" not in by:
        schema["description"] = description


def _command(schema: dict[str, Any], spec: APISpec) -> None:
    """Any game's command (``anyOf``, not ``oneOf``: two games may share a command's ``type``, as
    ``take`` is both Kupferkessel's and Čarodění's); each game's own is a discriminated ``oneOf``."""
    _replace(schema, {"description": DESCRIPTIONS["Command"], **any_game("Command")})


def _state(schema: dict[str, Any], spec: APISpec) -> None:
    """The view is one of the games' (a view has no tag to tell its game by: the game's is its own)."""
    view = schema["properties"]["view"]
    schema["properties"]["view"] = {
        "description": view.get("description", DESCRIPTIONS["View"]),
        **any_game("View"),
    }


def _event(schema: dict[str, Any], spec: APISpec) -> None:
    """An event is a game's (``<id>.Logged``: a ``oneOf`` of ``<id>.Logged.<type>`` discriminated
    on ``type``, each with its ``data``) or the platform's own (``PlatformEvent``: ``kotlik.``...).
    ``anyOf`` the games': some events (``GameStarted``) are several games'."""
    base = deepcopy(schema["properties"])
    for game_id in described():
        schemas = games.load(game_id).SCHEMAS
        assert schemas is not None  # described() lists only the games that have them
        names = {kind: f"{game_id}.Logged.{kind}" for kind in schemas["events"]}
        for kind, name in names.items():
            properties = {
                **base,
                "type": {"const": kind},
                "data": {"$ref": _ref(f"{game_id}.EventData.{kind}")},
            }
            spec.components.schema(name, component=_closed(properties))
        spec.components.schema(
            f"{game_id}.Logged",
            component={
                "description": DESCRIPTIONS["Event"],
                "oneOf": [{"$ref": _ref(name)} for name in names.values()],
                "discriminator": {"propertyName": "type", "mapping": {k: _ref(n) for k, n in names.items()}},
            },
        )
    platform = {**base, "type": {"type": "string", "pattern": "^" + PLATFORM.replace(".", "[.]")}}
    spec.components.schema(
        "PlatformEvent",
        component={**_closed(platform), "description": "The platform's own events (a clock, a resignation)"},
    )
    branches = [{"$ref": _ref(f"{game_id}.Logged")} for game_id in described()]
    _replace(schema, {"anyOf": [*branches, {"$ref": _ref("PlatformEvent")}]})


def _closed(properties: dict[str, Any]) -> dict[str, Any]:
    """An object with exactly these properties, each one sent."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _seat_request(schema: dict[str, Any], spec: APISpec) -> None:
    """A seat is named (a human's or a bot's) or bound to a player (with no bot): two shapes, so a
    generator types each (``required``-only branches beside ``properties`` read as ``unknown``)."""
    fields = schema["properties"]
    named = {"name": fields["name"], "bot": fields["bot"]}
    bound = {"player": fields["player"], "name": fields["name"], "bot": {"type": "null"}}
    _replace(
        schema,
        {
            "anyOf": [
                {"type": "object", "properties": named, "required": ["name"], "additionalProperties": False},
                {
                    "type": "object",
                    "properties": bound,
                    "required": ["player"],
                    "additionalProperties": False,
                },
            ]
        },
    )


#: The ``clock`` any game's options may hold (:func:`projections.clocks.parse`).
CLOCK = {
    "type": "object",
    "description": "a time limit on every move",
    "properties": {
        "per_move": {"type": "string", "description": "e.g. `24h`, `30m`"},
        "on_timeout": {"enum": ["bot", "forfeit"], "default": "bot"},
        "warn_before": {"type": "string", "description": "e.g. `1h`"},
    },
    "required": ["per_move"],
    "additionalProperties": False,
}


def _create_game(schema: dict[str, Any], spec: APISpec) -> None:
    """``oneOf`` a body per game (``<id>.Create``), discriminated on ``game``: each with its seat
    count, the bots that may sit, and its own options (and ``clock``)."""
    common = schema["properties"]
    names = {game_id: f"{game_id}.Create" for game_id in games.known()}
    for game_id, name in names.items():
        game = games.load(game_id)
        seat = {"allOf": [{"$ref": _ref("SeatRequest")}], "properties": {"bot": {"enum": [*game.BOTS, None]}}}
        seats = {
            "type": "array",
            "minItems": game.INFO.min_seats,
            "maxItems": game.INFO.max_seats,
            "items": seat,
        }
        options: dict[str, Any] = {"type": "object", "properties": {"clock": CLOCK}}
        if game.SCHEMAS is not None:
            options = openapi(game.SCHEMAS["options"])
            options["properties"] = {**options.get("properties", {}), "clock": CLOCK}
        options["description"] = common["options"].get("description", "")
        properties = {**common, "game": {"const": game_id}, "seats": seats, "options": options}
        spec.components.schema(
            name,
            component={
                "type": "object",
                "description": f"A new game of {game.INFO.name}",
                "properties": properties,
                "required": ["game", "seats"],
                "additionalProperties": False,
            },
        )
    _replace(
        schema,
        {
            "oneOf": [{"$ref": _ref(n)} for n in names.values()],
            "discriminator": {"propertyName": "game", "mapping": {g: _ref(n) for g, n in names.items()}},
        },
    )


#: Component name → what it gains.
REFERENCES = {
    "Command": _command,
    "State": _state,
    "Event": _event,
    "SeatRequest": _seat_request,
    "CreateGame": _create_game,
}

#: The operations whose bodies are commands: ``/actions`` lists them.
ACTIONS = "games.Actions"


class GameReferences(BasePlugin):
    """The platform's components and ``/actions`` refer to the games' components."""

    def init_spec(self, spec: APISpec) -> None:
        self.spec = spec

    def schema_helper(self, name: str, definition: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        extend = REFERENCES.get(name)
        if extend is not None:
            extend(definition, self.spec)
        return definition

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        rule = kwargs.get("rule")
        if rule is None or rule.endpoint != ACTIONS:
            return
        responses = (operations or {}).get("get", {}).get("responses", {})
        ok = responses.get(200) or responses.get("200")
        if isinstance(ok, dict):
            items = {"$ref": _ref("Command")}
            ok["content"] = {"application/json": {"schema": {"type": "array", "items": items}}}
