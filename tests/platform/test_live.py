"""Waiting clients hold no thread: ``kotlik web`` (gunicorn, gevent) keeps answering short requests
while hundreds of streams and long-polls are open, and every one of them gets what it waits for."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from httpclient import Client, create
from processes import descendants, environment, kotlik_web, web_process

STREAMS = 300
POLLS = 100


@pytest.fixture
def web(broker: dict[str, str], tmp_path: Path) -> Iterator[Client]:
    """``kotlik web`` with one gunicorn process, as a user runs it."""
    with kotlik_web(environment(**broker), tmp_path / "web.log") as api:
        yield api


def _open(port: int, path: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: kotlik\r\nConnection: close\r\n\r\n".encode())
    return sock


def _read_until(sock: socket.socket, needle: bytes, timeout: float) -> bytes:
    data = b""
    deadline = time.monotonic() + timeout
    while needle not in data and time.monotonic() < deadline:
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        if not chunk:
            break
        data += chunk
    return data


def test_short_requests_flow_while_streams_and_long_polls_wait(web: Client) -> None:
    port = int(web.base.rsplit(":", 1)[1])
    game = create(web, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    path = f"/api/v1/games/{game['id']}"
    version = game["version"]
    streams = [_open(port, f"{path}/stream?after={version}") for _ in range(STREAMS)]
    polls = [_open(port, f"{path}/state?wait=50&since={version}") for _ in range(POLLS)]
    try:
        time.sleep(1)
        for _ in range(5):
            assert web.get("/api/v1/catalog", timeout=10).status == 200
        seats = {s["seat"]: web.seat(s["token"]) for s in game["seats"]}
        for _ in range(3):
            to_move = web.get(path).body["to_move"][0]
            command = seats[to_move].get(f"{path}/actions").body[0]
            reply = seats[to_move].post(f"{path}/commands", command)
            assert reply.status == 201
        last = reply.body["version"]
        seen = [_read_until(s, f"id: {last}\n".encode(), 30) for s in streams]
        assert all(f"id: {v}\n".encode() in s for s in seen for v in range(version + 1, last + 1))
        answered = [_read_until(p, b'"version"', 30) for p in polls]
        assert all(a.startswith(b"HTTP/1.1 200") for a in answered), answered[0][:200]
    finally:
        for sock in streams + polls:
            sock.close()


BURST = 40


def _gunicorn_workers(pid: int) -> list[psutil.Process]:
    """The gunicorn workers under ``kotlik web`` (``pid``), not their master."""
    gunicorn = [p for p in descendants(pid) if "gunicorn" in " ".join(p.cmdline())]
    return [p for p in gunicorn if p.ppid() in {g.pid for g in gunicorn}]


def _held(workers: list[psutil.Process], clients: set[tuple[str, int]]) -> list[int]:
    """How many of the ``clients``' connections (their local addresses) each worker holds."""
    return [sum(1 for c in w.net_connections("tcp") if c.raddr in clients) for w in workers]


def test_a_burst_of_connections_is_spread_over_the_workers(broker: dict[str, str], tmp_path: Path) -> None:
    """Clients that connect at once (a page of tabs, a load balancer's pool) are served by every
    worker, not queued behind the one that woke first."""
    with web_process(environment(**broker), tmp_path / "web.log", workers=2) as (web, process):
        port = int(web.base.rsplit(":", 1)[1])
        workers = _gunicorn_workers(process.pid)
        assert len(workers) == 2
        clients = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(BURST)]
        try:
            for sock in clients:
                sock.sendall(b"GET /health HTTP/1.1\r\nHost: kotlik\r\n\r\n")
            heads = [_read_until(s, b"\r\n\r\n", 30) for s in clients]
            assert all(h.startswith(b"HTTP/1.1 200") for h in heads)
            # a worker over its share may let one go (the test below): it closes, it is not held
            kept = {
                s.getsockname()
                for s, h in zip(clients, heads, strict=True)
                if b"\r\nconnection: close" not in h.lower()
            }
            held = _held(workers, kept)
        finally:
            for sock in clients:
                sock.close()
    assert sum(held) == len(kept) >= BURST * 9 // 10
    assert min(held) >= BURST // 5, held  # a fair split is 20:20; one socket for both gave 40:0


SPREAD = 200
#: Seconds the workers may take to even out the split (a worker lets one connection go per 50 ms).
SETTLE = 30


def _answer(sock: socket.socket) -> bytes:
    """One whole answer of known length: its head (the body is read and dropped)."""
    head, _, body = _read_until(sock, b"\r\n\r\n", 30).partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "the connection closed within an answer"
        body += chunk
    return head


def test_keep_alive_connections_end_evenly_spread_over_the_workers(
    broker: dict[str, str], tmp_path: Path
) -> None:
    """The kernel hashes each new connection to a worker, and a keep-alive connection stays with it:
    200 clients are split evenly one time in 18. A worker over its share answers some with
    ``Connection: close``; each client connects again and is hashed anew, until the split is even."""
    with web_process(environment(**broker), tmp_path / "web.log", workers=2) as (web, process):
        port = int(web.base.rsplit(":", 1)[1])
        workers = _gunicorn_workers(process.pid)
        clients = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(SPREAD)]
        splits, told = [], 0
        try:
            deadline = time.monotonic() + SETTLE
            while time.monotonic() < deadline:
                for sock in clients:
                    sock.sendall(b"GET /health HTTP/1.1\r\nHost: kotlik\r\n\r\n")
                heads = [_answer(sock) for sock in clients]
                assert all(h.startswith(b"HTTP/1.1 200") for h in heads)
                closing = [i for i, h in enumerate(heads) if b"\r\nconnection: close" in h.lower()]
                told += len(closing)
                for i in closing:
                    clients[i].close()
                    clients[i] = socket.create_connection(("127.0.0.1", port), timeout=30)
                splits.append(_held(workers, {s.getsockname() for s in clients}))
                if not closing and max(splits[-1]) - min(splits[-1]) <= 1:
                    break
        finally:
            for sock in clients:
                sock.close()
    assert sum(splits[-1]) == SPREAD
    assert max(splits[-1]) - min(splits[-1]) <= 1, (splits[0], splits[-1], told)
