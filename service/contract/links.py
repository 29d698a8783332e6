"""OpenAPI links: how a client goes from a new game to its state, its legal actions and a move.

A created game's ``id`` opens its ``/state``, ``/actions``, ``/commands`` and ``/events``; each body
``/actions`` lists can be posted as it is to ``/commands`` (``requestBody``: the first one); a move
leads on to the new state, the next actions and the events it appended. Client generators and
Schemathesis' stateful tests follow them (``tests/platform/test_fuzz_stateful.py``).

The seat token the ``POST /games`` answer holds goes with every later call as
``Authorization: Bearer``, which OpenAPI lets no link carry (an ``Authorization`` header parameter
"SHALL be ignored"): the links say so in their descriptions.
"""

from __future__ import annotations

from typing import Any

from apispec import BasePlugin

GAME = "{game_id}"
SAME_SEAT = "with the same seat's bearer token"

#: A link: (target path under the game's, its method, description, from where the game id comes,
#: the request body or None).
Link = tuple[str, str, str, str, Any]

CREATED_ID = "$response.body#/id"
SAME_ID = f"$request.path.{GAME.strip('{}')}"

#: The links by source (flask endpoint, method, status).
LINKS: dict[tuple[str, str, str], dict[str, Link]] = {
    ("games.Games", "post", "201"): {
        "game": ("", "get", "The new game's summary", CREATED_ID, None),
        "state": ("/state", "get", f"The new game's state, {SAME_SEAT}", CREATED_ID, None),
        "actions": ("/actions", "get", f"What the seat may play first, {SAME_SEAT}", CREATED_ID, None),
        "play": ("/commands", "post", f"A move in the new game, {SAME_SEAT}", CREATED_ID, None),
        "events": ("/events", "get", f"The new game's log, {SAME_SEAT}", CREATED_ID, None),
    },
    ("games.Actions", "get", "200"): {
        "play": (
            "/commands",
            "post",
            f"Play a listed body as it is (here the first), {SAME_SEAT}",
            SAME_ID,
            "$response.body#/0",
        ),
    },
    ("games.Commands", "post", "201"): {
        "state": ("/state", "get", f"The state after the move, {SAME_SEAT}", SAME_ID, None),
        "actions": ("/actions", "get", f"What the seat may play next, {SAME_SEAT}", SAME_ID, None),
        "events": ("/events", "get", f"The events the game has appended, {SAME_SEAT}", SAME_ID, None),
    },
}


def game_path(path: str) -> str:
    """The path of the game an operation is about: ``/api/v1/games`` → ``/api/v1/games/{game_id}``."""
    if GAME in path:
        return path[: path.index(GAME) + len(GAME)]
    return f"{path}/{GAME}"


def operation_ref(path: str, method: str) -> str:
    """A JSON pointer to an operation of this document (RFC 6901: ``~`` and ``/`` escaped)."""
    return "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method


def links(path: str, table: dict[str, Link]) -> dict[str, Any]:
    """The link objects of one response."""
    out = {}
    for name, (target, method, description, game_id, body) in table.items():
        link: dict[str, Any] = {
            "operationRef": operation_ref(game_path(path) + target, method),
            "description": description,
            "parameters": {"game_id": game_id},
        }
        if body is not None:
            link["requestBody"] = body
            # Schemathesis: post the listed body as it is, not merged into a generated one.
            link["x-schemathesis"] = {"merge_body": False}
        out[name] = link
    return out


class Links(BasePlugin):
    """Adds :data:`LINKS` to the responses they start from."""

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        rule = kwargs.get("rule")
        if path is None or rule is None:
            return
        for method, operation in (operations or {}).items():
            for status, response in operation.get("responses", {}).items():
                table = LINKS.get((rule.endpoint, method, str(status)))
                if table and isinstance(response, dict):
                    response["links"] = links(path, table)
