"""The REST contract through real HTTP on a real database: every path, every bad input.

Kupferkessel (two seats, both human here) carries these tests; nothing in them depends on its
rules beyond what ``/actions`` says. Every refused request is checked to leave the log untouched.
"""

from __future__ import annotations

import hashlib
import json
import threading
from typing import Any
from uuid import UUID

import pytest
from httpclient import Client, create, game_path, play_to_end

from audit.stored import verify

GAME = "kupferkessel"
HUMANS = [{"name": "Alice"}, {"name": "Bob"}]


@pytest.fixture(scope="module")
def api(live_url: str) -> Client:
    return Client(live_url)


@pytest.fixture
def game(api: Client) -> dict[str, Any]:
    return create(api, GAME, HUMANS)


def _mover(api: Client, game: dict[str, Any]) -> tuple[Client, Client, int]:
    """The client of the seat to move, the other seat's client, and the version."""
    summary = api.get(game_path(game)).body
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    seat = summary["to_move"][0]
    return api.seat(tokens[seat]), api.seat(tokens[1 - seat]), summary["version"]


def _log(api: Client, game: dict[str, Any]) -> list[Any]:
    tokens = [s["token"] for s in game["seats"]]
    return [api.seat(t).get(game_path(game, "/events")).body for t in [None, *tokens]]


def test_create_shows_each_token_once_and_hides_them_after(api: Client, game: dict[str, Any]) -> None:
    assert game["status"] == "active" and game["version"] >= 2
    assert all(s["token"] for s in game["seats"])
    summary = api.get(game_path(game)).body
    assert "token" not in json.dumps(summary["seats"])
    assert summary["seed"] is None and len(summary["seed_sha256"]) == 64
    assert summary["to_move"] == [0]


def test_lobby_filters_and_paginates(api: Client, game: dict[str, Any]) -> None:
    reply = api.get(f"/api/v1/games?game={GAME}&status=active&page_size=1")
    assert reply.status == 200 and len(reply.body) == 1
    assert json.loads(reply.headers["X-Pagination"])["total"] >= 1
    assert api.get("/api/v1/games?game=nosuchgame").body == []
    assert api.get("/api/v1/games?status=sleeping").status == 422


def test_the_lobby_status_filter_lists_only_games_of_that_status(api: Client, pool: Any) -> None:
    """A game played to its end waits for scoring (no worker here); ``?status=`` tells it apart."""
    import commands
    from games import load
    from games.rng import Rng
    from projections import lobby
    from projections.fold import state_at as fold

    rules = load(GAME)
    running, ended = create(api, GAME, HUMANS)["id"], create(api, GAME, HUMANS)["id"]
    with pool.connection() as conn:
        row = lobby.get(conn, UUID(ended))
        while row.status == "active":
            state, seat = fold(conn, row.id, rules).state, row.to_move[0]
            actions = rules.legal_actions(state, seat)
            command = rules.BOTS["random"](rules.view(state, seat), actions, Rng(b"s", f"v{row.version}"))
            commands.play(conn, row.id, seat, command)
            row = lobby.get(conn, row.id)
    listed = {
        status: {g["id"]: g["status"] for g in api.get(f"/api/v1/games?status={status}&page_size=100").body}
        for status in ("active", "scoring")
    }
    assert running in listed["active"] and ended not in listed["active"]
    assert ended in listed["scoring"] and running not in listed["scoring"]
    assert set(listed["active"].values()) == {"active"} and set(listed["scoring"].values()) == {"scoring"}


def test_views_are_per_seat_and_spectators_need_no_token(api: Client, game: dict[str, Any]) -> None:
    tokens = [s["token"] for s in game["seats"]]
    spectator = api.get(game_path(game, "/state"))
    assert spectator.status == 200 and spectator.body["seat"] is None
    assert spectator.headers["ETag"] == f'"{game["version"]}"'
    mine = api.seat(tokens[0]).get(game_path(game, "/state")).body
    assert mine["seat"] == 0
    assert api.seat(tokens[1]).get(game_path(game, "/state")).body["seat"] == 1
    assert api.seat(tokens[0]).get(game_path(game, "/actions")).body
    assert api.seat(tokens[1]).get(game_path(game, "/actions")).body == []
    assert api.get(game_path(game, "/actions")).body == []


def test_etag_and_long_poll(api: Client, game: dict[str, Any]) -> None:
    version = game["version"]
    same = api.get(game_path(game, "/state"), headers={"If-None-Match": f'"{version}"'})
    assert same.status == 304
    # One version, a view per seat: a cache must key the ETag by the token too.
    for path in ("/state", "/actions", "/events"):
        assert "Authorization" in api.get(game_path(game, path)).headers["Vary"], path
    assert "Authorization" in same.headers["Vary"]
    nothing_new = api.get(game_path(game, f"/state?wait=1&since={version}"))
    assert nothing_new.status == 304
    assert api.seat("forged").get(game_path(game, f"/state?wait=20&since={version}")).status == 401
    mover, other, _ = _mover(api, game)
    command = mover.get(game_path(game, "/actions")).body[0]
    waiting = {"spectator": api, "mover": mover, "other": other}
    seen: dict[str, Any] = {}

    def wait(name: str) -> None:
        seen[name] = waiting[name].get(game_path(game, f"/state?wait=20&since={version}"))

    waiters = [threading.Thread(target=wait, args=(name,)) for name in waiting]
    for waiter in waiters:
        waiter.start()
    assert mover.post(game_path(game, "/commands"), command).status == 201
    for waiter in waiters:
        waiter.join(timeout=30)
    # Each long-poll answers with its caller's own view, as GET /state does.
    for name, client in waiting.items():
        assert seen[name].status == 200 and seen[name].body["version"] > version, name
        assert seen[name].body == client.get(game_path(game, "/state")).body, name
    assert seen["spectator"].body["seat"] is None
    assert {seen["mover"].body["seat"], seen["other"].body["seat"]} == {0, 1}


def test_replay_at_a_version(api: Client, game: dict[str, Any]) -> None:
    start = api.get(game_path(game, "/state")).body
    mover, _, _ = _mover(api, game)
    assert (
        mover.post(game_path(game, "/commands"), mover.get(game_path(game, "/actions")).body[0]).status == 201
    )
    now = api.get(game_path(game, "/state")).body
    assert now["version"] > start["version"]
    replayed = api.get(game_path(game, f"/state?at={start['version']}")).body
    assert {**replayed, "view": None} == {**start, "view": None}
    # The game runs, so the replay keeps the memory rule: a pawn that has walked on since is at null
    # (the walk's length is a card's value); the first command took no card, so all else is as then.
    pawns = [
        p if p["position"] == q["position"] else {**p, "position": None, "beside": None}
        for p, q in zip(start["view"]["pawns"], now["view"]["pawns"], strict=True)
    ]
    assert replayed["view"] == {**start["view"], "pawns": pawns}


def test_commands_append_and_answer_with_the_new_version(api: Client, game: dict[str, Any]) -> None:
    mover, _, version = _mover(api, game)
    command = mover.get(game_path(game, "/actions")).body[0]
    reply = mover.post(game_path(game, "/commands"), {**command, "expected_version": version})
    assert reply.status == 201
    assert reply.body["version"] > version
    assert [e["version"] for e in reply.body["events"]] == list(range(version + 1, reply.body["version"] + 1))
    assert api.get(game_path(game)).body["version"] == reply.body["version"]


def test_a_command_answer_names_who_moves_next(api: Client, game: dict[str, Any]) -> None:
    """The 201 says who is to move now, as ``/state`` does, so a client knows whether to play again
    without asking, through turns that pass from one seat to the other."""
    movers = set()
    for _ in range(40):
        mover, _, _ = _mover(api, game)
        reply = mover.post(game_path(game, "/commands"), mover.get(game_path(game, "/actions")).body[0])
        assert reply.status == 201
        state = api.get(game_path(game, "/state")).body
        assert state["version"] == reply.body["version"]
        assert (reply.body["to_move"], reply.body["over"]) == (state["to_move"], state["over"])
        movers.add(tuple(reply.body["to_move"]))
        if {(0,), (1,)} <= movers:
            return
    pytest.fail("forty commands and the turn never moved between the seats")


def test_two_concurrent_commands_at_one_version(api: Client, game: dict[str, Any]) -> None:
    mover, _, version = _mover(api, game)
    actions = mover.get(game_path(game, "/actions")).body
    barrier = threading.Barrier(2)
    replies: list[Any] = []

    def send(command: dict[str, Any]) -> None:
        barrier.wait()
        replies.append(mover.post(game_path(game, "/commands"), {**command, "expected_version": version}))

    threads = [threading.Thread(target=send, args=(actions[i % len(actions)],)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status for r in replies) == [201, 409]
    loser = next(r for r in replies if r.status == 409)
    assert loser.problem["title"] == "Stale version"


def test_idempotency_key_retry_appends_nothing(api: Client, game: dict[str, Any]) -> None:
    mover, _, _ = _mover(api, game)
    command = mover.get(game_path(game, "/actions")).body[0]
    key = {"Idempotency-Key": "retry-me-1"}
    first = mover.post(game_path(game, "/commands"), command, headers=key)
    log = _log(api, game)
    again = mover.post(game_path(game, "/commands"), command, headers=key)
    assert first.status == again.status == 201
    assert again.body == first.body and again.headers.get("Idempotent-Replayed") == "true"
    assert _log(api, game) == log
    other = mover.post(game_path(game, "/commands"), {"type": "something-else"}, headers=key)
    assert other.status == 422 and other.problem["title"] == "Idempotency-Key reused"
    assert _log(api, game) == log


def test_an_idempotency_key_out_of_its_documented_bounds_is_a_400(api: Client, game: dict[str, Any]) -> None:
    """The document bounds the key to 1..200 characters; an empty or longer one was taken (found by
    Schemathesis' negative_data_rejection): now it is refused before anything is played."""
    mover, _, _ = _mover(api, game)
    command = mover.get(game_path(game, "/actions")).body[0]
    log = _log(api, game)
    for key in ("", "k" * 201):
        reply = mover.post(game_path(game, "/commands"), command, headers={"Idempotency-Key": key})
        assert reply.status == 400 and "Idempotency-Key" in reply.problem["detail"], (len(key), reply)
    assert _log(api, game) == log
    longest = mover.post(game_path(game, "/commands"), command, headers={"Idempotency-Key": "k" * 200})
    assert longest.status == 201, longest


def test_an_idempotency_key_binds_the_whole_command_and_belongs_to_its_seat(
    api: Client, game: dict[str, Any]
) -> None:
    """The same command in another key order is the same command; one field more is another (422,
    not a replay of the first); and another seat's key of the same name is its own."""
    mover, _, _ = _mover(api, game)
    command = mover.get(game_path(game, "/actions")).body[0]
    key = {"Idempotency-Key": "turn-1"}
    first = mover.post(game_path(game, "/commands"), command, headers=key)
    assert first.status == 201, first
    log = _log(api, game)
    reordered = dict(reversed(list(command.items())))
    again = mover.post(game_path(game, "/commands"), reordered, headers=key)
    assert again.status == 201 and again.headers.get("Idempotent-Replayed") == "true", again
    assert again.body == first.body
    for changed in ({**command, "note": "a field more"}, {**command, "type": f"{command['type']}!"}):
        reply = mover.post(game_path(game, "/commands"), changed, headers=key)
        assert reply.status == 422 and reply.problem["type"].endswith("/idempotency-key-reused"), reply
    assert _log(api, game) == log
    # The other seat, once it is to move, sends its own command under the same key: played.
    for _ in range(50):  # a turn may be several moves; the first seat ends its own
        nxt, _, _ = _mover(api, game)
        if nxt.token != mover.token:
            break
        assert (
            mover.post(game_path(game, "/commands"), mover.get(game_path(game, "/actions")).body[0]).status
            == 201
        )
    assert nxt.token != mover.token, "the other seat never came to move"
    own = nxt.get(game_path(game, "/actions")).body[0]
    theirs = nxt.post(game_path(game, "/commands"), own, headers=key)
    assert theirs.status == 201 and theirs.headers.get("Idempotent-Replayed") is None, theirs
    assert theirs.body["version"] > first.body["version"]
    # Each key still answers for its own seat.
    replayed = mover.post(game_path(game, "/commands"), command, headers=key)
    assert replayed.headers.get("Idempotent-Replayed") == "true", replayed
    assert replayed.body["version"] == first.body["version"], replayed


def _refused(api: Client, game: dict[str, Any], reply: Any, status: int, log: list[Any]) -> dict[str, Any]:
    assert reply.status == status, reply
    problem = reply.problem
    assert problem["status"] == status and problem["title"]
    assert _log(api, game) == log, "a refused request changed the event log"
    return problem


def test_bad_commands_get_a_clear_error_and_append_nothing(api: Client, game: dict[str, Any]) -> None:
    mover, waiting, version = _mover(api, game)
    path = game_path(game, "/commands")
    legal = mover.get(game_path(game, "/actions")).body
    log = _log(api, game)
    _refused(api, game, mover.post(path, raw=b"{not json"), 400, log)
    _refused(api, game, mover.post(path, {"no": "type"}), 422, log)
    _refused(api, game, mover.post(path, [1, 2]), 422, log)
    _refused(api, game, api.post(path, legal[0]), 401, log)
    _refused(api, game, api.seat("forged-token").post(path, legal[0]), 401, log)
    other = create(api, GAME, HUMANS)
    _refused(api, game, api.seat(other["seats"][0]["token"]).post(path, legal[0]), 401, log)
    _refused(api, game, api.post(path, legal[0], headers={"Authorization": "Basic abc"}), 401, log)
    not_yours = _refused(api, game, waiting.post(path, legal[0]), 409, log)
    assert not_yours["title"] == "Not your turn"
    stale = _refused(api, game, mover.post(path, {**legal[0], "expected_version": version - 1}), 409, log)
    assert stale["version"] == version
    unknown = _refused(api, game, mover.post(path, {"type": "fly-to-the-moon"}), 422, log)
    assert unknown["title"] == "Illegal move" and unknown["detail"]
    with_fields = next((a for a in legal if len(a) > 1), None)
    if with_fields is not None:
        field = next(k for k in with_fields if k != "type")
        nonsense = {**with_fields, field: "no-such-value"}
        _refused(api, game, mover.post(path, nonsense), 422, log)


def test_bad_requests_elsewhere(api: Client, game: dict[str, Any]) -> None:
    log = _log(api, game)
    missing = "/api/v1/games/00000000-0000-0000-0000-000000000000"
    assert api.get(missing).problem["status"] == 404
    assert api.post(f"{missing}/commands", {"type": "x"}).status == 404
    assert api.get("/api/v1/games/not-a-uuid").status == 404
    unknown = api.post("/api/v1/games", {"game": "chess", "seats": HUMANS})
    assert unknown.status == 422 and "game" in unknown.problem["errors"]["json"]
    assert api.post("/api/v1/games", {"game": GAME, "seats": HUMANS[:1]}).problem["status"] == 422
    assert api.post("/api/v1/games", {"game": GAME, "seats": [*HUMANS, {"name": "Eve"}]}).status == 422
    bad_bot = api.post(
        "/api/v1/games", {"game": GAME, "seats": [HUMANS[0], {"name": "B", "bot": "deep-blue"}]}
    )
    assert bad_bot.status == 422 and "deep-blue" in bad_bot.problem["detail"]
    bad_option = api.post("/api/v1/games", {"game": GAME, "seats": HUMANS, "options": {"nonsense": 1}})
    assert bad_option.status == 422 and bad_option.problem["title"] == "Invalid game options"
    assert api.post("/api/v1/games", raw=b"[").status == 400
    assert api.get(game_path(game, "/state?at=-1")).status == 422
    inside_setup = api.get(game_path(game, f"/state?at={game['version'] - 1}"))
    assert inside_setup.status == 404 and f"version {game['version']}" in inside_setup.problem["detail"]
    assert api.get(game_path(game, "/score")).status == 404
    assert api.seat("forged").get(game_path(game, "/state")).status == 401
    assert _log(api, game) == log


def test_the_event_log_is_redacted_while_running(api: Client, game: dict[str, Any]) -> None:
    events = api.get(game_path(game, "/events")).body
    assert [e["version"] for e in events] == list(range(1, game["version"] + 1))
    assert events[0]["type"] == "kotlik.GameCreated"
    assert events[0]["data"]["seed_sha256"] == game["seed_sha256"]
    after = api.get(game_path(game, f"/events?after={game['version'] - 1}")).body
    assert [e["version"] for e in after] == [game["version"]]


def test_a_finished_game_shows_everything_and_reveals_its_seed(api: Client, worker: Any, pool: Any) -> None:
    game = create(api, GAME, HUMANS)
    summary = play_to_end(api, game, seed=7)
    assert summary["status"] == "finished" and summary["to_move"] == []
    score = api.get(game_path(game, "/score")).body
    assert summary["result"] == score
    for seat in score["seats"]:
        assert seat["total"] == sum(seat["breakdown"].values())
    assert hashlib.sha256(bytes.fromhex(summary["seed"])).hexdigest() == game["seed_sha256"]
    logs = _log(api, game)
    assert all(log == logs[0] for log in logs), "a finished game's log is the same for everyone"
    assert logs[0][-1]["type"] == "kotlik.GameScored"
    with pool.connection() as conn:
        assert verify(conn, UUID(game["id"])) == []
        assert verify(conn, UUID(game["id"]), seed=b"another seed") != []
    tokens = [s["token"] for s in game["seats"]]
    refused = api.seat(tokens[0]).post(game_path(game, "/commands"), {"type": "anything"})
    assert refused.status == 409 and refused.problem["title"] == "The game is over"


def test_openapi_document_and_docs_page(api: Client) -> None:
    spec = api.get("/api/v1/openapi.json").body
    paths = spec["paths"]
    for path in [
        "/api/v1/games",
        "/api/v1/games/{game_id}/commands",
        "/api/v1/games/{game_id}/state",
        "/api/v1/games/{game_id}/actions",
        "/api/v1/games/{game_id}/events",
        "/api/v1/games/{game_id}/stream",
        "/api/v1/games/{game_id}/score",
        "/api/v1/catalog/{game}",
    ]:
        assert path in paths, path
    docs = api.get("/api/v1/docs")
    assert docs.status == 200 and "swagger" in docs.body.lower()
    assert api.get("/api/v1/docs/assets/swagger-ui-bundle.js").status == 200


def test_catalog(api: Client) -> None:
    listed = {g["game"] for g in api.get("/api/v1/catalog").body}
    assert GAME in listed
    assert api.get(f"/api/v1/catalog/{GAME}").status == 200
    assert api.get("/api/v1/catalog/chess").problem["status"] == 404


def test_the_stream_pushes_new_events(api: Client, game: dict[str, Any]) -> None:
    import urllib.request

    mover, _, version = _mover(api, game)
    command = mover.get(game_path(game, "/actions")).body[0]
    request = urllib.request.Request(
        api.base + game_path(game, "/stream"), headers={"Last-Event-ID": str(version)}
    )
    with urllib.request.urlopen(request, timeout=30) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        assert stream.readline().startswith(b"retry:")
        threading.Timer(0.5, lambda: mover.post(game_path(game, "/commands"), command)).start()
        ids = []
        while not ids:
            line = stream.readline().decode()
            if line.startswith("id: "):
                ids.append(int(line[4:]))
    assert ids == [version + 1]


def test_an_expired_token_is_refused(api: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    other = create(api, GAME, HUMANS)
    command = api.seat(other["seats"][0]["token"]).get(game_path(other, "/actions")).body[0]
    monkeypatch.setenv("KOTLIK_TOKEN_DAYS", "0")  # tokens whose time is up the moment they are issued
    game = create(api, GAME, HUMANS)
    seat0 = api.seat(game["seats"][0]["token"])
    log = _log(api, {**game, "seats": [{"token": None}]})
    reply = seat0.post(game_path(game, "/commands"), command)
    assert reply.status == 401 and reply.problem["title"] == "Expired seat token"
    assert seat0.get(game_path(game, "/state")).status == 401
    assert _log(api, {**game, "seats": [{"token": None}]}) == log


def test_an_arranged_game_is_marked_and_keeps_its_arrangement_secret(api: Client) -> None:
    cards = [c["id"] for c in api.get(f"/api/v1/catalog/{GAME}").body["cards"]]
    arranged = {"deck": list(reversed(cards))}
    game = create(api, GAME, HUMANS, {"arranged": arranged})
    summary = api.get(game_path(game)).body
    assert summary["arranged"] is True
    assert summary["options"]["arranged"] != arranged
    for log in _log(api, game):
        assert json.dumps(arranged["deck"][:10]) not in json.dumps(log)
    plain = create(api, GAME, HUMANS)
    assert plain["arranged"] is False
    bad = api.post("/api/v1/games", {"game": GAME, "seats": HUMANS, "options": {"arranged": {"deck": ["x"]}}})
    assert bad.status == 422 and bad.problem["title"] == "Invalid game options"
