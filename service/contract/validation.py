"""Request bodies checked against each game's JSON Schemas (``games/<id>/schemas.py``).

A command or an options object the game's schema refuses is refused before the rules see it, so
a client gets the answer its own validation (generated from the same schemas) gives, with the
field named. The answer is the one the rules gave such bodies before the schemas existed (422
``illegal-move`` or ``invalid-options``), now with the field errors in ``errors.json`` as for any
invalid body. Nothing is appended. Validators are compiled once per game and rules version
(jsonschema-rs: draft 2020-12 in native code, so the check adds next to nothing to a command;
figures: docs/performance.md, "Figures formerly quoted in the code"). A game without ``SCHEMAS``
is not checked here; its rules still refuse what they refuse.

A command is checked inside the write path (``commands.play(check=...)``) just before the rules
decide it, against the schemas of the rules version its game is played by: the errors that came
before the rules (a stale version, a game over, a reused idempotency key) keep coming first, a
seat that may not act gets the rules' 409 whatever it sends, and the check reads nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import islice
from typing import Any

import jsonschema_rs
from flask import Flask, Response

import games
from games.interface import IllegalMove, InvalidOptions, Rules
from service.contract import problems

#: A body is refused with at most this many field errors, each at most this long.
MAX_ERRORS = 20
MAX_MESSAGE = 300


class CommandRefused(IllegalMove):
    """A command its game's schema refuses; ``errors`` names the fields as webargs does."""

    def __init__(self, errors: dict[str, Any]) -> None:
        super().__init__(_describe(errors))
        self.errors = {"json": errors}


class OptionsRefused(InvalidOptions):
    """Options their game's schema refuses; ``errors`` names the fields under ``options``."""

    def __init__(self, errors: dict[str, Any]) -> None:
        super().__init__(_describe(errors))
        self.errors = {"json": errors}


@dataclass(frozen=True)
class Validators:
    """A game's compiled validators; ``None``/empty where the game has no schemas."""

    options: Any
    commands: dict[str, Any]


@cache
def validators(game_id: str, rules_version: int | None = None) -> Validators:
    """The compiled validators of a game's rules (the newest, or those of ``rules_version``)."""
    schemas = games.load(game_id, rules_version).SCHEMAS
    if schemas is None:
        return Validators(None, {})
    return Validators(
        jsonschema_rs.Draft202012Validator(schemas["options"]),
        {kind: jsonschema_rs.Draft202012Validator(s) for kind, s in schemas["commands"].items()},
    )


def check_options(game_id: str, options: Any) -> None:
    """Raise :class:`OptionsRefused` if the game's options schema refuses ``options``; an unknown
    game is left to the caller."""
    try:
        validator = validators(game_id).options
    except games.UnknownGame:
        return
    if validator is not None and not validator.is_valid(options):
        raise OptionsRefused(_errors(validator, options, ["options"]))


def check_command(rules: Rules, state: Any, seat: int, command: dict[str, Any]) -> None:
    """Raise :class:`CommandRefused` if the schema of the command's ``type`` refuses it (a
    :data:`commands.handlers.Check`)."""
    commands = validators(rules.INFO.id, rules.INFO.rules_version).commands
    if not commands or seat not in rules.to_move(state):
        return
    validator = commands.get(command["type"])
    if validator is None:
        known = ", ".join(commands)
        raise CommandRefused({"type": [f"unknown command {command['type']!r}; the commands are {known}"]})
    if not validator.is_valid(command):
        raise CommandRefused(_errors(validator, command, []))


def register(app: Flask) -> None:
    """Answer refusals as the rules' own errors of the same kind, with ``errors`` added."""
    for refusal, kind_of in ((CommandRefused, IllegalMove), (OptionsRefused, InvalidOptions)):
        status, slug, title = problems.STATUS[kind_of]
        app.register_error_handler(refusal, _handler(status, slug, title))


def _handler(status: int, slug: str, title: str) -> Any:
    def handle(error: CommandRefused | OptionsRefused) -> Response:
        return problems.problem(status, title, error.reason, slug, errors=error.errors)

    return handle


def _errors(validator: Any, value: Any, prefix: list[str]) -> dict[str, Any]:
    """Every error by the path of the field it is about: ``{"steps": ["..."]}``."""
    errors: dict[str, Any] = {}
    for error in islice(validator.iter_errors(value), MAX_ERRORS):
        path, message = [*prefix, *error.instance_path], error.message
        # A missing or unknown field is reported at that field, as marshmallow does.
        if isinstance(error.kind, jsonschema_rs.ValidationErrorKind.Required):
            path, message = [*path, error.kind.property], "Missing data for required field."
        elif isinstance(error.kind, jsonschema_rs.ValidationErrorKind.AdditionalProperties):
            for unexpected in error.kind.unexpected:
                _at(errors, [*path, unexpected], "Unknown field.")
            continue
        _at(errors, path, message)
    return _flatten(errors)  # type: ignore[no-any-return]


def _at(errors: dict[str, Any], path: list[Any], message: str) -> None:
    if len(message) > MAX_MESSAGE:  # a message quotes the value, which may be 256 kB long
        message = message[: MAX_MESSAGE - 1] + "…"
    node = errors
    for step in path:
        node = node.setdefault(str(step), {})
    node.setdefault("_schema", []).append(message)


def _flatten(errors: dict[str, Any]) -> Any:
    """``{"_schema": [...]}`` alone becomes the list, as marshmallow reports a field's errors."""
    if set(errors) == {"_schema"}:
        return errors["_schema"]
    return {k: (v if k == "_schema" else _flatten(v)) for k, v in errors.items()}


def _describe(errors: Any, path: str = "") -> str:
    """The field errors as one line for ``detail``: ``steps: "two" is not of type "integer"``."""
    if isinstance(errors, dict):
        return "; ".join(
            _describe(v, path if k == "_schema" else f"{path}.{k}".lstrip(".")) for k, v in errors.items()
        )
    return f"{path}: {' '.join(errors)}" if path else " ".join(errors)
