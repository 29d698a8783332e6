"""Every game's JSON Schemas (``games/<id>/schemas.py``) against what its engine really makes.

Over seeded random games with options drawn from the options schema: every command
``legal_actions`` lists, every event ``setup`` and ``decide`` make (as stored, and as ``redact``
shows it to each seat and to a spectator), every view (each seat and the spectator) validates; and
every option set ``setup`` accepts validates too, the schema's defaults being the ones ``setup``
applies. A game without ``SCHEMAS`` is skipped, so a game is covered as soon as it has them.

``KOTLIK_SCHEMA_GAMES`` sets how many games the slow test plays per game (default 2000).
"""

from __future__ import annotations

import os
import random
from functools import cache
from types import ModuleType
from typing import Any

import jsonschema_rs
import pytest

import games
from games.interface import InvalidOptions
from games.rng import Rng
from games.simulate import play

FAST_GAMES = 24
SLOW_GAMES = int(os.environ.get("KOTLIK_SCHEMA_GAMES", "2000"))
#: How many times a game's whole log is redacted and checked (redaction depends on the state).
LOG_CHECKS = 4


def _game(game_id: str) -> ModuleType:
    game = games.load(game_id)
    if game.SCHEMAS is None:
        pytest.skip(f"{game_id} has no SCHEMAS yet (games/{game_id}/schemas.py, see games/README.md)")
    return game


class Checker:
    """Compiled validators of one game, and the checks with a message naming what failed."""

    def __init__(self, game: ModuleType) -> None:
        schemas = game.SCHEMAS
        self.options = jsonschema_rs.Draft202012Validator(schemas["options"])
        self.view = jsonschema_rs.Draft202012Validator(schemas["view"])
        self.commands = {k: jsonschema_rs.Draft202012Validator(s) for k, s in schemas["commands"].items()}
        self.events = {k: jsonschema_rs.Draft202012Validator(s) for k, s in schemas["events"].items()}

    def command(self, command: dict[str, Any]) -> None:
        assert command["type"] in self.commands, f"no schema for the command {command['type']!r}"
        _valid(self.commands[command["type"]], command, f"command {command}")

    def event(self, event: dict[str, Any], how: str) -> None:
        assert event["type"] in self.events, f"no schema for the event {event['type']!r}"
        _valid(self.events[event["type"]], event, f"{how} event {event}")


def _valid(validator: Any, value: Any, what: str) -> None:
    errors = [f"{'/'.join(map(str, e.instance_path))}: {e.message}" for e in validator.iter_errors(value)]
    assert not errors, f"{what[:400]} does not validate: {errors[:5]}"


@cache
def checker(game_id: str) -> Checker:
    return Checker(games.load(game_id))


def _sample(schema: dict[str, Any], rnd: random.Random) -> Any:
    """A value the schema allows, for the option kinds games use (enums, booleans, integers, lists)."""
    if "enum" in schema:
        return rnd.choice(schema["enum"])
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    kind = rnd.choice(kind) if isinstance(kind, list) else kind
    if kind == "boolean":
        return rnd.random() < 0.5
    if kind == "integer":
        return rnd.randint(schema.get("minimum", 0), schema.get("maximum", 5))
    if kind == "null":
        return None
    if kind == "array" and "enum" in schema.get("items", {}):
        size = rnd.randint(schema.get("minItems", 0), schema.get("maxItems", 3))
        values = schema["items"]["enum"]
        if schema.get("uniqueItems"):
            return rnd.sample(values, min(size, len(values)))
        return [rnd.choice(values) for _ in range(size)]
    if "anyOf" in schema or "oneOf" in schema:
        return _sample(rnd.choice(schema.get("anyOf") or schema["oneOf"]), rnd)
    return schema.get("default")


def random_options(game: ModuleType, seats: int, rnd: random.Random) -> dict[str, Any]:
    """Options setup accepts, each form field (not ``x-form: false``) set or left to its default."""
    fields = {k: s for k, s in game.SCHEMAS["options"]["properties"].items() if s.get("x-form", True)}
    for _ in range(20):
        options = {k: _sample(s, rnd) for k, s in fields.items() if rnd.random() < 0.7}
        try:
            game.setup(dict(options), seats, Rng(b"probe", "setup"))
        except InvalidOptions:
            continue
        return options
    return {}


def _seats(game: ModuleType, rnd: random.Random) -> int:
    return rnd.randint(game.INFO.min_seats, game.INFO.max_seats)


def check_game(game: ModuleType, index: int) -> None:
    """One seeded random game: every command listed, event made, view shown against the schemas."""
    check = checker(game.INFO.id)
    rnd = random.Random(index)
    seats = _seats(game, rnd)
    options = random_options(game, seats, rnd)
    _valid(check.options, options, f"options {options}")
    bots = [rnd.choice(["random", "default"]) for _ in range(seats)]
    match = play(game, bots, index.to_bytes(8, "big"), options)
    log_checks = set(rnd.sample(match.settled, min(LOG_CHECKS, len(match.settled))))
    state, done = None, 0
    for settled in match.settled:
        for event in match.events[done:settled]:
            check.event(event, "stored")
            state = game.evolve(state, event)
        if not game.is_over(state):
            shown = match.events[0 if settled in log_checks else done : settled]
            for seat in [None, *range(seats)]:
                _valid(check.view, game.view(state, seat), f"view of seat {seat}")
                for event in shown:
                    check.event(game.redact(state, event, seat), f"seat {seat}'s")
                for command in game.legal_actions(state, seat) if seat is not None else []:
                    check.command(command)
        done = settled
    for seat in [None, *range(seats)]:
        _valid(check.view, game.view(state, seat), f"final view of seat {seat}")


@pytest.mark.parametrize("game_id", games.known())
def test_schemas_are_valid_json_schema(game_id: str) -> None:
    schemas = _game(game_id).SCHEMAS
    assert set(schemas) == {"options", "commands", "events", "view"}
    parts = [schemas["options"], schemas["view"], *schemas["commands"].values(), *schemas["events"].values()]
    for schema in parts:
        assert jsonschema_rs.meta.is_valid(schema), schema
    for kind, schema in [*schemas["commands"].items(), *schemas["events"].items()]:
        assert schema["properties"]["type"] == {"const": kind}, f"{kind}: type must be const {kind!r}"
        assert "type" in schema["required"]


@pytest.mark.parametrize("game_id", games.known())
def test_every_option_is_described_with_a_default_in_three_languages(game_id: str) -> None:
    options = _game(game_id).SCHEMAS["options"]
    assert options["type"] == "object" and options["additionalProperties"] is False
    for key, option in options["properties"].items():
        for extension in ("x-names", "x-descriptions"):
            texts = option.get(extension, {})
            assert set(texts) == {"cs", "pl", "en"} and all(texts.values()), f"{key}: {extension}"
        assert "title" in option and "description" in option, key
        if option.get("x-form", True):
            assert "default" in option, f"{key} has no default"
        for value, names in option.get("x-value-names", {}).items():
            assert value in _enums(option) and set(names) == {"cs", "pl", "en"}, f"{key}: {value}"


def _enums(schema: Any) -> list[Any]:
    """Every value an ``enum`` anywhere in ``schema`` lists (an option's own, or its items')."""
    if isinstance(schema, list):
        return [v for s in schema for v in _enums(s)]
    if not isinstance(schema, dict):
        return []
    return list(schema.get("enum", [])) + [v for k, s in schema.items() if k != "enum" for v in _enums(s)]


@pytest.mark.parametrize("game_id", games.known())
def test_the_schema_defaults_are_the_ones_setup_applies(game_id: str) -> None:
    """``setup`` with every default spelled out deals the same game as with no options at all."""
    game = _game(game_id)
    properties = game.SCHEMAS["options"]["properties"]
    defaults = {k: s["default"] for k, s in properties.items() if "default" in s}
    seats = game.INFO.min_seats
    plain = game.setup({}, seats, Rng(b"defaults", "setup"))
    spelled = game.setup(dict(defaults), seats, Rng(b"defaults", "setup"))
    assert [_without_options(e) for e in plain] == [_without_options(e) for e in spelled]
    _valid(checker(game_id).options, defaults, "the defaults")


def _without_options(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "options"}


#: Values tried for every option: each kind of JSON value, the enum values and the defaults.
JUNK: list[Any] = [None, True, False, 0, 1, 2, 3, 4, -1, 1.5, "", "x", [], {}, [1, 2], ["a", "b"]]


@pytest.mark.parametrize("game_id", games.known())
def test_every_option_set_setup_accepts_validates(game_id: str) -> None:
    """Random option sets, most of them nonsense: each one ``setup`` accepts, the schema accepts."""
    game = _game(game_id)
    check = checker(game_id)
    rnd = random.Random(11)
    properties = game.SCHEMAS["options"]["properties"]
    values: dict[str, list[Any]] = {}
    for key, schema in properties.items():
        own = list(schema.get("enum", [])) + ([schema["default"]] if "default" in schema else [])
        items = schema.get("items", {})
        pairs = [list(p) for p in zip(items.get("enum", []), items.get("enum", [])[1:], strict=False)]
        values[key] = JUNK + own + pairs
    accepted = 0
    for _ in range(600):
        options = {k: rnd.choice(v) for k, v in values.items() if rnd.random() < 0.5}
        if rnd.random() < 0.05:
            options["no_such_option"] = True
        try:
            game.setup(dict(options), _seats(game, rnd), Rng(b"options", "setup"))
        except InvalidOptions:
            continue
        accepted += 1
        _valid(check.options, options, f"options {options} that setup accepts")
    assert accepted > 0


@pytest.mark.parametrize("game_id", games.known())
def test_random_games_follow_the_schemas(game_id: str) -> None:
    game = _game(game_id)
    for index in range(FAST_GAMES):
        check_game(game, index)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", games.known())
def test_thousands_of_random_games_follow_the_schemas(game_id: str) -> None:
    game = _game(game_id)
    for index in range(FAST_GAMES, FAST_GAMES + SLOW_GAMES):
        check_game(game, index)
