"""The web worker accepts, in one wake-up, every connection waiting on its own socket, writes a
short answer in one piece, and reads each of gunicorn's settings once."""

from __future__ import annotations

import os
import socket
import threading
from collections import Counter
from typing import Any

import gevent
from gevent import socket as green
from gevent.server import StreamServer
from gunicorn.config import Config
from gunicorn.glogging import Logger
from gunicorn.http.parser import RequestParser

from service.server.webworker import BurstServer, SettledConfig, Worker

BURST = 20


class _Counting(BurstServer):
    """Notes how many connections had been accepted when the first one was handled."""

    def __init__(self, listener: Any) -> None:
        super().__init__(listener, handle=self._handled)
        self.accepted = 0
        self.seen_first: int | None = None
        self.handled = 0

    def do_read(self) -> Any:
        taken = super().do_read()
        self.accepted += taken is not None
        return taken

    def _handled(self, client: Any, address: Any) -> None:
        if self.seen_first is None:
            self.seen_first = self.accepted
        self.handled += 1
        client.close()


def test_a_burst_is_accepted_in_one_wake_up_whatever_gunicorn_sets() -> None:
    """gunicorn sets ``max_accept = 1`` for several workers (meant for a shared socket): each
    connection of a burst then waited a turn of a busy event loop. Here the handlers start only
    after the whole burst is in."""
    listener = green.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(BURST * 2)
    server = _Counting(listener)
    server.max_accept = 1
    clients = [socket.create_connection(listener.getsockname(), timeout=10) for _ in range(BURST)]
    try:
        server.start()
        with gevent.Timeout(10):
            while server.handled < BURST:
                gevent.sleep(0.01)
    finally:
        server.stop()
        for client in clients:
            client.close()
    assert server.seen_first == BURST
    assert server.max_accept == StreamServer.max_accept > 1


class _Written:
    """A real socket that notes each write gunicorn makes to it, in ``writes``."""

    def __init__(self, sock: socket.socket, writes: list[bytes]) -> None:
        self.sock = sock
        self.writes = writes

    def send(self, data: bytes) -> int:
        sent = self.sock.send(data)
        self.writes.append(bytes(data[:sent]))
        return sent

    def sendall(self, data: bytes) -> None:
        self.writes.append(bytes(data))
        self.sock.sendall(data)

    def sendfile(self, file: Any, offset: int = 0, count: int | None = None) -> int:
        self.writes.append(b"<file>")
        return self.sock.sendfile(file, offset, count)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)


def _served(app: Any, writes: list[bytes] | None = None) -> tuple[list[bytes], bytes]:
    """What the worker wrote for one request answered by ``app``, write by write (into ``writes``
    if given), and what the client read."""
    config = Config()
    worker = Worker(0, os.getpid(), [], None, 30, config, Logger(config))
    worker.wsgi = app
    writes = [] if writes is None else writes
    read = bytearray()
    server, client = socket.socketpair()
    with server, client:
        client.sendall(b"GET / HTTP/1.1\r\nHost: kotlik\r\n\r\n")
        reader = threading.Thread(target=lambda: read.extend(b"".join(iter(lambda: client.recv(65536), b""))))
        reader.start()
        server.settimeout(10)  # a send then takes what fits, as on gevent's sockets
        parsed = next(RequestParser(config, server, ("127.0.0.1", 1)))
        worker.handle_request("test", parsed, _Written(server, writes), ("127.0.0.1", 1))
        server.shutdown(socket.SHUT_WR)
        reader.join(10)
    return writes, bytes(read)


def test_a_short_answer_is_written_in_one_piece() -> None:
    """gunicorn writes a head and then its body: two system calls and two segments, each waking
    the client. Head and body go out together."""

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response("201 CREATED", [("Content-Type", "application/json"), ("Content-Length", "13")])
        return [b'{"version":7}']

    writes, read = _served(app)
    assert len(writes) == 1
    assert writes[0].startswith(b"HTTP/1.1 201 CREATED\r\n")
    assert writes[0].endswith(b'\r\n\r\n{"version":7}')
    assert read == writes[0]


def test_an_answer_with_no_body_still_gets_its_head() -> None:
    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response("304 NOT MODIFIED", [("ETag", '"7"')])
        return []

    writes, read = _served(app)
    assert [w.split(b"\r\n")[0] for w in writes] == [b"HTTP/1.1 304 NOT MODIFIED"]
    assert read.endswith(b'ETag: "7"\r\n\r\n')


def test_a_streams_head_and_each_of_its_frames_go_out_at_once() -> None:
    """A stream's head is not held for a frame that may come much later, nor a frame for the next."""
    writes: list[bytes] = []
    written_before: list[int] = []

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        start_response("200 OK", [("Content-Type", "text/event-stream")])

        def frames() -> Any:
            for frame in (b"retry: 2000\n\n", b"id: 1\n\n"):
                written_before.append(len(writes))
                yield frame

        return frames()

    _, read = _served(app, writes)
    assert b"Transfer-Encoding: chunked" in writes[0]
    assert writes[1:] == [b"D\r\nretry: 2000\n\n\r\n", b"7\r\nid: 1\n\n\r\n", b"0\r\n\r\n"]
    assert written_before == [0, 2]  # the second frame is made once the head and the first are out
    assert read == b"".join(writes)


def test_an_answer_larger_than_the_sockets_buffer_arrives_whole() -> None:
    """A send takes what fits in the socket's buffer; the rest follows as the client reads."""
    body = bytes(range(256)) * 16384  # 4 MiB

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        headers = [("Content-Type", "application/octet-stream"), ("Content-Length", str(len(body)))]
        start_response("200 OK", headers)
        return [body]

    writes, read = _served(app)
    assert len(writes) > 1
    assert read.endswith(b"\r\n\r\n" + body)


def test_a_file_follows_its_head(tmp_path: Any) -> None:
    path = tmp_path / "board.svg"
    path.write_bytes(b"<svg/>")

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        start_response("200 OK", [("Content-Type", "image/svg+xml"), ("Content-Length", "6")])
        return environ["wsgi.file_wrapper"](path.open("rb"))

    writes, read = _served(app)
    assert writes[1:] == [b"<file>"]
    assert writes[0].startswith(b"HTTP/1.1 200 OK\r\n")
    assert read == writes[0] + b"<svg/>"


def test_a_worker_reads_each_of_gunicorns_settings_once() -> None:
    config = Config()
    config.set("keepalive", 7)
    config.set("forwarded_allow_ips", "10.0.0.0/8")
    reads: Counter[str] = Counter()

    class Counted:
        """gunicorn's settings, counting the reads that reach them."""

        def __getattr__(self, name: str) -> Any:
            reads[name] += 1
            return getattr(config, name)

    settled = SettledConfig(Counted())
    assert [settled.keepalive, settled.keepalive] == [7, 7]
    assert settled.forwarded_allow_networks() == config.forwarded_allow_networks()
    assert not settled.is_ssl
    assert reads == {"keepalive": 1, "forwarded_allow_networks": 1, "is_ssl": 1}
