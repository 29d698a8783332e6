"""A seat's ``GET /actions`` and ``POST /commands`` answered beneath Flask
get the very answer the app gives, headers included; what the layer cannot answer plainly reaches
the app, errors get the app's problems, nothing is played twice and the rate limits count once."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any
from uuid import uuid4

import orjson
import pytest
from werkzeug.test import Client, TestResponse

from service.api.fast import HotRoutes

ORIGIN = "https://client.example"
GAME = "kupferkessel"


def _layer(app: Any) -> HotRoutes:
    layer = app.wsgi_app
    while not isinstance(layer, HotRoutes):
        layer = layer.app
    return layer


@pytest.fixture(scope="module")
def app(pool: Any, broker: dict[str, str]) -> Any:
    from service.app import create_app

    return create_app(pool, TESTING=True, KOTLIK_RATE_LIMITS="off", KOTLIK_CORS_ORIGINS=ORIGIN)


@pytest.fixture
def passed(app: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The methods and paths of the requests to ``/actions`` and ``/commands`` that the layer handed
    on to the app."""
    layer = _layer(app)
    inner, seen = layer.app, []

    def counting(environ: dict[str, Any], start_response: Any) -> Any:
        if environ["PATH_INFO"].endswith(("/actions", "/commands")):
            seen.append(f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}")
        return inner(environ, start_response)

    monkeypatch.setattr(layer, "app", counting)
    yield seen


def _deck(app: Any) -> list[str]:
    cards = Client(app).get(f"/api/v1/catalog/{GAME}").json["cards"]
    return [c["id"] for c in reversed(cards)]


def _create(app: Any, deck: list[str] | None = None) -> dict[str, Any]:
    options = {"arranged": {"deck": deck}} if deck else {}
    seats = [{"name": "Ann"}, {"name": "Bob"}]
    reply = Client(app).post("/api/v1/games", json={"game": GAME, "seats": seats, "options": options})
    assert reply.status_code == 201, reply.json
    created: dict[str, Any] = reply.json
    return created


def _auth(game: dict[str, Any], seat: int, **more: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['seats'][seat]['token']}", **more}


def _to_move(app: Any, game: dict[str, Any]) -> int:
    seat: int = Client(app).get(f"/api/v1/games/{game['id']}").json["to_move"][0]
    return seat


def _log(app: Any, game: dict[str, Any]) -> list[Any]:
    events: list[Any] = Client(app).get(f"/api/v1/games/{game['id']}/events", headers=_auth(game, 0)).json
    return events


def _headers(response: TestResponse) -> list[tuple[str, str]]:
    """A response's headers but those the layers around the app give every answer, which the
    direct calls beneath them do not reach: its request id (each request has its own) and the
    security headers (:mod:`service.guard.headers`)."""
    return sorted((k, v) for k, v in response.headers.items() if k not in _AROUND)


_AROUND = {"X-Request-Id", "Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options"}


def _same(layered: TestResponse, direct: TestResponse) -> None:
    assert layered.status == direct.status
    assert _headers(layered) == _headers(direct)
    assert layered.data == direct.data


def _untimed(body: bytes) -> Any:
    """A 201's body without the moments its events were recorded at."""
    answer = orjson.loads(body)
    return {
        **answer,
        "events": [{k: v for k, v in e.items() if k != "recorded_at"} for e in answer["events"]],
    }


@pytest.mark.parametrize("headers", [{}, {"Origin": ORIGIN}, {"Origin": "https://elsewhere.example"}])
def test_a_seats_actions_are_answered_as_the_app_answers_them(
    app: Any, passed: list[str], headers: dict[str, str]
) -> None:
    game = _create(app)
    path = f"/api/v1/games/{game['id']}/actions"
    for seat in (0, 1):
        layered = Client(app).get(path, headers=_auth(game, seat, **headers))
        direct = Client(_layer(app).app).get(path, headers=_auth(game, seat, **headers))
        assert layered.status_code == 200 and layered.headers["ETag"] == f'"{game["version"]}"'
        _same(layered, direct)
    assert Client(app).get(path, headers=_auth(game, _to_move(app, game))).json  # the mover has moves
    assert passed == [f"GET {path}"] * 2  # the app's own answers only


@pytest.mark.parametrize(
    ("headers", "keyed", "forgetting"),
    [({}, False, False), ({"Origin": ORIGIN}, False, False), ({}, True, False), ({}, False, True)],
)
def test_a_command_is_answered_as_the_app_answers_it(
    app: Any, passed: list[str], headers: dict[str, str], keyed: bool, forgetting: bool
) -> None:
    """Two games dealt alike, one played through the layer and one through the app alone, move for
    move: the same 201s, headers and events; ``forgetting`` each game's state and tokens before
    each move, every one of them is as a game that another process made and played."""
    deck = _deck(app)
    layered_game, direct_game = _create(app, deck), _create(app, deck)
    for n in range(6):
        if forgetting:
            app.extensions["kotlik.caches"].forget()
        if keyed:
            headers = {"Idempotency-Key": f"move-{n}"}
        seat = _to_move(app, layered_game)
        command = (
            Client(app)
            .get(f"/api/v1/games/{layered_game['id']}/actions", headers=_auth(layered_game, seat))
            .json[-1]
        )
        command["expected_version"] = Client(app).get(f"/api/v1/games/{layered_game['id']}").json["version"]
        layered = Client(app).post(
            f"/api/v1/games/{layered_game['id']}/commands",
            json=command,
            headers=_auth(layered_game, seat, **headers),
        )
        direct = Client(_layer(app).app).post(
            f"/api/v1/games/{direct_game['id']}/commands",
            json=command,
            headers=_auth(direct_game, seat, **headers),
        )
        assert layered.status_code == 201, layered.json
        assert layered.status == direct.status
        assert _headers(layered) == _headers(direct)
        assert _untimed(layered.data) == _untimed(direct.data)
    assert not [p for p in passed if p.startswith("POST") and layered_game["id"] in p]
    logs = [_untimed(orjson.dumps({"events": _log(app, g)[1:]})) for g in (layered_game, direct_game)]
    assert logs[0] == logs[1]  # every event but the GameCreated, whose id differs


@pytest.mark.parametrize(
    ("body", "headers", "status"),
    [
        (b'{"type": "brew"}', {}, 401),  # no token
        (b'{"type": "brew"}', {"Authorization": "Bearer forged"}, 401),
        (b'{"type": "brew"}', {"Authorization": "Basic Zm9vOmJhcg=="}, 401),
        (b'{"type": "brew", "expected_version": "1"}', None, 409),  # the schema converts it: stale
        (b'{"type": "brew", "expected_version": -1}', None, 422),
        (b'{"type": ""}', None, 422),
        (b'{"type": "brew"', None, 400),  # malformed
        (b'["brew"]', None, 422),
        (b"type=brew", {"Content-Type": "application/x-www-form-urlencoded"}, 415),
        (b"", None, 422),
    ],
)
def test_what_the_layer_cannot_answer_reaches_the_app(
    app: Any, passed: list[str], body: bytes, headers: dict[str, str] | None, status: int
) -> None:
    game = _create(app)
    path = f"/api/v1/games/{game['id']}/commands"
    sent = {"Content-Type": "application/json", **(_auth(game, 0) if headers is None else headers)}
    layered = Client(app).post(path, data=body, headers=sent)
    direct = Client(_layer(app).app).post(path, data=body, headers=sent)
    assert layered.status_code == status, layered.json
    assert layered.headers["Content-Type"] == "application/problem+json"
    _same(layered, direct)
    assert passed == [f"POST {path}"] * 2
    assert len(_log(app, game)) == game["version"]


@pytest.mark.parametrize("length", ["²", "9" * 5000, "-1", " 15"])
def test_a_hostile_content_length_reaches_the_app(app: Any, passed: list[str], length: str) -> None:
    game = _create(app)
    path = f"/api/v1/games/{game['id']}/commands"
    reply = Client(app).post(
        path,
        data=b'{"type": "brew"}',
        headers=_auth(game, 0, **{"Content-Type": "application/json"}),
        environ_overrides={"CONTENT_LENGTH": length},
    )
    assert 400 <= reply.status_code < 500, reply.data
    assert passed == [f"POST {path}"]


def test_a_forged_token_for_a_game_this_process_does_not_know_is_refused(app: Any) -> None:
    """The seat asked with the game's first load here: a token of no seat is no seat there either,
    and nothing is appended."""
    game = _create(app)
    app.extensions["kotlik.caches"].forget()
    path, forged = f"/api/v1/games/{game['id']}", {"Authorization": "Bearer forged"}
    refused = Client(app).post(f"{path}/commands", json={"type": "brew"}, headers=forged)
    assert refused.status_code == 401 and refused.json["status"] == 401
    app.extensions["kotlik.caches"].forget()
    assert Client(app).get(f"{path}/actions", headers=forged).status_code == 401
    assert len(_log(app, game)) == game["version"]


def test_an_unknown_game_and_a_wrong_method_are_the_apps(app: Any, passed: list[str]) -> None:
    """A command to an unknown game is the app's 404 too: its error handlers answer it where the
    layer finds no game, as they answer every error of a command."""
    game = _create(app)
    unknown = f"/api/v1/games/{uuid4()}"
    assert Client(app).get(f"{unknown}/actions", headers=_auth(game, 0)).status_code == 404
    command = {"json": {"type": "brew"}, "headers": _auth(game, 0)}
    layered = Client(app).post(f"{unknown}/commands", **command)
    assert layered.status_code == 404
    _same(layered, Client(_layer(app).app).post(f"{unknown}/commands", **command))
    assert Client(app).post(f"/api/v1/games/{game['id']}/actions", headers=_auth(game, 0)).status_code == 405
    assert Client(app).get(f"/api/v1/games/{game['id']}/actions").json == []  # a spectator's
    assert passed == [
        f"GET {unknown}/actions",
        f"POST {unknown}/commands",  # the direct call's
        f"POST /api/v1/games/{game['id']}/actions",
        f"GET /api/v1/games/{game['id']}/actions",
    ]


@pytest.mark.parametrize(
    ("command", "stale", "status", "slug"),
    [
        ({"type": "nonsense"}, False, 422, "illegal-move"),
        (None, True, 409, "stale-version"),
    ],
)
def test_an_error_while_playing_is_the_apps_problem_and_appends_nothing(
    app: Any, passed: list[str], command: dict[str, Any] | None, stale: bool, status: int, slug: str
) -> None:
    game = _create(app)
    seat = _to_move(app, game)
    if command is None:
        command = Client(app).get(f"/api/v1/games/{game['id']}/actions", headers=_auth(game, seat)).json[0]
    if stale:
        command = {**command, "expected_version": game["version"] - 1}
    path = f"/api/v1/games/{game['id']}/commands"
    reply = Client(app).post(path, json=command, headers=_auth(game, seat, Origin=ORIGIN))
    assert reply.status_code == status and reply.json["type"].endswith(slug), reply.json
    assert reply.headers["Access-Control-Allow-Origin"] == ORIGIN  # the app's after-request hooks ran
    assert passed == []  # answered by the app's error handlers, not played again by its view
    assert len(_log(app, game)) == game["version"]


@pytest.mark.parametrize("through", ["layer", "app"])
def test_a_commands_work_for_the_bot_is_handed_to_the_broker_once_its_answer_is_sent(
    app: Any, pool: Any, through: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot's turn a command queues is committed with it and sent when the server closes the
    answer (after its last byte): not before, so the answer waits for no broker, and not left for
    the sweep."""
    import workers.relay

    handed: list[list[Any]] = []
    send = workers.relay.publish_task
    monkeypatch.setattr(
        workers.relay, "publish_task", lambda task, args: (handed.append(args), send(task, args))
    )
    seats = [{"name": "Ann"}, {"name": "Bot", "bot": "default"}]
    for _ in range(20):  # a deal where the human moves first
        with Client(app).post("/api/v1/games", json={"game": GAME, "seats": seats}) as created:
            game = created.json
        if _to_move(app, game) == 0:
            break
    assert _to_move(app, game) == 0
    path = f"/api/v1/games/{game['id']}"
    client = Client(app) if through == "layer" else Client(_layer(app).app)
    while True:  # the human's whole turn, which may be several commands
        command = Client(app).get(f"{path}/actions", headers=_auth(game, 0)).json[0]
        played = client.post(f"{path}/commands", json=command, headers=_auth(game, 0))
        assert played.status_code == 201
        if played.json["to_move"] != [0]:
            break
        played.close()
    mine = [args for args in handed if args[0] == game["id"]]
    assert not mine, "handed to the broker before the answer was sent"
    played.close()
    mine = [args for args in handed if args[0] == game["id"]]
    assert mine and mine[-1][-1] <= played.json["version"], handed
    # The human's work alone (its version is the task's last argument): a worker of the session may
    # already be playing the bot's turn, whose own work it hands over after its own commit.
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT sent_at FROM outbox WHERE args->>0 = %s AND (args->>-1)::int <= %s",
            (game["id"], played.json["version"]),
        ).fetchall()
    assert rows and all(r["sent_at"] is not None for r in rows), rows


def test_a_retried_command_is_played_once(app: Any, passed: list[str]) -> None:
    game = _create(app)
    seat = _to_move(app, game)
    command = Client(app).get(f"/api/v1/games/{game['id']}/actions", headers=_auth(game, seat)).json[0]
    path = f"/api/v1/games/{game['id']}/commands"
    first, again = (
        Client(app).post(path, json=command, headers=_auth(game, seat, **{"Idempotency-Key": "once"}))
        for _ in range(2)
    )
    assert first.status_code == again.status_code == 201
    assert "Idempotent-Replayed" not in first.headers and again.headers["Idempotent-Replayed"] == "true"
    assert orjson.loads(first.data) == orjson.loads(again.data)
    assert len(_log(app, game)) == first.json["version"]
    assert passed == []


# Rate limits: an app of its own with small limits, in hour windows (so that none ends mid-test),
# its counters in its own memory.
LIMITS = "games=1000/second,commands=2/hour,writes=1000/second,unauthorized=2/hour"


@pytest.fixture
def limited_app(pool: Any, broker: dict[str, str]) -> Any:
    from service.app import create_app

    return create_app(pool, TESTING=True, KOTLIK_RATE_LIMITS=LIMITS, KOTLIK_RATE_LIMIT_STORAGE="memory://")


def test_commands_played_beneath_flask_count_once_against_the_limits(limited_app: Any) -> None:
    game = _create(limited_app)
    path = f"/api/v1/games/{game['id']}"
    played: Counter[int] = Counter()
    while True:
        seat = _to_move(limited_app, game)
        action = Client(limited_app).get(f"{path}/actions", headers=_auth(game, seat)).json[0]
        reply = Client(limited_app).post(f"{path}/commands", json=action, headers=_auth(game, seat))
        if played[seat] == 2:
            assert reply.status_code == 429 and reply.json["limit"] == "commands", reply.json
            break
        assert reply.status_code == 201, (played, reply.json)
        played[seat] += 1
    assert len(_log(limited_app, game)) == Client(limited_app).get(path).json["version"]


def test_wrong_tokens_are_refused_beneath_flask_too_yet_a_seat_plays_on(app: Any, limited_app: Any) -> None:
    """Past the address's limit a wrong token is 429 on the routes answered beneath Flask as on the
    others; the seat's own valid token from the same address is never refused for them."""
    game = _create(limited_app)
    path = f"/api/v1/games/{game['id']}"
    forged = [{"Authorization": f"Bearer forged-{n}"} for n in range(3)]
    client = Client(limited_app)
    statuses = [client.post(f"{path}/commands", json={"type": "brew"}, headers=h) for h in forged]
    assert [r.status_code for r in statuses] == [401, 401, 429], [r.json for r in statuses]
    assert statuses[-1].json["limit"] == "unauthorized" and int(statuses[-1].headers["Retry-After"]) >= 1
    assert Client(limited_app).get(f"{path}/actions", headers=_auth(game, 0)).status_code == 200
    reply = Client(limited_app).post(f"{path}/commands", json={"type": "brew"}, headers=_auth(game, 0))
    assert reply.status_code in (409, 422), reply.json
    assert len(_log(app, game)) == game["version"]  # read where no limit shuts it out
