"""``kotlik up`` starts migrations, a worker and gunicorn with one command and stops them cleanly."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from httpclient import Client

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_kotlik_up_serves_and_stops_on_sigterm(broker: dict[str, str], tmp_path: Path) -> None:
    port = _free_port()
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
