"""A database that goes away gives clients 503 problem details with ``Retry-After``, in bounded time;
one that comes up after the server does is waited for.

The first test owns its PostgreSQL (an embedded server in a temporary folder) and stops it by
SIGKILL; the machine's shared server is never touched. The second puts a door of its own in front
of the test database: a port that refuses connections until it opens.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from events.database import RECONNECT_SECONDS, create_pool, embedded_server, migrate


def test_requests_answer_503_while_the_database_is_down(broker: dict[str, str], tmp_path: Path) -> None:
    from service.app import create_app

    server = embedded_server(tmp_path / "pgdata", cleanup_mode="delete")
    try:
        url = str(server.get_uri())
        migrate(url)
        pool = create_pool(url, max_size=2)
        app = create_app(pool, TESTING=True)
        client = _client(app)
        created = client.post(
            "/api/v1/games", json={"game": "kupferkessel", "seats": [{"name": "A"}, {"name": "B"}]}
        )
        assert created.status_code == 201
        key = client.post("/api/v1/players", json={"name": "outage-seeker"}).json["key"]
        bearer = {"Authorization": f"Bearer {key}"}
        seek = client.post("/api/v1/seeks", json={"game": "kupferkessel", "seats": 2}, headers=bearer)
        assert seek.status_code == 201 and seek.json["status"] == "waiting"
        postmaster = psutil.Process(server.get_pid())
        for process in [postmaster, *postmaster.children(recursive=True)]:
            process.send_signal(signal.SIGKILL)  # backends outlive a lone postmaster for a while
        for path in (f"/api/v1/games/{created.json['id']}", "/api/v1/games", "/ready"):
            started = time.monotonic()
            reply = client.get(path)
            assert reply.status_code == 503, (path, reply.status_code, reply.get_data(as_text=True))
            assert reply.mimetype == "application/problem+json" and int(reply.headers["Retry-After"]) > 0
            assert time.monotonic() - started < 30
        # A long-poll is answered within its wait (and the grace for a last read): a spectator's,
        # beneath Flask, and a seat's, through it; two at once, the second behind the first's read.
        polled = f"/api/v1/games/{created.json['id']}/state?since={created.json['version']}&wait=3"
        seat = {"Authorization": f"Bearer {created.json['seats'][0]['token']}"}
        took: list[tuple[int, float]] = []

        def poll(headers: dict[str, str]) -> None:
            started = time.monotonic()
            reply = _client(app).get(polled, headers=headers)
            took.append((reply.status_code, time.monotonic() - started))

        polls = [threading.Thread(target=poll, args=(h,)) for h in ({}, {}, seat)]
        for thread in polls:
            thread.start()
        for thread in polls:
            thread.join(30)
        assert [status for status, _ in took] == [503] * 3, took
        assert max(seconds for _, seconds in took) < 3 + 1.5, took
        started = time.monotonic()  # a waiting seek's long-poll too
        reply = client.get(f"/api/v1/seeks/{seek.json['id']}?wait=3")
        assert reply.status_code == 503 and time.monotonic() - started < 3 + 1.5, reply
        pool.close(timeout=1)
    finally:
        with contextlib.suppress(ProcessLookupError, psutil.NoSuchProcess, subprocess.CalledProcessError):
            server.cleanup()  # its postmaster was killed above


def _client(app: Any) -> Any:
    return app.test_client()


#: Longer than a run of reconnections lasts once a pool is up (:data:`RECONNECT_SECONDS`).
LATE = RECONNECT_SECONDS + 1.0


def test_a_pool_started_before_its_database_waits_for_it(database_url: str) -> None:
    """A server may start a moment before PostgreSQL does (a container's start order): its pool
    keeps trying for its whole wait at start, even though once up it gives a run up sooner."""
    with _late_door(database_url, LATE) as url:
        started = time.monotonic()
        pool = create_pool(url, max_size=1)
        try:
            assert time.monotonic() - started >= LATE
            with pool.connection() as conn:
                assert conn.execute("SELECT 1 AS one").fetchone() == {"one": 1}
        finally:
            pool.close(timeout=1)


@contextlib.contextmanager
def _late_door(url: str, opens_after: float) -> Iterator[str]:
    """A URL for ``url``'s database through a local port that refuses connections for
    ``opens_after`` seconds and then forwards each to the database."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    stop = threading.Event()
    opener = threading.Thread(target=_open_later, args=(port, url, opens_after, stop), daemon=True)
    opener.start()
    try:
        yield make_conninfo(url, host="127.0.0.1", port=str(port), hostaddr="")
    finally:
        stop.set()
        opener.join(timeout=5)


def _open_later(port: int, url: str, delay: float, stop: threading.Event) -> None:
    if stop.wait(delay):
        return
    with socket.create_server(("127.0.0.1", port)) as door:
        door.settimeout(0.2)
        while not stop.is_set():
            try:
                client, _ = door.accept()
            except TimeoutError:
                continue
            database = _connect(url)
            for a, b in ((client, database), (database, client)):
                threading.Thread(target=_pipe, args=(a, b), daemon=True).start()


def _connect(url: str) -> socket.socket:
    """A socket to the database ``url`` names, by TCP or by its Unix socket (an embedded server)."""
    params = conninfo_to_dict(url)
    host, port = str(params.get("host") or "127.0.0.1"), int(params.get("port") or 5432)
    if host.startswith("/"):
        unix = socket.socket(socket.AF_UNIX)
        unix.connect(f"{host}/.s.PGSQL.{port}")
        return unix
    return socket.create_connection((host, port))


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            sink.sendall(data)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)
