"""Requests whose bodies never arrive, against ``kotlik web`` (gunicorn, gevent) on loopback.

A few hundred connections from one address send a request's head with ``Content-Length: 10``
and then nothing; one more drips its body a byte at a time. The server is started with a small
connection limit, a short request timeout and a small share of waiting connections per address:
the silent ones past that share are answered 429 at once, the rest 408 within the timeout, and
every one is closed; probes from another loopback address keep answering throughout, and a
long-poll and a stream opened before the attack outlive the timeout untouched.
"""

from __future__ import annotations

import http.client
import json
import selectors
import socket
import threading
import time
from pathlib import Path
from typing import Any

from httpclient import create, game_path
from processes import environment, web_process

from service.server.arrival import Arrivals

GAME = "kupferkessel"
HUMANS = [{"name": "Alice"}, {"name": "Bob"}]
TIMEOUT = 2
PER_ADDRESS = 40
SILENT = 300
#: The attack's address, and the probes': both loopback, so a real second client.
ATTACKER, PROBE = "127.0.0.1", "127.0.0.2"


def _silent(port: int, path: str, token: str | None = None, source: str = ATTACKER) -> socket.socket:
    """A connection that sends a request's head, promising a body of 10 bytes, and nothing more."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    head = f"POST {path} HTTP/1.1\r\nHost: kotlik\r\nContent-Type: application/json\r\nContent-Length: 10\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    sock.sendall(f"{head}\r\n".encode())
    return sock


def _answers(socks: list[socket.socket], within: float) -> list[tuple[int, float, bytes]]:
    """Each connection's status (0: closed with no answer, -1: still open), when it closed after
    the start, and its body, waiting at most ``within`` seconds for all of them to close."""
    started = time.monotonic()
    received = {sock: b"" for sock in socks}
    closed: dict[socket.socket, float] = {}
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            selector.register(sock, selectors.EVENT_READ)
        while len(closed) < len(socks) and time.monotonic() - started < within:
            for key, _ in selector.select(0.2):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    chunk = sock.recv(65536)
                except ConnectionResetError:
                    chunk = b""
                received[sock] += chunk
                if not chunk:
                    closed[sock] = time.monotonic() - started
                    selector.unregister(sock)
    results = []
    for sock in socks:
        data = received[sock]
        status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else (0 if sock in closed else -1)
        results.append((status, closed.get(sock, float("inf")), data.partition(b"\r\n\r\n")[2]))
        sock.close()
    return results


def _probe(port: int, path: str = "/health") -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(PROBE, 0))
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    finally:
        connection.close()


def test_silent_bodies_are_answered_and_closed_while_others_are_served(
    broker: dict[str, str], tmp_path: Path
) -> None:
    env = environment(
        **broker,
        KOTLIK_REQUEST_TIMEOUT=str(TIMEOUT),
        KOTLIK_WAITING_PER_ADDRESS=str(PER_ADDRESS),
        KOTLIK_WEB_CONNECTIONS=str(SILENT // 2),
        KOTLIK_RATE_LIMITS="off",
    )
    with web_process(env, tmp_path / "web.log") as (web, _):
        port = int(web.base.rsplit(":", 1)[1])
        game = create(web, GAME, HUMANS)
        token = game["seats"][0]["token"]
        # Opened before the attack, both outlive the request timeout: a long-poll and a stream.
        poll: list[int] = []
        waiting = game_path(game, f"/state?since={game['version']}&wait=4")
        poll_thread = threading.Thread(target=lambda: poll.append(_probe(port, waiting)))
        poll_thread.start()
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(PROBE, 0))
        stream.request("GET", game_path(game, "/stream"))
        stream_reply = stream.getresponse()
        assert stream_reply.status == 200 and stream_reply.read1(65536).startswith(b"retry")

        # The app reads a new game's body (Flask); a seat's command is read beneath it.
        # In turn, so that both are among those let wait: the app answers the first's 408, the
        # worker the second's, which the layer beneath the app was reading.
        paths = [("/api/v1/games", None), (game_path(game, "/commands"), token)] * (SILENT // 2)
        silent = [_silent(port, path, sent) for path, sent in paths]
        dripping = _silent(port, "/api/v1/games", source="127.0.0.3")
        probes = []
        for _ in range(3):
            began = time.monotonic()
            probes.append((_probe(port), time.monotonic() - began))
            dripping.sendall(b" ")
            time.sleep(0.5)
        results = _answers([*silent, dripping], within=TIMEOUT + 6)

        assert [status for status, _ in probes] == [200] * 3 and max(s for _, s in probes) < 2, probes
        statuses = [status for status, _, _ in results]
        assert statuses.count(408) == PER_ADDRESS + 1, statuses  # the dripping one from its own address
        assert statuses.count(429) == SILENT - PER_ADDRESS, statuses
        assert results[-1][0] == 408
        timed_out = {path for (path, _), (status, _, _) in zip(paths, results, strict=False) if status == 408}
        assert timed_out == {path for path, _ in paths}, timed_out
        for status, closed_after, body in results:
            assert closed_after < TIMEOUT + 3, (status, closed_after)
            problem = json.loads(body)
            assert problem["status"] == status, problem
            if status == 408:
                assert "KOTLIK_REQUEST_TIMEOUT" in problem["detail"], problem
            else:
                assert "KOTLIK_WAITING_PER_ADDRESS" in problem["detail"], problem
        assert _probe(port) == 200
        poll_thread.join(10)
        assert poll == [304], poll  # the long-poll waited its whole 4 s, past the timeout
        assert _open(stream.sock), "the stream was closed"
        stream.close()
        assert web.get(game_path(game, "/events")).body  # nothing was played by the silent ones


def _open(sock: Any) -> bool:
    """Whether the server has not closed ``sock``: nothing to read yet, or more of the stream."""
    try:
        peeked = sock.recv(16, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except (BlockingIOError, TimeoutError):  # nothing to read, the socket having a timeout or not
        return True
    return bool(peeked) and not peeked.startswith(b"0\r\n")


def test_arrival_settings(monkeypatch: Any) -> None:
    monkeypatch.delenv("KOTLIK_WAITING_PER_ADDRESS", raising=False)
    monkeypatch.setenv("KOTLIK_PROXIES", "1")
    assert Arrivals.from_environment().per_address is None  # the proxy's address carries everyone
    monkeypatch.setenv("KOTLIK_WAITING_PER_ADDRESS", "7")
    assert Arrivals.from_environment().per_address == 7
    monkeypatch.setenv("KOTLIK_REQUEST_TIMEOUT", "soon")
    try:
        Arrivals.from_environment()
    except ValueError as e:
        assert "KOTLIK_REQUEST_TIMEOUT" in str(e)
    else:
        raise AssertionError("a timeout that is not a number was taken")
