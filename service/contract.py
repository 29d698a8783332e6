"""Request bodies checked against each game's JSON Schemas (``games/<id>/schemas.py``).

A command or an options object the game's schema refuses is a 422 with field errors before the
rules see it, so every client gets the same answer a generated client's own validation gives, and
nothing is appended. The validators are compiled once per game (jsonschema-rs: draft 2020-12,
compiled to native code; a command costs a few microseconds). A game without ``SCHEMAS`` is not
checked here; its rules still refuse what they refuse.

A command is checked against the schemas of the rules version its game is played by. The command
endpoint does not know a game's kind until it reads the game's row, which happens inside the write
transaction; a game's kind and rules version never change, so they are remembered per game id and
the check costs no query once a process has seen the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any
from uuid import UUID

import jsonschema_rs
from marshmallow import ValidationError
from psycopg import Connection

import games
from projections.lobby import GameNotFound

#: How many game ids' kinds a process remembers (about 100 bytes each); past it, it starts over.
KINDS_KEPT = 50_000
_kinds: dict[UUID, tuple[str, int]] = {}


@dataclass(frozen=True)
class Validators:
    """A game's compiled validators; ``None``/empty where the game has no schemas."""

    options: Any
    commands: dict[str, Any]


@cache
def validators(game_id: str, rules_version: int | None = None) -> Validators:
    """The compiled validators of a game's rules (the newest, or those of ``rules_version``)."""
    schemas = getattr(games.load(game_id, rules_version), "SCHEMAS", None)
    if schemas is None:
        return Validators(None, {})
    return Validators(
        jsonschema_rs.Draft202012Validator(schemas["options"]),
        {kind: jsonschema_rs.Draft202012Validator(s) for kind, s in schemas["commands"].items()},
    )


def check_options(game_id: str, options: Any) -> None:
    """Refuse (422) options the game's options schema refuses; an unknown game is left to the caller."""
    try:
        validator = validators(game_id).options
    except games.UnknownGame:
        return
    if validator is not None:
        _check(validator, options, "options")


def check_command(conn: Connection[Any], game_id: UUID, command: dict[str, Any]) -> None:
    """Refuse (422) a command body the game's schema for its ``type`` refuses."""
    commands = validators(*kind(conn, game_id)).commands
    if not commands:
        return
    validator = commands.get(command["type"])
    if validator is None:
        known = ", ".join(commands)
        raise ValidationError(
            {"json": {"type": [f"unknown command {command['type']!r}; the commands are {known}"]}}
        )
    _check(validator, command, None)


def kind(conn: Connection[Any], game_id: UUID) -> tuple[str, int]:
    """The kind of game ``game_id`` is and the rules version it is played by; ``GameNotFound``."""
    known = _kinds.get(game_id)
    if known is not None:
        return known
    row = conn.execute("SELECT game, rules_version FROM games WHERE id = %s", (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(game_id)
    found = (str(row["game"]), int(row["rules_version"]))
    if len(_kinds) >= KINDS_KEPT:
        _kinds.clear()
    _kinds[game_id] = found
    return found


def _check(validator: Any, value: Any, field: str | None) -> None:
    if validator.is_valid(value):
        return
    errors: dict[str, Any] = {}
    for error in validator.iter_errors(value):
        path, message = [field, *error.instance_path] if field else list(error.instance_path), error.message
        # A missing or unknown field is reported at that field, as marshmallow does.
        if isinstance(error.kind, jsonschema_rs.ValidationErrorKind.Required):
            path, message = [*path, error.kind.property], "Missing data for required field."
        elif isinstance(error.kind, jsonschema_rs.ValidationErrorKind.AdditionalProperties):
            for unexpected in error.kind.unexpected:
                _at(errors, [*path, unexpected], "Unknown field.")
            continue
        _at(errors, path, message)
    raise ValidationError({"json": _flatten(errors)})


def _at(errors: dict[str, Any], path: list[Any], message: str) -> None:
    node = errors
    for step in path:
        node = node.setdefault(str(step), {})
    node.setdefault("_schema", []).append(message)


def _flatten(errors: dict[str, Any]) -> Any:
    """``{"_schema": [...]}`` alone becomes the list, as marshmallow reports a field's errors."""
    if set(errors) == {"_schema"}:
        return errors["_schema"]
    return {k: (v if k == "_schema" else _flatten(v)) for k, v in errors.items()}
