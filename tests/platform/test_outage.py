"""A database that goes away gives clients 503 problem details with ``Retry-After``, in bounded time.

The test owns its PostgreSQL (an embedded server in a temporary folder) and stops it by SIGKILL;
the machine's shared server is never touched.
"""

from __future__ import annotations

import contextlib
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import psutil

from events.database import create_pool, embedded_server, migrate


def test_requests_answer_503_while_the_database_is_down(broker: dict[str, str], tmp_path: Path) -> None:
    from service.app import create_app

    server = embedded_server(tmp_path / "pgdata", cleanup_mode="delete")
    try:
        url = str(server.get_uri())
        migrate(url)
        pool = create_pool(url, max_size=2)
        client = _client(create_app(pool, TESTING=True))
        created = client.post(
            "/api/v1/games", json={"game": "kupferkessel", "seats": [{"name": "A"}, {"name": "B"}]}
        )
        assert created.status_code == 201
        postmaster = psutil.Process(server.get_pid())
        for process in [postmaster, *postmaster.children(recursive=True)]:
            process.send_signal(signal.SIGKILL)  # backends outlive a lone postmaster for a while
        for path in (f"/api/v1/games/{created.json['id']}", "/api/v1/games", "/ready"):
            started = time.monotonic()
            reply = client.get(path)
            assert reply.status_code == 503, (path, reply.status_code, reply.get_data(as_text=True))
            assert reply.mimetype == "application/problem+json" and int(reply.headers["Retry-After"]) > 0
            assert time.monotonic() - started < 30
        pool.close(timeout=1)
    finally:
        with contextlib.suppress(ProcessLookupError, psutil.NoSuchProcess, subprocess.CalledProcessError):
            server.cleanup()  # its postmaster was killed above


def _client(app: Any) -> Any:
    return app.test_client()
