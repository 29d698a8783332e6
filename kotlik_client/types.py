"""What the server answers, as typed dicts mirroring the OpenAPI components it serves.

Each ``TypedDict`` here types properties of the component named in its docstring, and only those
(``tests/platform/test_client.py`` checks them against the served ``/api/v1/openapi.json``), so a
type checker catches a client reading a field the server does not send. A field the server adds
later is still in the dict, untyped until it is added here. Game-specific parts (a
command, a view, an event's ``data``) stay ``dict[str, Any]``: their shape is the game's own JSON
Schema (``GET /catalog/{game}`` and ``<game>.Command``/``View``/``Event`` in the OpenAPI document).
"""

from __future__ import annotations

from typing import Any, TypedDict

#: A command body as ``/actions`` lists it and ``/commands`` takes it: ``type`` plus the game's fields.
Command = dict[str, Any]


class SeatRequest(TypedDict, total=False):
    """A seat asked for in ``POST /games``: a ``name``, and a ``bot`` name for a bot's seat."""

    name: str
    bot: str | None


class Seat(TypedDict):
    """Component ``Seat``."""

    seat: int
    name: str
    bot: str | None


class CreatedSeat(Seat):
    """Component ``CreatedSeat``: a human seat's bearer token, shown only when the game is created."""

    token: str | None


class Summary(TypedDict):
    """Component ``GameSummary``: the game as the lobby shows it."""

    id: str
    game: str
    status: str
    version: int
    rules_version: int
    options: dict[str, Any]
    arranged: bool
    seats: list[Seat]
    to_move: list[int]
    result: dict[str, Any] | None
    seed_sha256: str
    seed: str | None
    created_at: str
    updated_at: str


class CreatedGame(TypedDict):
    """Component ``CreatedGame``: the summary with each human seat's token."""

    id: str
    game: str
    status: str
    version: int
    rules_version: int
    options: dict[str, Any]
    arranged: bool
    seats: list[CreatedSeat]
    to_move: list[int]
    result: dict[str, Any] | None
    seed_sha256: str
    seed: str | None
    created_at: str
    updated_at: str


class State(TypedDict):
    """Component ``State``: the caller's view of the game at ``version``."""

    id: str
    version: int
    seat: int | None
    to_move: list[int]
    over: bool
    view: dict[str, Any]


class Event(TypedDict):
    """Component ``Event``: one event of the log as the caller may see it."""

    version: int
    type: str
    data: dict[str, Any]
    seat: int | None
    command: dict[str, Any] | None
    recorded_at: str


class Appended(TypedDict):
    """Component ``Appended``: a played command's new version, the events it caused and who moves
    next."""

    version: int
    events: list[Event]
    to_move: list[int]
    over: bool


class Problem(TypedDict, total=False):
    """Component ``Problem``: RFC 9457 problem details, the body of every error."""

    type: str
    title: str
    status: int
    detail: str
    errors: dict[str, Any]
    version: int
    limit: str


class Score(TypedDict):
    """Component ``Score``: the final breakdown per seat."""

    seats: list[dict[str, Any]]
    winners: list[int]
