"""Asynchronous play (issue 10) through real HTTP, a real worker with beat, and a second beat:
players and `your_turn` across games, claiming invites, resign and rematch, turn clocks that
let the default bot move or forfeit, and signed webhooks retried after a 500."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from httpclient import Client, create, game_path

from audit.verify import check, parse
from workers import deliveries

# Read by this process (the web app under test) and by the worker the session starts after
# collection: webhooks may reach this test's own receiver on the loopback address, and a failed
# delivery is retried after 1 s (then 2 s, ...).
os.environ.setdefault("KOTLIK_WEBHOOK_ALLOW", "127.0.0.1/32")
os.environ.setdefault("KOTLIK_WEBHOOK_BACKOFF", "1")

ROOT = Path(__file__).resolve().parents[2]
GAME = "kupferkessel"
#: How long the receiver's ``/slow`` endpoint takes to answer (a delivery times out at 10 s).
SLOW_S = 8.0


@pytest.fixture(scope="module")
def api(live_url: str, worker: Any) -> Client:
    return Client(live_url)


@pytest.fixture(scope="module")
def second_beat(broker: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Another beat scheduler beside the worker's own: every clock tick is sent twice."""
    where = tmp_path_factory.mktemp("beat2")
    command = [sys.executable, "-m", "celery", "-A", "workers.app", "beat", "--loglevel", "INFO"]
    command += ["--schedule", str(where / "schedule")]
    with open(where / "beat.log", "wb") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env={**os.environ, **broker}, stdout=out, stderr=subprocess.STDOUT
        )
    yield
    process.terminate()
    process.wait(timeout=30)


class Receiver:
    """A webhook receiver on 127.0.0.1: records every request; ``/flaky`` answers 500 once, ``/down``
    always, ``/slow`` takes :data:`SLOW_S` seconds to answer (``slow`` counts those it is still
    holding)."""

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []
        self.failed: set[str] = set()
        self.slow = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                raw = self.rfile.read(int(self.headers["Content-Length"]))
                if self.path == "/slow":
                    receiver.slow += 1
                    time.sleep(SLOW_S)
                    receiver.slow -= 1
                status = 200
                if self.path == "/flaky" and self.path not in receiver.failed:
                    receiver.failed.add(self.path)
                    status = 500
                if self.path == "/down":
                    status = 500
                receiver.got.append(
                    {
                        "path": self.path,
                        "headers": dict(self.headers),
                        "raw": raw,
                        "status": status,
                        "body": json.loads(raw),
                        "at": time.time(),
                    }
                )
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def at(self, path: str, status: int = 200) -> list[dict[str, Any]]:
        return [g for g in self.got if g["path"] == path and g["status"] == status]


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.server.shutdown()


def wait(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def player(api: Client, name: str) -> tuple[dict[str, Any], Client]:
    reply = api.post("/api/v1/players", {"name": f"{name} {uuid4().hex[:6]}"})  # names are unique
    assert reply.status == 201, reply
    return reply.body, api.seat(reply.body["key"])


def move(client: Client, game: dict[str, Any]) -> None:
    """Play the caller's first legal command at the game's current version."""
    version = client.get(game_path(game)).body["version"]
    actions = client.get(game_path(game, "/actions")).body
    assert actions, "no legal action"
    reply = client.post(game_path(game, "/commands"), {**actions[0], "expected_version": version})
    assert reply.status == 201, reply


def verify(secret: str, got: dict[str, Any]) -> None:
    """The receiver's check: the signature over ``<t>.<body>`` and a recent timestamp."""
    parts = dict(p.split("=", 1) for p in got["headers"]["X-Kotlik-Signature"].split(","))
    mac = hmac.new(secret.encode(), parts["t"].encode() + b"." + got["raw"], hashlib.sha256).hexdigest()
    assert hmac.compare_digest(mac, parts["v1"])
    assert abs(time.time() - int(parts["t"])) < 60


def test_your_turn_flips_across_three_games(api: Client) -> None:
    me, mine = player(api, "Alžběta")
    games = [create(api, GAME, [{"player": me["id"]}, {"name": "Opponent"}]) for _ in range(3)]
    assert all(g["seats"][0]["name"] == me["name"] for g in games)
    listed = mine.get("/api/v1/players/me/games").body
    assert [g["id"] for g in listed] == [g["id"] for g in reversed(games)]
    turn = {g["id"]: g["your_turn"] for g in listed}
    assert turn == {g["id"]: 0 in g["to_move"] for g in games}
    for game in games:  # each game until it waits on me; my key plays my seat
        while not turn[game["id"]]:
            move(api.seat(game["seats"][1]["token"]), game)
            turn = {g["id"]: g["your_turn"] for g in mine.get("/api/v1/players/me/games").body}
    assert all(turn.values())
    listed = mine.get("/api/v1/players/me/games").body
    while listed[0]["id"] != games[1]["id"] or listed[0]["your_turn"]:  # my turn (of one or more moves)
        move(mine, games[1])  # in the middle game: then it waits on the other seat, and is newest
        listed = mine.get("/api/v1/players/me/games").body
    assert listed[0]["id"] == games[1]["id"] and listed[0]["your_turn"] is False
    assert [g["your_turn"] for g in listed[1:]] == [True, True] and listed[0]["seat"] == 0
    assert mine.get("/api/v1/players/me/games?status=finished").body == []
    assert api.seat("kp_nobody").get("/api/v1/players/me/games").status == 401
    assert api.get("/api/v1/players/me/games").status == 401


def test_claiming_an_invite(api: Client) -> None:
    game = create(api, GAME, [{"name": "Host"}, {"name": "Guest"}])
    invite = game["seats"][1]["token"]
    guest, guest_client = player(api, "Guest")
    _, other = player(api, "Other")
    path = game_path(game, "/claim")
    reply = guest_client.post(path, {"token": invite})
    assert reply.status == 200 and reply.body == {"game_id": game["id"], "seat": 1, "player": guest["id"]}
    assert guest_client.post(path, {"token": invite}).status == 200  # again: harmless
    taken = other.post(path, {"token": invite})
    assert taken.status == 409 and taken.problem["type"].endswith("/seat-taken")
    assert api.seat("kp_forged").post(path, {"token": invite}).status == 401
    assert other.post(path, {"token": "not-a-seat"}).status == 422
    assert (
        other.post(
            game_path({"id": "00000000-0000-0000-0000-000000000000"}, "/claim"), {"token": invite}
        ).status
        == 404
    )
    assert [g["id"] for g in guest_client.get("/api/v1/players/me/games").body] == [game["id"]]
    assert other.get("/api/v1/players/me/games").body == []
    assert api.get(game_path(game)).body["version"] == game["version"]  # nothing appended


def test_bad_inputs_are_refused_and_create_nothing(api: Client) -> None:
    before = int(json.loads(api.get("/api/v1/games").headers["X-Pagination"])["total"])
    seats = [{"name": "A"}, {"name": "B"}]
    for clock in (
        {"per_move": "soon"},
        {"per_move": "0s"},
        {"per_move": "40d"},
        {"per_move": "1h", "on_timeout": "pause"},
        {"on_timeout": "bot"},
        {"per_move": "1h", "warn_before": "2h"},
        {"per_move": "1h", "colour": "red"},
        "24h",
    ):
        reply = api.post("/api/v1/games", {"game": GAME, "seats": seats, "options": {"clock": clock}})
        assert reply.status == 422 and "clock" in reply.problem["detail"], (clock, reply)
    unknown = api.post(
        "/api/v1/games",
        {"game": GAME, "seats": [{"player": "00000000-0000-0000-0000-000000000000"}, {"name": "B"}]},
    )
    assert unknown.status == 422 and unknown.problem["type"].endswith("/unknown-player")
    nameless = api.post("/api/v1/games", {"game": GAME, "seats": [{}, {"name": "B"}]})
    assert nameless.status == 422
    for url in ("http://10.1.2.3/hook", "http://169.254.169.254/", "ftp://example.com/", "http://[::1]/"):
        reply = api.post("/api/v1/games", {"game": GAME, "seats": seats, "webhooks": [{"url": url}]})
        assert reply.status == 422, (url, reply)
    after = int(json.loads(api.get("/api/v1/games").headers["X-Pagination"])["total"])
    assert after == before
    _, me = player(api, "Hooked")
    for body in (
        {"url": "http://192.168.0.1/x"},
        {"url": "http://127.0.0.1:1/x", "kinds": ["gossip"]},
        {"url": "file:///etc/passwd"},
    ):
        assert me.post("/api/v1/players/me/webhooks", body).status == 422, body
    assert me.get("/api/v1/players/me/webhooks").body == []


def test_resign_then_rematch(api: Client) -> None:
    me, mine = player(api, "Resigner")
    game = create(
        api,
        GAME,
        [{"player": me["id"]}, {"name": "Other"}],
        {"clock": {"per_move": "1d", "on_timeout": "forfeit"}},
    )
    assert game["clock"]["on_timeout"] == "forfeit"
    other = api.seat(game["seats"][1]["token"])
    assert datetime.fromisoformat(game["deadline"]) > datetime.fromisoformat(game["created_at"])
    assert other.get(game_path(game, "/state")).body["deadline"] == game["deadline"]
    assert other.post(game_path(game, "/rematch")).status == 409  # not finished yet
    reply = mine.post(game_path(game, "/resign"))
    assert reply.status == 201 and reply.body["events"][0]["type"] == "kotlik.SeatResigned"
    assert reply.body["over"] is True and reply.body["to_move"] == []
    assert mine.post(game_path(game, "/resign")).status == 409
    assert other.post(game_path(game, "/commands"), {"type": "pass"}).status == 409
    done = wait(lambda: (s := api.get(game_path(game)).body)["status"] == "finished" and s, 30, "scoring")
    assert done["result"]["winners"] == [1]
    assert done["result"]["ended"] == [{"seat": 0, "reason": "resigned"}]
    assert done["deadline"] is None
    assert api.get(game_path(game, "/score")).body["ended"] == [{"seat": 0, "reason": "resigned"}]
    assert api.get(game_path(game, "/state")).body["over"] is True
    # The export of a resigned game verifies offline, its result recomputed alike.
    verdict = check(parse(api.get(game_path(game, "/export")).raw.splitlines()))
    assert verdict.ok, verdict.report()
    assert verdict.score == done["result"]
    events = api.get(game_path(game, "/export")).raw.splitlines()
    forged = [line.replace(b'"reason":"resigned"', b'"reason":"bored"') for line in events]
    assert not check(parse(forged)).ok
    assert api.post(game_path(game, "/rematch")).status == 401  # spectators may not
    again = other.post(game_path(game, "/rematch"))
    assert again.status == 201, again
    new = again.body
    assert new["id"] != game["id"] and [s["name"] for s in new["seats"]] == [me["name"], "Other"]
    assert new["clock"] == game["clock"] and new["options"] == game["options"]
    assert api.get(game_path(game)).body["rematch"] == new["id"]
    assert other.post(game_path(game, "/rematch")).status == 409
    assert new["id"] in [g["id"] for g in mine.get("/api/v1/players/me/games").body]


def _timed_out_commands(pool: Any, game_id: str) -> list[tuple[int, int]]:
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT DISTINCT (meta->>'at')::int AS at, (meta->>'seat')::int AS seat FROM events "
            "WHERE game_id = %s AND meta->>'timed_out' = 'true' ORDER BY 1",
            (game_id,),
        ).fetchall()
    return [(r["at"], r["seat"]) for r in rows]


def test_a_clock_runs_out_and_the_bot_moves_once(
    api: Client, pool: Any, second_beat: None, receiver: Receiver
) -> None:
    me, mine = player(api, "Slowpoke")
    hook = mine.post(
        "/api/v1/players/me/webhooks", {"url": receiver.url + "/warn", "kinds": ["clock_warning"]}
    )
    assert hook.status == 201
    # The late seat is mine; the other seat is a human who waits for ever, so only my turn times out.
    first = create(api, GAME, [{"name": "probe"}, {"name": "x"}])
    late = first["to_move"][0]
    seats: list[dict[str, Any]] = [{"name": "Patient"}, {"name": "Patient"}]
    seats[late] = {"player": me["id"]}
    game = create(api, GAME, seats, {"clock": {"per_move": "3s", "on_timeout": "bot", "warn_before": "2s"}})
    assert game["to_move"] == [late] and game["deadline"] is not None
    start = game["version"]
    moved = wait(lambda: (s := api.get(game_path(game)).body)["to_move"] != [late] and s, 20, "the bot")
    # The bot made this turn's moves (one or more), each once, and then the turn passed on.
    done = _timed_out_commands(pool, game["id"])
    assert done[0] == (start, late) and {seat for _, seat in done} == {late}
    with pool.connection() as conn:
        flags = conn.execute(
            "SELECT meta->>'timed_out' AS t FROM events "
            "WHERE game_id = %s AND version > %s AND version <= %s",
            (game["id"], start, moved["version"]),
        ).fetchall()
    assert flags and all(f["t"] == "true" for f in flags)
    assert moved["deadline"] is not None and moved["deadline"] != game["deadline"]
    with pool.connection() as conn:
        meta = conn.execute(
            "SELECT meta FROM events WHERE game_id = %s AND version = %s", (game["id"], start + 1)
        ).fetchone()["meta"]
    assert meta["bot"] == "default" and meta["seat"] == late and meta["timed_out"] is True
    time.sleep(1.0)  # both schedulers have ticked again: nothing more
    assert _timed_out_commands(pool, game["id"]) == done
    warnings = receiver.at("/warn")
    assert len(warnings) == 1 and warnings[0]["body"]["game_id"] == game["id"]
    assert warnings[0]["at"] < datetime.fromisoformat(game["deadline"]).timestamp()  # before time ran out
    verify(hook.body["secret"], warnings[0])


def test_a_clock_runs_out_and_the_seat_forfeits(api: Client, second_beat: None) -> None:
    game = create(
        api, GAME, [{"name": "A"}, {"name": "B"}], {"clock": {"per_move": "2s", "on_timeout": "forfeit"}}
    )
    late = game["to_move"][0]
    done = wait(lambda: (s := api.get(game_path(game)).body)["status"] == "finished" and s, 20, "the forfeit")
    assert done["result"]["ended"] == [{"seat": late, "reason": "forfeit"}]
    assert done["result"]["winners"] == [1 - late]
    events = api.get(game_path(game, "/events")).body
    assert [e["type"] for e in events[-2:]] == ["kotlik.SeatResigned", "kotlik.GameScored"]
    assert sum(e["type"] == "kotlik.SeatResigned" for e in events) == 1


def test_webhooks_signed_exactly_once_and_retried_after_a_500(api: Client, receiver: Receiver) -> None:
    host, host_client = player(api, "Host")
    guest, guest_client = player(api, "Guest")
    hook = host_client.post("/api/v1/players/me/webhooks", {"url": receiver.url + "/host"})
    flaky = host_client.post(
        "/api/v1/players/me/webhooks", {"url": receiver.url + "/flaky", "kinds": ["game_over"]}
    )
    assert hook.status == 201 and flaky.status == 201 and hook.body["kinds"] == sorted(hook.body["kinds"])
    game = create_with_hook(api, host["id"], receiver.url + "/creator")
    creator_secret = game["webhooks"][0]["secret"]
    assert guest_client.post(game_path(game, "/claim"), {"token": game["seats"][1]["token"]}).status == 200
    guest_turn = 1 in game["to_move"]
    assert guest_client.post(game_path(game, "/resign")).status == 201  # the guest's key resigns seat 1
    wait(lambda: receiver.at("/flaky") and len(receiver.at("/creator")) == 2, 30, "the deliveries")
    time.sleep(1.5)  # anything extra would have come by now
    # Deliveries are sent side by side and may arrive in any order; ``delivery`` is the order made.
    host_got = sorted(receiver.at("/host"), key=lambda got: got["body"]["delivery"])
    expected = (["your_turn"] if not guest_turn else []) + ["invite_claimed", "game_over"]
    assert [g["body"]["kind"] for g in host_got] == expected
    creator_got = sorted(receiver.at("/creator"), key=lambda got: got["body"]["delivery"])
    assert [g["body"]["kind"] for g in creator_got] == ["invite_claimed", "game_over"]
    assert len(receiver.at("/flaky", 500)) == 1 and len(receiver.at("/flaky")) == 1
    for got in host_got:
        verify(hook.body["secret"], got)
        assert (
            got["body"]["game_id"] == game["id"] and got["headers"]["X-Kotlik-Event"] == got["body"]["kind"]
        )
    verify(flaky.body["secret"], receiver.at("/flaky")[0])
    for got in receiver.at("/creator"):
        verify(creator_secret, got)
    assert host_got[-1]["body"]["result"]["ended"] == [{"seat": 1, "reason": "resigned"}]
    deliveries = host_client.get("/api/v1/players/me/deliveries").body
    assert {d["status"] for d in deliveries} == {"delivered"}
    retried = [d for d in deliveries if d["url"].endswith("/flaky")]
    assert len(retried) == 1 and [a["status"] for a in retried[0]["attempts"]] == [500, 200]
    assert sorted(len(d["attempts"]) for d in deliveries) == [1] * (len(deliveries) - 1) + [2]
    assert guest_client.get("/api/v1/players/me/deliveries").body == []


def test_a_removed_webhook_gets_nothing_more(api: Client, receiver: Receiver) -> None:
    """Removing a webhook stops its notices and cancels the retries of one that kept failing;
    what was delivered before stays listed. Only its player may remove it, once."""
    me, mine = player(api, "Remover")
    _, other = player(api, "Stranger")
    hooks = {
        path: mine.post("/api/v1/players/me/webhooks", {"url": receiver.url + path, "kinds": ["your_turn"]})
        for path in ("/kept", "/gone", "/down")
    }
    assert all(h.status == 201 for h in hooks.values())
    gone, down = hooks["/gone"].body["id"], hooks["/down"].body["id"]
    for who, status in ((other, 404), (api, 401)):
        refused = who.request("DELETE", f"/api/v1/players/me/webhooks/{gone}")
        assert refused.status == status and refused.problem["status"] == status
    assert mine.request("DELETE", f"/api/v1/players/me/webhooks/{gone}").status == 204
    again = mine.request("DELETE", f"/api/v1/players/me/webhooks/{gone}")
    assert again.status == 404 and again.problem["type"].endswith("/not-found")
    listed = mine.get("/api/v1/players/me/webhooks").body
    assert sorted(h["url"] for h in listed) == [receiver.url + "/down", receiver.url + "/kept"]

    create(api, GAME, [{"player": me["id"]}, {"name": "Bot", "bot": "default"}])  # soon my turn
    wait(lambda: receiver.at("/kept") and receiver.at("/down", 500), 30, "the first attempts")
    assert mine.request("DELETE", f"/api/v1/players/me/webhooks/{down}").status == 204

    def statuses() -> dict[str, str]:
        listed = mine.get("/api/v1/players/me/deliveries").body
        return {d["url"].removeprefix(receiver.url): d["status"] for d in listed}

    wait(lambda: statuses() == {"/kept": "delivered", "/down": "cancelled"}, 10, "the retry cancelled")
    attempts = len(receiver.at("/down", 500))
    time.sleep(3.5)  # the retries were due after 1 s and 2 s more
    assert len(receiver.at("/down", 500)) == attempts
    assert receiver.at("/gone") == [] and len(receiver.at("/kept")) == 1


def test_a_delivery_held_by_its_worker_when_the_webhook_goes_is_cancelled_not_sent(
    api: Client, pool: Any, receiver: Receiver
) -> None:
    """The removal skips a delivery that a worker holds (its lock); the worker then cancels it."""
    _, mine = player(api, "Racer")
    hook = mine.post("/api/v1/players/me/webhooks", {"url": receiver.url + "/raced"}).body
    with pool.connection() as conn:
        made = conn.execute(
            "INSERT INTO deliveries (webhook_id, kind, body) VALUES (%s, 'your_turn', '{}') RETURNING id",
            (hook["id"],),
        ).fetchone()
    delivery = made["id"]
    with pool.connection() as worker, worker.transaction():
        worker.execute("SELECT id FROM deliveries WHERE id = %s FOR UPDATE", (delivery,))
        assert mine.request("DELETE", f"/api/v1/players/me/webhooks/{hook['id']}").status == 204
        held = worker.execute("SELECT status FROM deliveries WHERE id = %s", (delivery,)).fetchone()
        assert held["status"] == "pending"
    with pool.connection() as conn:
        assert deliveries.send(conn, delivery) is None
        after = conn.execute("SELECT status, attempts FROM deliveries WHERE id = %s", (delivery,)).fetchone()
    assert after["status"] == "cancelled" and after["attempts"] == []
    assert receiver.at("/raced") == []


def create_with_hook(api: Client, host_id: str, url: str) -> dict[str, Any]:
    reply = api.post(
        "/api/v1/games",
        {
            "game": GAME,
            "seats": [{"player": host_id}, {"name": "Invited"}],
            "webhooks": [{"url": url, "kinds": ["invite_claimed", "game_over"]}],
        },
    )
    assert reply.status == 201, reply
    return dict(reply.body)


def test_a_deadline_that_passed_while_no_worker_ran_is_acted_on(api: Client, pool: Any) -> None:
    """Deadlines live in the row: one that passed an hour ago (the workers were down) is found."""
    game = create(
        api, GAME, [{"name": "A"}, {"name": "B"}], {"clock": {"per_move": "1d", "on_timeout": "forfeit"}}
    )
    time.sleep(1.5)
    assert api.get(game_path(game)).body["status"] == "active"  # a day is a day
    with pool.connection() as conn:
        conn.execute("UPDATE games SET deadline = now() - interval '1 hour' WHERE id = %s", (game["id"],))
    done = wait(lambda: (s := api.get(game_path(game)).body)["status"] == "finished" and s, 20, "the forfeit")
    assert done["result"]["ended"] == [{"seat": game["to_move"][0], "reason": "forfeit"}]


def test_a_slow_webhook_endpoint_holds_up_no_bot(api: Client, receiver: Receiver) -> None:
    """Deliveries have a worker of their own: with more of them hanging on a slow endpoint than
    the games' worker has processes, a bot still answers at once."""
    host, host_client = player(api, "Slow")
    hook = host_client.post(
        "/api/v1/players/me/webhooks", {"url": receiver.url + "/slow", "kinds": ["your_turn"]}
    )
    assert hook.status == 201
    for _ in range(3):  # each tells the host it is their turn, and hangs
        seats = [{"player": host["id"]}, {"name": "Bot", "bot": "default"}]
        assert api.post("/api/v1/games", {"game": GAME, "seats": seats}).status == 201
    wait(lambda: receiver.slow >= 3, 10, "three deliveries hanging on /slow")
    game = create(api, GAME, [{"name": "Me"}, {"name": "Bot", "bot": "default"}])
    me = api.seat(game["seats"][0]["token"])
    while 0 in api.get(game_path(game)).body["to_move"]:
        move(me, game)
    started = time.monotonic()
    wait(lambda: 1 not in api.get(game_path(game)).body["to_move"], SLOW_S, "the bot's turn")
    answered = time.monotonic() - started
    assert receiver.slow >= 1, "the slow deliveries ended before the bot was timed"
    assert answered < SLOW_S / 2, f"the bot answered after {answered:.1f} s"
