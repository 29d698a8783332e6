"""Open seats: a game waits in the public lobby until players take its seats, then starts; its
creator may cancel it; it expires. Real HTTP, a real worker (the expiry is its periodic task)."""

from __future__ import annotations

import threading
import time
from typing import Any
from uuid import uuid4

import pytest
from httpclient import Client

import commands
from audit.verify import check, parse
from projections import lobby, openings, players

GAME = "kupferkessel"


@pytest.fixture(scope="module")
def api(live_url: str, worker: Any) -> Client:
    return Client(live_url)


def player(api: Client, name: str = "") -> tuple[str, Client]:
    reply = api.post("/api/v1/players", {"name": f"{name or 'p'}-{uuid4().hex[:8]}"})
    assert reply.status == 201, reply
    return reply.body["id"], api.seat(reply.body["key"])


def open_game(me: tuple[str, Client], kind: str = GAME, seats: int = 2, **extra: Any) -> dict[str, Any]:
    body = {"game": kind, "seats": [{"player": me[0]}, *[{"open": True}] * (seats - 1)], **extra}
    reply = me[1].post("/api/v1/games", body)
    assert reply.status == 201, reply
    return dict(reply.body)


def test_a_game_waits_in_the_lobby_until_its_last_seat_is_taken_then_starts(api: Client) -> None:
    alice, bob, cyril = player(api, "alice"), player(api, "bob"), player(api, "cyril")
    game = open_game(alice, "carcassonne", 3, rated=True)
    assert game["status"] == "open" and game["rated"] and game["seats"][1]["open"]
    assert game["seats"][0]["token"] and game["seats"][1]["token"] is None
    listed = api.get("/api/v1/games?open=true&game=carcassonne&rated=true").body
    assert listed[0]["id"] == game["id"], "newest first"
    assert game["id"] not in [g["id"] for g in api.get("/api/v1/games?open=true&rated=false").body]
    # Nothing to play or see yet.
    state = alice[1].get(f"/api/v1/games/{game['id']}/state").body
    assert state["view"] == {} and state["to_move"] == [] and not state["over"]
    move = alice[1].post(f"/api/v1/games/{game['id']}/commands", {"type": "place"})
    assert move.status == 409 and "waits for players" in move.problem["detail"]

    first = bob[1].post(f"/api/v1/games/{game['id']}/join", {"seat": 2})
    assert first.status == 201 and first.body["seat"] == 2 and not first.body["started"], first
    again = alice[1].post(f"/api/v1/games/{game['id']}/join", {})
    assert again.status == 409 and "rated" in again.problem["detail"]
    last = cyril[1].post(f"/api/v1/games/{game['id']}/join", {})
    assert last.status == 201 and last.body["started"] and last.body["seat"] == 1
    summary = last.body["game"]
    assert summary["status"] == "active" and summary["to_move"] == [0]
    assert [s["name"] for s in summary["seats"]][1:] == [
        api.get(f"/api/v1/players/{cyril[0]}").body["name"],
        api.get(f"/api/v1/players/{bob[0]}").body["name"],
    ]
    assert game["id"] not in [g["id"] for g in api.get("/api/v1/games?open=true").body]
    late = player(api)[1].post(f"/api/v1/games/{game['id']}/join", {})
    assert late.status == 409 and "started" in late.problem["detail"]
    # The joined player plays with their key; the game was set up from the committed seed.
    assert cyril[1].get(f"/api/v1/games/{game['id']}/state").body["seat"] == 1
    assert alice[1].get(f"/api/v1/games/{game['id']}/actions").body
    events = api.get(f"/api/v1/games/{game['id']}/events").body
    assert [e["type"] for e in events[:3]] == ["kotlik.GameCreated", "kotlik.SeatTaken", "kotlik.SeatTaken"]


def test_two_players_racing_for_the_last_seat_one_wins_the_other_gets_409(api: Client) -> None:
    for _ in range(3):
        game = open_game(player(api))
        replies = _race(game["id"], [player(api)[1], player(api)[1]])
        assert sorted(r.status for r in replies) == [201, 409], replies
        lost = next(r for r in replies if r.status == 409)
        assert lost.problem["type"].endswith("seat-not-open")


def _race(game_id: str, racers: list[Client]) -> list[Any]:
    replies: list[Any] = [None] * len(racers)
    start = threading.Barrier(len(racers))

    def take(i: int) -> None:
        start.wait()
        replies[i] = racers[i].post(f"/api/v1/games/{game_id}/join", {"seat": 1})

    threads = [threading.Thread(target=take, args=(i,)) for i in range(len(racers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return replies


def test_only_its_creator_cancels_a_waiting_game(api: Client, pool: Any) -> None:
    alice = player(api)
    game = open_game(alice)
    stranger = player(api)[1].request("DELETE", f"/api/v1/games/{game['id']}")
    assert stranger.status == 403
    cancelled = alice[1].request("DELETE", f"/api/v1/games/{game['id']}")
    assert cancelled.status == 200 and cancelled.body["status"] == "cancelled"
    join = player(api)[1].post(f"/api/v1/games/{game['id']}/join", {})
    assert join.status == 409 and "cancelled" in join.problem["detail"]
    again = alice[1].request("DELETE", f"/api/v1/games/{game['id']}")
    assert again.status == 409


def test_bad_openings_are_refused_and_write_nothing(api: Client, pool: Any) -> None:
    alice, bob = player(api), player(api)
    with pool.connection() as conn:
        before = conn.execute("SELECT count(*) AS n FROM games").fetchone()["n"]
    cases = [
        (api, {"seats": [{"player": alice[0]}, {"open": True}]}, 401),  # no key
        (bob[1], {"seats": [{"player": alice[0]}, {"open": True}]}, 422),  # the creator does not sit
        (alice[1], {"seats": [{"player": alice[0]}, {"open": True, "name": "x"}]}, 422),
        (alice[1], {"seats": [{"player": alice[0]}, {"name": "anon"}], "rated": True}, 422),
        (alice[1], {"seats": [{"player": alice[0]}, {"player": bob[0]}], "rated": True}, 422),
    ]
    for client, body, status in cases:
        reply = client.post("/api/v1/games", {"game": GAME, **body})
        assert reply.status == status, (body, reply)
    solo = alice[1].post(
        "/api/v1/games",
        {
            "game": "carodeni",
            "seats": [{"player": alice[0]}, {"name": "O", "bot": "ostara"}],
            "options": {"solo": True},
            "rated": True,
        },
    )
    assert solo.status == 422 and "automaton" in solo.problem["detail"]
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM games").fetchone()["n"] == before


def test_a_waiting_game_expires_by_the_workers_periodic_task(api: Client, pool: Any) -> None:
    alice = player(api)
    with pool.connection() as conn:
        me = players.by_key(conn, alice[1].token or "")
        assert me is not None
        created = commands.create_game(
            conn, GAME, [{"player": me.id}, {"open": True}], {}, creator=me.id, expires_in=0.5
        )
    game_id = created.game.id
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with pool.connection() as conn:
            if lobby.get(conn, game_id).status == "expired":
                break
        time.sleep(0.3)
    reply = player(api)[1].post(f"/api/v1/games/{game_id}/join", {})
    assert reply.status == 409 and "expired" in reply.problem["detail"]
    assert api.get(f"/api/v1/games/{game_id}/events").body[-1]["type"] == openings.EXPIRED


def test_the_lobby_columns_of_open_games_are_a_projection_of_the_log(api: Client, pool: Any) -> None:
    with pool.connection() as conn:
        assert openings.recompute(conn) == openings.stored(conn)
        assert len(openings.stored(conn)) >= 5


def test_a_finished_game_that_waited_for_players_exports_and_verifies(api: Client) -> None:
    alice, bob = player(api), player(api)
    game = open_game(alice, rated=True)
    assert bob[1].post(f"/api/v1/games/{game['id']}/join", {}).status == 201
    assert bob[1].post(f"/api/v1/games/{game['id']}/resign", {}).status in (200, 201)
    deadline = time.monotonic() + 60
    while api.get(f"/api/v1/games/{game['id']}").body["status"] != "finished":
        assert time.monotonic() < deadline, "the game was not scored"
        time.sleep(0.2)
    reply = api.get(f"/api/v1/games/{game['id']}/export")
    assert reply.status == 200, reply
    verdict = check(parse(reply.raw.splitlines()))
    assert verdict.ok, verdict.report()
    assert verdict.setup_events > 0
