"""Web Push (issue 50) through real HTTP, a real Celery worker and a push service of the test's own
on loopback: the test holds the browser's side of a subscription (its P-256 key and auth secret),
decrypts each message it receives (RFC 8291, with http_ece) and checks the VAPID signature
(RFC 8292) against the key the server serves; a 410 drops the subscription, a 500 is retried, and
endpoints pass the webhooks' address checks."""

from __future__ import annotations

import base64
import json
import os
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from uuid import UUID, uuid4

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from httpclient import Client, create, game_path

from projections import push

# Read by this process (the web app under test) and by the worker the session starts after
# collection: push endpoints may be on this test's loopback address (the webhooks' allowance),
# and a failed message is tried again after 1 s.
os.environ.setdefault("KOTLIK_WEBHOOK_ALLOW", "127.0.0.1/32")
os.environ.setdefault("KOTLIK_WEBHOOK_BACKOFF", "1")

GAME = "kupferkessel"
pytestmark = pytest.mark.e2e


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """The browser's half of a subscription: the key pair and secret it would make."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = secrets.token_bytes(16)
        self.endpoint = endpoint

    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }

    def read(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return dict(json.loads(plain))


class PushService:
    """A push service on 127.0.0.1: records every message; ``/gone/…`` answers 410, ``/flaky/…``
    500 the first time."""

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []
        self.failed: set[str] = set()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                status = 201
                if self.path.startswith("/gone/"):
                    status = 410
                elif self.path.startswith("/flaky/") and self.path not in service.failed:
                    service.failed.add(self.path)
                    status = 500
                service.got.append(
                    {"path": self.path, "headers": dict(self.headers), "body": body, "status": status}
                )
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.origin = f"http://127.0.0.1:{self.server.server_port}"

    def at(self, path: str) -> list[dict[str, Any]]:
        return [g for g in self.got if g["path"] == path]


@pytest.fixture(scope="module")
def api(live_url: str, worker: Any) -> Client:
    return Client(live_url)


@pytest.fixture(scope="module")
def service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.server.shutdown()


def wait(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def player(api: Client, name: str) -> tuple[dict[str, Any], Client]:
    reply = api.post("/api/v1/players", {"name": f"{name} {uuid4().hex[:6]}"})
    assert reply.status == 201, reply
    return reply.body, api.seat(reply.body["key"])


def subscribe(client: Client, browser: Browser) -> dict[str, Any]:
    reply = client.post("/api/v1/players/me/push", browser.subscription())
    assert reply.status == 201, reply
    return dict(reply.body)


def check_vapid(got: dict[str, Any], server_key: str, origin: str) -> dict[str, Any]:
    """The push service's check: ``Authorization: vapid t=<JWT>, k=<key>``, the key the server
    serves, the JWT's ES256 signature by it, its audience this origin and not expired."""
    scheme, _, params = got["headers"]["Authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert fields["k"] == server_key
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    decoded = json.loads(unb64url(claims))
    assert decoded["aud"] == origin and decoded["exp"] > time.time() and decoded["sub"].startswith("mailto:")
    return dict(decoded)


def turn_to(api: Client, game: dict[str, Any], mine: Client, theirs: Client, seat: int) -> int:
    """Play (each side its first legal move) until ``seat`` comes to move after the other seat's
    move; the version it then moves at."""
    for _ in range(200):
        state = api.get(game_path(game)).body
        mover = mine if seat in state["to_move"] else theirs
        actions = mover.get(game_path(game, "/actions")).body
        reply = mover.post(game_path(game, "/commands"), {**actions[0], "expected_version": state["version"]})
        assert reply.status == 201, reply
        if mover is theirs and seat in reply.body["to_move"]:
            return int(reply.body["version"])
    raise AssertionError("the seat never came to move")


def test_your_turn_is_pushed_encrypted_and_signed(api: Client, service: PushService) -> None:
    me, mine = player(api, "Pushed")
    server_key = api.get("/api/v1/push/key").body["key"]
    assert len(unb64url(server_key)) == 65 and unb64url(server_key)[0] == 4
    browser = Browser(f"{service.origin}/sub/{uuid4().hex}")
    sub = subscribe(mine, browser)
    assert subscribe(mine, browser)["id"] == sub["id"]  # the same endpoint and keys: the same one
    assert [s["id"] for s in mine.get("/api/v1/players/me/push").body] == [sub["id"]]
    game = create(api, GAME, [{"player": me["id"]}, {"name": "Other"}])
    theirs = api.seat(game["seats"][1]["token"])
    version = turn_to(api, game, mine, theirs, 0)
    path = browser.endpoint.removeprefix(service.origin)
    got = wait(
        lambda: [g for g in service.at(path) if browser.read(g["body"])["version"] == version], 30, "push"
    )
    assert len(got) == 1
    message = browser.read(got[0]["body"])
    assert message == {
        "kind": "your_turn",
        "game_id": game["id"],
        "game": GAME,
        "seat": 0,
        "version": version,
        "url": f"/#/game/{game['id']}",
    }
    headers = got[0]["headers"]
    assert headers["Content-Encoding"] == "aes128gcm" and headers["Ttl"] == "86400"
    assert headers["Topic"] == UUID(game["id"]).hex and headers["Urgency"] == "normal"
    check_vapid(got[0], server_key, service.origin)
    # Every push of this game to this browser was for a version where seat 0 had just come to move.
    for g in service.at(path):
        seen = browser.read(g["body"])
        assert seen["kind"] == "your_turn" and seen["seat"] == 0 and seen["game_id"] == game["id"]


def test_a_410_drops_the_subscription_and_a_500_is_tried_again(
    api: Client, service: PushService, pool: Any
) -> None:
    me, mine = player(api, "Gone")
    gone = Browser(f"{service.origin}/gone/{uuid4().hex}")
    flaky = Browser(f"{service.origin}/flaky/{uuid4().hex}")
    gone_sub, flaky_sub = subscribe(mine, gone), subscribe(mine, flaky)
    game = create(api, GAME, [{"player": me["id"]}, {"name": "Other"}])
    theirs = api.seat(game["seats"][1]["token"])
    turn_to(api, game, mine, theirs, 0)
    gone_path = gone.endpoint.removeprefix(service.origin)
    flaky_path = flaky.endpoint.removeprefix(service.origin)
    wait(lambda: [g for g in service.at(flaky_path) if g["status"] == 201], 30, "the retried push")
    assert service.at(flaky_path)[0]["status"] == 500  # the first attempt failed, the next got through
    wait(lambda: [s["id"] for s in mine.get("/api/v1/players/me/push").body] == [flaky_sub["id"]], 30, "drop")
    assert service.at(gone_path) and {g["status"] for g in service.at(gone_path)} == {410}
    with pool.connection() as conn:
        kinds = conn.execute(
            "SELECT type, data FROM push_events WHERE subscription_id = %s ORDER BY position",
            (gone_sub["id"],),
        ).fetchall()
    assert [k["type"] for k in kinds] == [push.ADDED, push.EXPIRED] and kinds[1]["data"] == {"status": 410}
    count = len(service.at(gone_path))
    turn_to(api, game, mine, theirs, 0)  # nothing more is sent to a dropped subscription
    wait(lambda: len(service.at(flaky_path)) >= 3, 30, "the next push")
    assert len(service.at(gone_path)) == count


def test_a_clock_warning_is_pushed_urgent(api: Client, service: PushService) -> None:
    me, mine = player(api, "Clocked")
    browser = Browser(f"{service.origin}/clock/{uuid4().hex}")
    subscribe(mine, browser)
    first = create(api, GAME, [{"name": "probe"}, {"name": "x"}])
    late = first["to_move"][0]
    seats: list[dict[str, Any]] = [{"name": "Patient"}, {"name": "Patient"}]
    seats[late] = {"player": me["id"]}
    game = create(api, GAME, seats, {"clock": {"per_move": "4s", "on_timeout": "bot", "warn_before": "2s"}})
    path = browser.endpoint.removeprefix(service.origin)

    def warnings() -> list[dict[str, Any]]:
        return [g for g in service.at(path) if browser.read(g["body"])["kind"] == "clock_warning"]

    got = wait(warnings, 20, "the clock warning")[0]
    message = browser.read(got["body"])
    assert message["game_id"] == game["id"] and message["seat"] == late and message["game"] == GAME
    assert message["deadline"] == game["deadline"] or datetime.fromisoformat(message["deadline"])
    assert got["headers"]["Urgency"] == "high"
    assert time.time() < datetime.fromisoformat(game["deadline"]).timestamp() + 1


def test_endpoints_pass_the_webhooks_address_checks_and_keys_are_checked(api: Client) -> None:
    _, mine = player(api, "Checked")
    good = Browser("http://127.0.0.1:9/ok").subscription()
    for endpoint in ("http://10.1.2.3/push", "http://127.0.0.2:9/push", "http://[::1]:9/push", "ftp://x/y"):
        reply = mine.post("/api/v1/players/me/push", {**good, "endpoint": endpoint})
        assert reply.status == 422 and reply.body["type"] == "/problems/refused-push-endpoint", reply
    bad_keys = [
        {"p256dh": b64url(b"\x04" + bytes(63)), "auth": good["keys"]["auth"]},  # 64 bytes, not 65
        {"p256dh": b64url(b"\x02" + bytes(64)), "auth": good["keys"]["auth"]},  # not uncompressed
        {"p256dh": b64url(b"\x04" + bytes(64)), "auth": good["keys"]["auth"]},  # not on the curve
        {"p256dh": good["keys"]["p256dh"], "auth": b64url(bytes(15))},  # not 16 bytes
        {"p256dh": good["keys"]["p256dh"], "auth": "!" * 22},  # not base64url
    ]
    for keys in bad_keys:
        reply = mine.post("/api/v1/players/me/push", {**good, "keys": keys})
        assert reply.status == 422 and reply.body["type"] == "/problems/bad-push-subscription", reply
    reply = mine.post("/api/v1/players/me/push", {"endpoint": good["endpoint"]})
    assert reply.status == 422 and "keys" in reply.body["errors"]["json"]
    assert api.post("/api/v1/players/me/push", good).status == 401
    assert mine.get("/api/v1/players/me/push").body == []


def test_unsubscribe_replace_and_the_table_is_the_log_folded(api: Client, pool: Any) -> None:
    first, first_client = player(api, "First")
    _, second_client = player(api, "Second")
    browser = Browser(f"http://127.0.0.1:9/sub/{uuid4().hex}")
    a = subscribe(first_client, browser)
    b = subscribe(second_client, browser)  # the browser changed hands: the first player's is replaced
    assert a["id"] != b["id"] and first_client.get("/api/v1/players/me/push").body == []
    other = Browser(f"http://127.0.0.1:9/sub/{uuid4().hex}")
    c = subscribe(first_client, other)
    assert first_client.request("DELETE", f"/api/v1/players/me/push/{b['id']}").status == 404  # not theirs
    assert first_client.request("DELETE", f"/api/v1/players/me/push/{c['id']}").status == 204
    assert first_client.request("DELETE", f"/api/v1/players/me/push/{c['id']}").status == 404
    with pool.connection() as conn:
        states = {s.id: s.status for s in push.stored(conn).values()}
        assert states[UUID(a["id"])] == "replaced" and states[UUID(b["id"])] == "active"
        assert states[UUID(c["id"])] == "removed"
        assert push.stored(conn) == push.recompute(conn)
        before = push.stored(conn)
        push.rebuild(conn)
        assert push.stored(conn) == before
    assert first["id"]


def test_kotlik_push_check_finds_a_tampered_row_and_rebuild_mends_it(
    api: Client, pool: Any, database_url: str
) -> None:
    def kotlik(*args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "DATABASE_URL": database_url}
        return subprocess.run(
            [sys.executable, "-m", "service.cli", *args], env=env, capture_output=True, text=True, timeout=120
        )

    _, mine = player(api, "Cli")
    sub = subscribe(mine, Browser(f"http://127.0.0.1:9/sub/{uuid4().hex}"))
    assert kotlik("push", "check").returncode == 0
    with pool.connection() as conn:
        conn.execute("UPDATE push_subscriptions SET status = 'removed' WHERE id = %s", (sub["id"],))
    tampered = kotlik("push", "check")
    assert tampered.returncode == 1 and sub["id"] in tampered.stdout and "1 differ" in tampered.stdout, (
        tampered
    )
    assert kotlik("push", "rebuild").returncode == 0
    assert kotlik("push", "check").returncode == 0
    assert [s["id"] for s in mine.get("/api/v1/players/me/push").body] == [sub["id"]]


def test_subscribing_counts_against_the_games_rate_limit(pool: Any, broker: dict[str, str]) -> None:
    """Each subscription is a row of its own, so it counts as a game does (``games`` per address)."""
    from werkzeug.serving import make_server

    from service.app import create_app

    app = create_app(
        pool,
        TESTING=True,
        KOTLIK_RATE_LIMITS="games=2 per 5 seconds,writes=1000/second",
        KOTLIK_RATE_LIMIT_STORAGE="memory://",
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        limited = Client(f"http://127.0.0.1:{server.server_port}")
        _, mine = player(limited, "Limited")  # one
        first = mine.post(
            "/api/v1/players/me/push", Browser(f"http://127.0.0.1:9/{uuid4().hex}").subscription()
        )
        assert first.status == 201  # two
        refused = mine.post(
            "/api/v1/players/me/push", Browser(f"http://127.0.0.1:9/{uuid4().hex}").subscription()
        )
        assert refused.status == 429 and refused.body["type"].endswith("/rate-limited"), refused
        assert mine.get("/api/v1/players/me/push").status == 200  # reading is no write
    finally:
        server.shutdown()
