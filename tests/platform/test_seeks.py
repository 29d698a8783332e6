"""Quick pairing over real HTTP with a real worker: seeks that fit are paired at once, once each,
never a player with themselves; a seek falls back to a bot; the seeks table is a projection."""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from typing import Any
from uuid import uuid4

import pytest
from httpclient import Client

from projections import seeks

# Webhooks may point at the loopback address here (the deliveries are only looked at, not sent).
os.environ.setdefault("KOTLIK_WEBHOOK_ALLOW", "127.0.0.1/32")
pytestmark = pytest.mark.e2e
GAME = "kupferkessel"


@pytest.fixture(scope="module")
def api(live_url: str, worker: Any) -> Client:
    return Client(live_url)


def player(api: Client) -> tuple[str, Client]:
    reply = api.post("/api/v1/players", {"name": f"s-{uuid4().hex[:10]}"})
    assert reply.status == 201, reply
    return reply.body["id"], api.seat(reply.body["key"])


def seek(client: Client, **extra: Any) -> Any:
    return client.post("/api/v1/seeks", {"game": GAME, "seats": 2, "rated": True, **extra})


def closed(api: Client, seek_id: str, within: float) -> dict[str, Any]:
    """The seek once it no longer waits (or as it is after ``within`` seconds), by long-polls."""
    deadline = time.monotonic() + within
    while True:
        wait = max(1, min(20, round(deadline - time.monotonic())))
        reply = api.get(f"/api/v1/seeks/{seek_id}?wait={wait}")
        assert reply.status == 200, reply
        if reply.body["status"] != "waiting" or time.monotonic() >= deadline:
            return dict(reply.body)


def test_a_waiting_seek_hears_of_its_pairing_in_one_long_poll(api: Client) -> None:
    """``GET /seeks/{id}?wait=`` is answered when the pairing commits, not when the wait ends; one
    that nothing closes answers ``waiting`` after its wait; a cancel wakes it too."""
    (_, alice), (_, bob) = player(api), player(api)
    first = seek(alice, rated=False, clock={"per_move": "13h"}).body
    path = f"/api/v1/seeks/{first['id']}"
    began = time.monotonic()
    quiet = api.get(f"{path}?wait=1")
    assert quiet.status == 200 and quiet.body == first and time.monotonic() - began >= 0.9
    answered: dict[str, Any] = {}

    def poll() -> None:
        reply = api.get(f"{path}?wait=20")
        answered.update(body=reply.body, at=time.monotonic())

    waiter = threading.Thread(target=poll)
    waiter.start()
    time.sleep(0.5)  # the poll is parked on the server
    paired = seek(bob, rated=False, clock={"per_move": "13h"})
    created = time.monotonic()
    waiter.join(20)
    assert paired.body["status"] == "paired" and answered["body"]["game_id"] == paired.body["game_id"]
    latency = answered["at"] - created
    print(f"pairing 201 → the waiting seek's long-poll answered: {1000 * latency:.1f} ms")
    assert latency < 2.0, "answered by the pairing, not by the end of its 20 s wait"
    assert api.get(f"{path}?wait=20").body["status"] == "paired", "a closed seek is answered at once"

    lone = seek(alice, rated=False, clock={"per_move": "14h"}).body
    path = f"/api/v1/seeks/{lone['id']}"
    waiter = threading.Thread(target=lambda: answered.update(body=api.get(f"{path}?wait=20").body))
    waiter.start()
    time.sleep(0.5)
    began = time.monotonic()
    assert alice.request("DELETE", f"/api/v1/seeks/{lone['id']}").status == 200
    waiter.join(20)
    assert answered["body"]["status"] == "cancelled" and time.monotonic() - began < 2.0


@pytest.mark.parametrize("wait", ["-1", "61", "soon"])
def test_a_long_poll_of_a_seek_with_a_bad_wait_is_a_422(api: Client, wait: str) -> None:
    reply = api.get(f"/api/v1/seeks/{uuid4()}?wait={wait}")
    assert reply.status == 422 and "wait" in str(reply.problem), reply


def test_two_seeks_that_fit_are_paired_at_once_into_a_rated_game(api: Client) -> None:
    (a, alice), (b, bob) = player(api), player(api)
    for client in (alice, bob):
        hook = client.post(
            "/api/v1/players/me/webhooks", {"url": "http://127.0.0.1:9/hook", "kinds": ["paired"]}
        )
        assert hook.status == 201, hook
    first = seek(alice, clock={"per_move": "1h"})
    assert first.status == 201 and first.body["status"] == "waiting" and first.body["game_id"] is None
    other_clock = seek(bob, clock={"per_move": "2h"})
    assert other_clock.body["status"] == "waiting", "another clock does not fit"
    second = seek(bob, clock={"per_move": "1h"})
    assert second.status == 201 and second.body["status"] == "paired", second
    game_id = second.body["game_id"]
    assert api.get(f"/api/v1/seeks/{first.body['id']}").body == {
        **first.body,
        "status": "paired",
        "game_id": game_id,
    }
    game = api.get(f"/api/v1/games/{game_id}").body
    assert game["rated"] and game["status"] == "active" and game["clock"]["seconds"] == 3600
    assert [s["player"] for s in game["seats"]] == [a, b], "the older seek sits first"
    assert alice.get(f"/api/v1/games/{game_id}/state").body["seat"] == 0
    assert bob.request("DELETE", f"/api/v1/seeks/{other_clock.body['id']}").body["status"] == "cancelled"
    told = [d for d in alice.get("/api/v1/players/me/deliveries").body if d["kind"] == "paired"]
    assert [d["body"]["game_id"] for d in told] == [game_id], "the waiting player is told by webhook"
    assert not [d for d in bob.get("/api/v1/players/me/deliveries").body if d["kind"] == "paired"]


def test_a_player_is_never_paired_with_themselves_and_holds_few_seeks(api: Client) -> None:
    _, alone = player(api)
    held = [seek(alone, rated=False, clock={"per_move": "3h"}) for _ in range(3)]
    assert [r.body["status"] for r in held] == ["waiting"] * 3
    too_many = seek(alone, rated=False)
    assert too_many.status == 429 and too_many.problem["type"].endswith("too-many-seeks")
    stranger = player(api)[1].request("DELETE", f"/api/v1/seeks/{held[0].body['id']}")
    assert stranger.status == 404
    for r in held:
        assert alone.request("DELETE", f"/api/v1/seeks/{r.body['id']}").body["status"] == "cancelled"
    again = alone.request("DELETE", f"/api/v1/seeks/{held[0].body['id']}")
    assert again.status == 409


def test_a_seek_the_game_refuses_is_a_422_naming_the_field(api: Client, pool: Any) -> None:
    _, client = player(api)
    cases = [
        ({"seats": 3}, "seats"),
        ({"fallback": {"bot": "nobody", "after": 5}}, "fallback"),
        (
            {"game": "carodeni", "options": {}, "seats": 2, "fallback": {"bot": "ostara", "after": 1}},
            "fallback",
        ),
        ({"clock": {"per_move": "soon"}}, "clock"),
    ]
    with pool.connection() as conn:
        before = conn.execute("SELECT count(*) AS n FROM seek_events").fetchone()["n"]
    for body, field in cases:
        body.pop("options", None)
        reply = seek(client, **body)
        assert reply.status == 422 and field in str(reply.body), (body, reply)
    assert api.post("/api/v1/seeks", {"game": GAME, "seats": 2}).status == 401
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM seek_events").fetchone()["n"] == before


def test_fifty_players_seeking_at_once_are_paired_each_once(api: Client, pool: Any) -> None:
    people = [player(api) for _ in range(50)]
    replies: list[Any] = [None] * 50
    start = threading.Barrier(50)

    def go(i: int) -> None:
        start.wait()
        replies[i] = seek(people[i][1], rated=False, clock={"per_move": "5h"})

    threads = [threading.Thread(target=go, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.status == 201 for r in replies), [r for r in replies if r.status != 201][:3]
    final = [api.get(f"/api/v1/seeks/{r.body['id']}").body for r in replies]
    assert all(s["status"] == "paired" for s in final), Counter(s["status"] for s in final)
    by_game = Counter(s["game_id"] for s in final)
    assert len(by_game) == 25 and set(by_game.values()) == {2}
    seen_players: set[str] = set()
    for game_id in by_game:
        seated = [s["player"] for s in api.get(f"/api/v1/games/{game_id}").body["seats"]]
        assert len(set(seated)) == 2, "nobody is paired with themselves"
        assert not seen_players & set(seated), "no player in two games from one seek"
        seen_players |= set(seated)
    assert seen_players == {p for p, _ in people}


def test_a_seek_nobody_answers_falls_back_to_its_bot(api: Client) -> None:
    _, client = player(api)
    placed = seek(client, rated=True, clock={"per_move": "7h"}, fallback={"bot": "default", "after": 1})
    assert placed.body["status"] == "waiting"
    status = closed(api, placed.body["id"], 30)  # the worker's pairing wakes the long-poll
    assert status["status"] == "paired", status
    game = api.get(f"/api/v1/games/{status['game_id']}").body
    assert game["seats"][1]["bot"] == "default" and game["rated"]


def test_a_seek_expires(api: Client) -> None:
    _, client = player(api)
    placed = seek(client, rated=False, clock={"per_move": "9h"}, expires_in=10)
    assert closed(api, placed.body["id"], 40)["status"] == "expired"


def test_the_seeks_table_is_a_projection_of_their_log(api: Client, pool: Any) -> None:
    with pool.connection() as conn:
        stored = seeks.stored(conn)
        assert len(stored) >= 50 and seeks.recompute(conn) == stored
        seeks.rebuild(conn)
        assert seeks.stored(conn) == stored


def test_a_pairing_that_fails_half_way_leaves_no_game_and_the_seeks_as_they_were(
    api: Client, pool: Any
) -> None:
    """The database refuses the pairing's last write (a trigger the test adds for one player): the
    game made before it and the pairing seek are gone with it, the waiting seek still waits."""
    (_, alice), (b, bob) = player(api), player(api)
    waiting = seek(alice, rated=False, clock={"per_move": "11h"}).body
    with pool.connection() as conn:
        conn.execute(
            "CREATE FUNCTION refuse_pairing() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF (SELECT player_id FROM seeks WHERE id = NEW.seek_id) = '{b}' THEN "
            "RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$"
        )
        conn.execute(
            "CREATE TRIGGER refuse_pairing BEFORE INSERT ON seek_events FOR EACH ROW "
            "WHEN (NEW.type = 'SeekPaired') EXECUTE FUNCTION refuse_pairing()"
        )
        games_before = conn.execute("SELECT count(*) AS n FROM games").fetchone()["n"]
    try:
        failed = seek(bob, rated=False, clock={"per_move": "11h"})
        assert failed.status == 500  # a fault of the database, not of the request
    finally:
        with pool.connection() as conn:
            conn.execute("DROP TRIGGER refuse_pairing ON seek_events")
            conn.execute("DROP FUNCTION refuse_pairing()")
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM games").fetchone()["n"] == games_before
        assert conn.execute("SELECT count(*) AS n FROM seeks WHERE player_id = %s", (b,)).fetchone()["n"] == 0
    assert api.get(f"/api/v1/seeks/{waiting['id']}").body == waiting
    assert seek(bob, rated=False, clock={"per_move": "11h"}).body["status"] == "paired"
