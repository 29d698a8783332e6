"""A small JSON-over-HTTP client for the end-to-end tests: real requests on a loopback socket."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import games
from games.rng import Rng


class Headers(dict[str, str]):
    """A response's headers, looked up whatever the case of their names: HTTP names are
    case-insensitive, and a proxy (HAProxy) sends them in lower case."""

    def __init__(self, pairs: Any) -> None:
        super().__init__((name.lower(), value) for name, value in dict(pairs).items())

    def __getitem__(self, name: str) -> str:
        return super().__getitem__(name.lower())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and super().__contains__(name.lower())

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        return super().get(name.lower(), default)


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: Any
    raw: bytes = b""

    @property
    def problem(self) -> dict[str, Any]:
        assert self.headers.get("Content-Type", "").startswith("application/problem+json"), self
        return dict(self.body)


@dataclass
class Client:
    base: str
    token: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    #: When a list, every (method, path, reply) this client and its seats get is appended to it
    #: (``tests/platform/test_openapi_document.py`` checks them against the OpenAPI document).
    seen: list[tuple[str, str, Reply]] | None = None

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 90,
    ) -> Reply:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        for name, value in {**self.extra, **(headers or {})}.items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                reply = _reply(response.status, dict(response.headers), response.read())
        except urllib.error.HTTPError as error:
            reply = _reply(error.code, dict(error.headers), error.read())
        if self.seen is not None:
            self.seen.append((method, path, reply))
        return reply

    def get(self, path: str, **kw: Any) -> Reply:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> Reply:
        return self.request("POST", path, body, **kw)

    def seat(self, token: str | None) -> Client:
        return Client(self.base, token, dict(self.extra), self.seen)


def _reply(status: int, headers: dict[str, str], raw: bytes) -> Reply:
    headers = Headers(headers)
    kind = headers.get("Content-Type", "")
    parsed = "json" in kind and "ndjson" not in kind  # JSON Lines (an export) stays in ``raw``
    body = json.loads(raw) if raw and parsed else raw.decode(errors="replace")
    return Reply(status, headers, body, raw)


def events_until(stream: Any, upto: int) -> list[dict[str, Any]]:
    """The events of an open server-sent-events response, read until version ``upto``."""
    events: list[dict[str, Any]] = []
    while not events or events[-1]["version"] < upto:
        line = stream.readline().decode()
        if line.startswith("data: ") and line.strip() != "data: {}":
            events.append(json.loads(line[6:]))
    return events


def streamed(client: Client, path: str, last: int) -> list[dict[str, Any]]:
    """The game at ``path``'s events from the first, as ``client``'s seat streams them, to ``last``."""
    headers = {"Last-Event-ID": "0", **({"Authorization": f"Bearer {client.token}"} if client.token else {})}
    request = urllib.request.Request(client.base + path + "/stream", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as stream:
        return events_until(stream, last)


def game_path(game: dict[str, Any], rest: str = "") -> str:
    """A game's URL path, ``rest`` appended (``/state``, ``/commands?...``)."""
    return f"/api/v1/games/{game['id']}{rest}"


def create(
    api: Client, game: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None
) -> dict[str, Any]:
    reply = api.post("/api/v1/games", {"game": game, "seats": seats, "options": options or {}})
    assert reply.status == 201, reply
    return dict(reply.body)


#: Seconds a game may stand still waiting on the worker (a bot's turn, its scoring) before
#: :func:`play_to_end` gives up: a task that is never delivered fails the test in a minute.
STALL_S = 60


def moves(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rules' moves among a seat's ``/actions``: the platform's ``undo`` is offered beside them,
    and a client that plays on (a bot, a test's player) never takes one."""
    return [a for a in actions if a != {"type": "undo"}]


def play_to_end(api: Client, game: dict[str, Any], seed: int, deadline_s: float = 600) -> dict[str, Any]:
    """Play every human seat until the game is finished, choosing from ``/state`` and ``/actions``
    as the game's own ``random`` bot does (a uniform pick among bodies can stall a game for ever:
    Škoda kouzla offers 21 ways to swap shop cards and one to end the phase).

    Bot seats are moved by the worker; the humans wait for them with the long-poll.
    """
    choose = games.load(game["game"]).BOTS["random"]
    rng = Rng(str(seed).encode(), "e2e client")
    clients = {s["seat"]: api.seat(s["token"]) for s in game["seats"] if s["token"]}
    path = f"/api/v1/games/{game['id']}"
    deadline = time.monotonic() + deadline_s
    version, moved_at = -1, time.monotonic()
    answered: dict[str, Any] = {"version": -1}
    while time.monotonic() < deadline:
        summary = api.get(path).body
        if answered["version"] == summary["version"]:  # no bot or scoring in between: the 201 said who moves
            over = summary["status"] != "active"
            assert (answered["to_move"], answered["over"]) == ([] if over else summary["to_move"], over)
        if summary["status"] == "finished":
            return dict(summary)
        if summary["version"] != version:
            version, moved_at = summary["version"], time.monotonic()
        humans = [s for s in summary["to_move"] if s in clients]
        if not humans:
            waited = time.monotonic() - moved_at
            assert waited < STALL_S, f"no bot move or scoring in {waited:.0f} s: {summary}"
            api.get(f"{path}/state?wait=10", headers={"If-None-Match": f'"{summary["version"]}"'})
            continue
        client = clients[humans[0]]
        view = client.get(f"{path}/state").body
        actions = moves(client.get(f"{path}/actions").body)
        assert actions, f"seat {humans[0]} is to move but has no legal action"
        if view["version"] != summary["version"]:
            continue
        command = {**choose(view["view"], actions, rng), "expected_version": summary["version"]}
        reply = client.post(f"{path}/commands", command)
        assert reply.status == 201, (command, reply)
        answered = reply.body
    raise AssertionError(f"game {game['id']} did not finish in {deadline_s}s: {api.get(path).body}")
