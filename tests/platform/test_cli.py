"""``kotlik up`` runs migrations, a worker and gunicorn and keeps them up; kotlik stops its children."""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
from httpclient import Client
from processes import alive, descendants, environment, free_port, kotlik, stop, wait_for_line, wait_until

ROOT = Path(__file__).resolve().parents[2]


def test_kotlik_up_serves_and_stops_on_sigterm(broker: dict[str, str], tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "up.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "service.cli",
                "up",
                "--port",
                str(port),
                "--workers",
                "1",
                "--concurrency",
                "1",
            ],
            cwd=ROOT,
            env={**os.environ, **broker, "KOTLIK_DATA": str(tmp_path)},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    api = Client(f"http://127.0.0.1:{port}")
    try:
        deadline = time.monotonic() + 60
        reply: Any = None
        while time.monotonic() < deadline and process.poll() is None:
            try:
                reply = api.get("/api/v1/catalog", timeout=2)
                break
            except OSError:
                time.sleep(0.3)
        assert reply is not None and reply.status == 200, log.read_text()
        assert {g["game"] for g in reply.body} >= {"kupferkessel"}
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=40) == 0, log.read_text()
    children = subprocess.run(["pgrep", "-f", f"127.0.0.1:{port}"], capture_output=True, text=True)
    assert children.stdout.strip() == "", "gunicorn outlived kotlik up"


def _up(port: int, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    return kotlik(["up", "--port", str(port), "--workers", "1", "--concurrency", "1"], env, log)


#: The line the games' worker logs once it consumes (the webhooks' worker logs its own).
GAMES_READY = f"games@{socket.gethostname()} ready."


def _workers(up: subprocess.Popen[bytes]) -> list[psutil.Process]:
    """The games' Celery masters among ``up``'s children (the searches' and the webhooks' workers
    aside)."""
    return [
        c
        for c in descendants(up.pid)
        if c.ppid() == up.pid and "celery" in (line := " ".join(c.cmdline())) and "games@" in line
    ]


def test_kotlik_up_is_up_once_the_api_answers_and_restarts_a_killed_worker(
    broker: dict[str, str], tmp_path: Path
) -> None:
    port = free_port()
    log = tmp_path / "up.log"
    up = _up(port, environment(**broker, KOTLIK_DATA=str(tmp_path)), log)
    api = Client(f"http://127.0.0.1:{port}")
    children: list[psutil.Process] = []
    try:
        wait_for_line(up, log, "Kotlík is up", 60)
        assert api.get("/health", timeout=2).body == {"status": "ok"}, "up before /health answered"
        wait_for_line(up, log, GAMES_READY, 60)
        (first,) = _workers(up)
        children = descendants(up.pid)
        first.kill()
        wait_for_line(up, log, "the worker was killed by SIGKILL; restarting it", 10)
        assert api.get("/api/v1/catalog", timeout=5).status == 200
        wait_for_line(up, log, GAMES_READY, 60, count=2)
        (second,) = _workers(up)
        assert second.pid != first.pid and up.poll() is None
        children += descendants(up.pid)
        assert api.get("/api/v1/catalog", timeout=5).status == 200
        up.send_signal(signal.SIGTERM)
        assert up.wait(timeout=40) == 0, log.read_text()
        assert not [c for c in children if alive(c)], "a child outlived kotlik up"
    finally:
        stop(up, children)


def test_kotlik_up_refuses_a_port_in_use(broker: dict[str, str], tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        log = tmp_path / "up.log"
        up = _up(port, environment(**broker, KOTLIK_DATA=str(tmp_path)), log)
        try:
            assert up.wait(timeout=30) != 0
        finally:
            stop(up)
    assert f"cannot listen on 127.0.0.1:{port}" in log.read_text()


def test_kotlik_up_notices_gunicorn_failing_to_bind(broker: dict[str, str], tmp_path: Path) -> None:
    """The port is free when ``kotlik up`` checks it and taken by the time gunicorn binds it."""
    for attempt in range(3):
        port = free_port()
        log = tmp_path / f"up-{attempt}.log"
        up = _up(port, environment(**broker, KOTLIK_DATA=str(tmp_path)), log)
        children: list[psutil.Process] = []
        with socket.socket() as holder:
            try:
                wait_until(_gunicorn_started(up), 60, "gunicorn to start")
                children = descendants(up.pid)
                try:
                    holder.bind(("127.0.0.1", port))
                    holder.listen()
                except OSError:
                    continue  # gunicorn was quicker; try again
                assert up.wait(timeout=30) == 1, log.read_text()
                assert f"before the API answered: 127.0.0.1:{port} is taken" in log.read_text()
                assert not [c for c in children if alive(c)], "a child outlived kotlik up"
                return
            finally:
                stop(up, children)
    raise AssertionError("gunicorn always bound the port before the test could take it")


def _gunicorn_started(up: subprocess.Popen[bytes]) -> Callable[[], bool]:
    def started() -> bool:
        return up.poll() is not None or any("gunicorn" in " ".join(c.cmdline()) for c in descendants(up.pid))

    return started


def test_kotlik_web_stops_gunicorn_on_sigterm(broker: dict[str, str], tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "web.log"
    web = kotlik(["web", "--port", str(port), "--workers", "1"], environment(**broker), log)
    api = Client(f"http://127.0.0.1:{port}")
    children: list[psutil.Process] = []
    try:
        wait_until(lambda: _answers(api) or web.poll() is not None, 60, "the web server")
        children = descendants(web.pid)
        assert len(children) >= 2, "a gunicorn master and its worker"
        web.send_signal(signal.SIGTERM)
        assert web.wait(timeout=30) == 0, log.read_text()
        assert not [c for c in children if alive(c)], "gunicorn outlived kotlik web"
    finally:
        stop(web, children)


def _answers(api: Client) -> bool:
    try:
        return api.get("/api/v1/catalog", timeout=1).status == 200
    except OSError:
        return False


def test_kotlik_up_stops_the_embedded_server_after_an_earlier_crash(tmp_path: Path) -> None:
    """A killed ``kotlik up`` leaves its pid in pgserver's list of holders; the next one still stops it."""
    env = environment(DATABASE_URL=None, CELERY_BROKER_URL=None, KOTLIK_DATA=str(tmp_path))
    env["KOTLIK_QUEUE"] = f"kotlik-test-{secrets.token_hex(4)}"
    pgdata = tmp_path / "pgdata"
    children: list[psutil.Process] = []
    crashed = _up(free_port(), env, tmp_path / "crashed.log")
    try:
        wait_for_line(crashed, tmp_path / "crashed.log", "Kotlík is up", 90)
        children = descendants(crashed.pid)
        crashed.kill()
        crashed.wait()
        wait_until(lambda: not [c for c in children if alive(c)], 30, "the children to follow their parent")
    finally:
        stop(crashed, children)
    postgres = int((pgdata / "postmaster.pid").read_text().split()[0])
    assert psutil.pid_exists(postgres)
    assert crashed.pid in json.loads((pgdata / ".handle_pids.json").read_text())

    log = tmp_path / "up.log"
    up = _up(free_port(), env, log)
    try:
        wait_for_line(up, log, "Kotlík is up", 60)
        children = descendants(up.pid)
        up.send_signal(signal.SIGTERM)
        assert up.wait(timeout=40) == 0, log.read_text()
        assert not (pgdata / "postmaster.pid").exists(), "the embedded server still runs"
    finally:
        stop(up, children)
        if (pgdata / "postmaster.pid").exists():
            os.kill(int((pgdata / "postmaster.pid").read_text().split()[0]), signal.SIGINT)
