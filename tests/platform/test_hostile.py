"""Hostile input through real HTTP: no request gives a 500, and abuse is bounded.

Deep JSON is a 400, a huge body a 413 before it is read, a huge page number a 422, too many writes
or wrong tokens a 429 with ``Retry-After`` that lifts once the window is over, a wrong method a
405 with ``Allow``; every one is problem details, and none of them touches the event log.
"""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from httpclient import Client, Reply, create, game_path
from processes import environment, web_process

from service.guard import proxies, ratelimit
from service.guard.limits import MAX_BODY, MAX_DEPTH

GAME = "kupferkessel"
HUMANS = [{"name": "Alice"}, {"name": "Bob"}]
MB = 1024 * 1024


@pytest.fixture(scope="module")
def api(live_url: str) -> Client:
    return Client(live_url)


@pytest.fixture
def game(api: Client) -> dict[str, Any]:
    return create(api, GAME, HUMANS)


def _log(api: Client, game: dict[str, Any]) -> Any:
    """The whole log as the first seat sees it: what no refused request may change."""
    return api.seat(game["seats"][0]["token"]).get(game_path(game, "/events")).body


def _problem(reply: Reply, status: int) -> dict[str, Any]:
    assert reply.status == status, reply
    problem = reply.problem
    assert problem["status"] == status, problem
    return problem


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def _command_with(value: bytes) -> bytes:
    return b'{"type": "brew", "potion": ' + value + b"}"


def test_deep_json_is_a_400_and_appends_nothing(api: Client, game: dict[str, Any]) -> None:
    seat = api.seat(game["seats"][0]["token"])
    before = _log(api, game)
    for depth in (MAX_DEPTH + 1, 1000, 5000, 100_000):
        problem = _problem(api.post("/api/v1/games", raw=_nested(depth)), 400)
        assert "nested deeper" in problem["detail"] or "depth limit" in problem["detail"], problem
        _problem(seat.post(game_path(game, "/commands"), raw=_command_with(_nested(depth))), 400)
    options = b'{"game": "kupferkessel", "seats": [{"name": "A"}, {"name": "B"}], "options": {"x": %s}}'
    deep_options = options % _nested(MAX_DEPTH + 5)
    _problem(api.post("/api/v1/games", raw=deep_options), 400)
    # Within the bound, the same bodies reach the schema and the rules, which refuse them.
    _problem(api.post("/api/v1/games", raw=options % _nested(MAX_DEPTH - 5)), 422)
    _problem(seat.post(game_path(game, "/commands"), raw=_command_with(_nested(MAX_DEPTH - 2))), 422)
    with_nul = b'{"game": "kupferkessel", "seats": [{"name": "A\\u0000"}, {"name": "B"}]}'
    assert "U+0000" in _problem(api.post("/api/v1/games", raw=with_nul), 400)["detail"]
    _problem(seat.post(game_path(game, "/commands"), raw=b'{"type": "brew", "\\u0000": 1}'), 400)
    _problem(api.get("/api/v1/games?game=%00"), 422)
    for malformed in (b'{"type": NaN}', b'{"type": "\\ud800"}', b'{"type": 1e999}', b"\xff\xfe", b"{"):
        _problem(seat.post(game_path(game, "/commands"), raw=malformed), 400)
    assert _log(api, game) == before


def _send_huge(port: int, path: str, size: int, *, chunked: bool, token: str | None) -> tuple[int, float]:
    """POST ``size`` bytes of JSON whitespace, stopping as soon as an answer comes; its status
    and the seconds it took. ``chunked`` sends no Content-Length, so only reading can tell."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        head = f"POST {path} HTTP/1.1\r\nHost: kotlik\r\nContent-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        head += "Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {size}\r\n"
        sock.sendall(f"{head}\r\n".encode())
        piece = b" " * 65536
        framed = f"{len(piece):x}\r\n".encode() + piece + b"\r\n" if chunked else piece
        sent = 0
        try:
            while sent < size and not select.select([sock], [], [], 0)[0]:
                sock.sendall(framed)
                sent += len(piece)
            if chunked and sent >= size:
                sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server stopped reading; its answer is what counts
        answer = b""
        while b"\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
    return status, time.monotonic() - started


def test_a_huge_body_is_a_413_before_it_is_read(api: Client, game: dict[str, Any]) -> None:
    port = int(api.base.rsplit(":", 1)[1])
    before = _log(api, game)
    token = game["seats"][0]["token"]
    for path in ("/api/v1/games", game_path(game, "/commands")):
        for chunked in (False, True):
            status, seconds = _send_huge(port, path, 50 * MB, chunked=chunked, token=token)
            assert status == 413 and seconds < 20, (path, chunked, status, seconds)
    # Just over the bound is refused too, and what the server says is problem details.
    reply = api.post("/api/v1/games", raw=b" " * (MAX_BODY + 1))
    assert "KOTLIK_MAX_BODY" in _problem(reply, 413)["detail"]
    assert _log(api, game) == before


def test_integers_in_queries_are_bounded(api: Client, game: dict[str, Any]) -> None:
    before = _log(api, game)
    huge = "79446782910002810673168384"
    pages = (f"page={huge}", "page=0", "page=-1", "page=2147483648", f"page_size={huge}", "page_size=101")
    for query in pages:
        problem = _problem(api.get(f"/api/v1/games?{query}"), 422)
        assert query.split("=")[0] in str(problem.get("errors")), problem
    assert api.get("/api/v1/games?page=2147483647&page_size=100").status == 200  # the last page: empty
    for rest in (f"/state?at={huge}", f"/state?since={huge}", f"/state?wait={huge}", f"/events?after={huge}"):
        _problem(api.get(game_path(game, rest)), 422)
    _problem(api.get(game_path(game, f"/stream?after={huge}")), 422)
    for odd in ("²", huge):  # digits to str.isdigit, yet no version
        _problem(api.get(game_path(game, "/stream"), headers={"Last-Event-ID": odd}), 422)
        assert api.get(game_path(game, "/state"), headers={"If-None-Match": f'"{odd}"'}).status == 200
    assert _log(api, game) == before


def test_a_stream_of_no_game_or_with_a_wrong_token_is_refused(api: Client, game: dict[str, Any]) -> None:
    """A spectator's stream takes its row from the shared rows and a seat's checks its token after:
    an unknown game is a 404 either way, before a wrong token is a 401."""
    nowhere = f"/api/v1/games/{'0' * 8}-0000-4000-8000-{'0' * 12}/stream"
    _problem(api.get(nowhere), 404)
    _problem(api.seat("forged").get(nowhere), 404)
    _problem(api.seat("forged").get(game_path(game, "/stream")), 401)
    _problem(api.get(game_path(game, "/stream"), headers={"Authorization": "Basic eDp5"}), 401)


def test_a_wrong_method_is_a_405_with_allow(api: Client, game: dict[str, Any]) -> None:
    before = _log(api, game)
    for method, path, allowed in (
        ("DELETE", "/api/v1/games", {"GET", "POST"}),
        ("PUT", game_path(game, "/commands"), {"POST"}),
        ("POST", game_path(game), {"GET"}),
        ("PATCH", "/api/v1/catalog", {"GET"}),
    ):
        reply = api.request(method, path, {"type": "brew"})
        _problem(reply, 405)
        assert allowed <= {m.strip() for m in reply.headers["Allow"].split(",")}, reply.headers
    _problem(api.get("/api/v1/nowhere"), 404)
    assert _log(api, game) == before


# Rate limits: an app of its own with small limits and counters in its memory, reset per test.
LIMITS = (
    "games=3 per 3 seconds,commands=4 per 3 seconds,writes=1000/second,"
    "unauthorized=3 per 3 seconds,wrong_token=2 per 3 seconds"
)


@pytest.fixture(scope="module")
def limited_app(pool: Any, broker: dict[str, str]) -> Any:
    from service.app import create_app

    return create_app(pool, TESTING=True, KOTLIK_RATE_LIMITS=LIMITS, KOTLIK_RATE_LIMIT_STORAGE="memory://")


@pytest.fixture(scope="module")
def proxied_app(pool: Any, broker: dict[str, str]) -> Any:
    """The limited app behind one reverse proxy (``KOTLIK_PROXIES=1``)."""
    from service.app import create_app

    return create_app(
        pool, TESTING=True, KOTLIK_RATE_LIMITS=LIMITS, KOTLIK_RATE_LIMIT_STORAGE="memory://", KOTLIK_PROXIES=1
    )


def _served(app: Any) -> Iterator[Client]:
    from werkzeug.serving import make_server

    app.extensions["kotlik.rate_limits"].strategy.storage.reset()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Client(f"http://127.0.0.1:{server.server_port}")
    server.shutdown()


@pytest.fixture
def limited(limited_app: Any) -> Iterator[Client]:
    yield from _served(limited_app)


@pytest.fixture
def proxied(proxied_app: Any) -> Iterator[Client]:
    yield from _served(proxied_app)


def _retry_after(reply: Reply) -> int:
    problem = _problem(reply, 429)
    assert problem["type"].endswith("/rate-limited"), problem
    wait = int(reply.headers["Retry-After"])
    assert 1 <= wait <= 3, reply.headers
    return wait


def test_creating_games_is_limited_per_address_then_recovers(limited: Client) -> None:
    for _ in range(3):
        create(limited, GAME, HUMANS)
    bad = limited.post("/api/v1/games", {"game": "chess", "seats": HUMANS})
    time.sleep(_retry_after(bad))
    create(limited, GAME, HUMANS)


def test_commands_are_limited_per_token_then_recover(limited: Client) -> None:
    game = create(limited, GAME, HUMANS)
    first, second = (limited.seat(s["token"]) for s in game["seats"])
    before = _log(limited, game)
    refusals = [first.post(game_path(game, "/commands"), {"type": "nonsense"}) for _ in range(4)]
    assert 429 not in [r.status for r in refusals], refusals
    wait = _retry_after(first.post(game_path(game, "/commands"), {"type": "nonsense"}))
    assert second.post(game_path(game, "/commands"), {"type": "nonsense"}).status in (
        409,
        422,
    )  # its own count
    for _ in range(50):  # reads are not limited
        assert first.get(game_path(game, "/state")).status == 200
    assert _log(limited, game) == before
    time.sleep(wait)
    assert first.post(game_path(game, "/commands"), {"type": "nonsense"}).status in (409, 422)


def test_wrong_tokens_are_limited_yet_valid_ones_from_the_same_address_are_served(limited: Client) -> None:
    """Past the address's limit a wrong token is 429, while the seats sharing its address play on."""
    game = create(limited, GAME, HUMANS)
    owner, other = (limited.seat(s["token"]) for s in game["seats"])
    before = _log(limited, game)
    for n in range(3):  # each a token of its own: the address's limit, not a token's
        _problem(limited.seat(f"forged-{n}").post(game_path(game, "/commands"), {"type": "brew"}), 401)
    wait = _retry_after(limited.seat("forged-3").get(game_path(game, "/state")))
    _retry_after(limited.seat("forged-4").post(game_path(game, "/commands"), {"type": "brew"}))
    for _ in range(3):  # the valid tokens of the same address: never refused for others' failures
        assert owner.get(game_path(game, "/state")).status == 200
        assert other.get(game_path(game, "/actions")).status == 200
        assert owner.post(game_path(game, "/commands"), {"type": "nonsense"}).status in (409, 422)
    assert limited.get(game_path(game, "/state")).status == 200  # spectators guess nothing
    # No token where one is needed: 401 with its challenge, before and apart from any limit.
    missing = limited.post(game_path(game, "/commands"), {"type": "brew"})
    _problem(missing, 401)
    assert missing.headers["WWW-Authenticate"] == "Bearer", missing
    time.sleep(wait)
    reply = limited.seat("forged-5").get(game_path(game, "/state"))
    _problem(reply, 401)
    assert "invalid_token" in reply.headers["WWW-Authenticate"], reply
    assert _log(limited, game) == before


def test_a_token_that_keeps_failing_is_refused_from_any_address(proxied: Client) -> None:
    """Per token tried: the same wrong token from three addresses is refused the third time,
    before it is looked up, while another address's valid token is served."""
    game = create(proxied, GAME, HUMANS)
    path = game_path(game, "/state")
    statuses = [_from(proxied, f"203.0.113.{n}").seat("forged").get(path).status for n in range(3)]
    assert statuses == [401, 401, 429], statuses
    valid = Client(proxied.base, token=game["seats"][0]["token"], extra={"X-Forwarded-For": "203.0.113.0"})
    assert valid.get(path).status == 200
    assert _from(proxied, "203.0.113.9").seat("another").get(path).status == 401


def _from(client: Client, forwarded_for: str) -> Client:
    return Client(client.base, extra={"X-Forwarded-For": forwarded_for})


def test_behind_a_proxy_each_client_it_forwards_has_its_own_limits(proxied: Client) -> None:
    alice, bob = _from(proxied, "203.0.113.7"), _from(proxied, "203.0.113.8")
    for _ in range(3):
        create(alice, GAME, HUMANS)
    _retry_after(alice.post("/api/v1/games", {"game": GAME, "seats": HUMANS}))
    create(bob, GAME, HUMANS)
    # Only the proxy's own entry, the last, is believed: what alice wrote before it changes nothing.
    forging = _from(proxied, "198.51.100.1, 203.0.113.7")
    _retry_after(forging.post("/api/v1/games", {"game": GAME, "seats": HUMANS}))


def test_with_no_proxy_configured_a_forwarded_address_is_not_believed(limited: Client) -> None:
    for n in range(3):
        create(_from(limited, f"203.0.113.{n}"), GAME, HUMANS)
    _retry_after(_from(limited, "203.0.113.99").post("/api/v1/games", {"game": GAME, "seats": HUMANS}))


def test_proxy_settings() -> None:
    assert proxies.hops({"KOTLIK_PROXIES": "0"}) == 0 and proxies.hops({"KOTLIK_PROXIES": "2"}) == 2
    for wrong in ("two", "-1"):
        with pytest.raises(ValueError, match="KOTLIK_PROXIES"):
            proxies.hops({"KOTLIK_PROXIES": wrong})


def test_rate_limit_settings() -> None:
    assert ratelimit.parse_limits("off") == {}
    chosen = ratelimit.parse_limits("commands=100/second, games=off")
    assert "games" not in chosen and chosen["commands"].amount == 100 and "writes" in chosen
    for wrong in ("nonsense=1/second", "commands", "commands=lots"):
        with pytest.raises(ValueError, match="KOTLIK_RATE_LIMITS"):
            ratelimit.parse_limits(wrong)
    assert ratelimit.storage_uri({"CELERY_BROKER_URL": "redis://h:6379/0"}) == "redis://h:6379/0"
    assert ratelimit.storage_uri({"CELERY_BROKER_URL": "amqp://h", "KOTLIK_RATE_LIMIT_STORAGE": None}) in (
        "memory://",
        ratelimit.storage_uri({}),
    )


def test_kotlik_web_refuses_huge_bodies_without_growing(broker: dict[str, str], tmp_path: Path) -> None:
    """Four 50 MB bodies at once, chunked (no Content-Length to refuse them by), against gunicorn."""
    with web_process(environment(**broker), tmp_path / "web.log") as (web, process):
        game = create(web, GAME, HUMANS)
        port = int(web.base.rsplit(":", 1)[1])
        workers = psutil.Process(process.pid).children(recursive=True)
        rss_before = sum(p.memory_info().rss for p in workers)
        results: list[tuple[int, float]] = []
        paths = ["/api/v1/games", game_path(game, "/commands")] * 2
        threads = [
            threading.Thread(
                target=lambda p=path: results.append(
                    _send_huge(port, p, 50 * MB, chunked=True, token=game["seats"][0]["token"])
                )
            )
            for path in paths
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        grown = sum(p.memory_info().rss for p in workers) - rss_before
        assert sorted(status for status, _ in results) == [413] * 4, results
        assert max(seconds for _, seconds in results) < 30, results
        assert grown < 40 * MB, grown
        assert web.get(game_path(game)).status == 200
