"""PostgreSQL crashes (its postmaster and backends SIGKILLed) under clients playing through ``kotlik
web``, and starts again on the same data directory. Clients retry a command with the same
``Idempotency-Key`` on 503 or a lost connection: during the outage they see only 503s, never a 500,
and afterwards every acknowledged command is in the log exactly once, every log gapless.

The test owns that PostgreSQL (an embedded server in a temporary folder); the machine's is never
touched.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
from conftest import queue_name, size
from outage import SETTLE, Tally, answers, check_acknowledged, play
from processes import environment, kotlik_web, wait_until

from events.database import embedded_server, migrate

#: Each test stops itself well before this; the timeout only guards CI against a hang.
pytestmark = [pytest.mark.faults, pytest.mark.timeout(600)]

CLIENTS = size("DB_CLIENTS", 8)
#: Seconds of play before the crash, without a database, and after it is back.
#: Down for longer than the pool's wait for a connection (10 s), so requests do answer 503.
BEFORE, DOWN, AFTER = 6.0, 15.0, 8.0
#: How soon after PostgreSQL has restarted the API must answer again.
RECOVERY_SECONDS = 5.0


def crash(server: Any, tally: Tally) -> None:
    """SIGKILL the postmaster and every backend, as a machine losing power would."""
    postmaster = psutil.Process(server.get_pid())
    processes = [postmaster, *postmaster.children(recursive=True)]
    for p in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            p.send_signal(signal.SIGKILL)
    tally.killed_at = time.monotonic()
    psutil.wait_procs(processes, timeout=30)


def test_clients_see_only_503s_while_postgresql_restarts(tmp_path: Path, report: Any) -> None:
    started = time.monotonic()
    # Not under pytest's temporary folder: any pytest session on the machine makes its root 0700
    # again, and the restart (as pgserver's own user, when run by root) could no longer reach it.
    home = Path(tempfile.mkdtemp(prefix="kotlik-fault-pg-"))
    home.chmod(0o755)
    server = embedded_server(home / "pgdata", cleanup_mode="delete")
    try:
        url = str(server.get_uri())
        migrate(url)
        from workers.app import broker_url

        env = environment(DATABASE_URL=url, CELERY_BROKER_URL=broker_url(url), KOTLIK_QUEUE=queue_name())
        tally = Tally()
        playing = threading.Event()
        playing.set()
        with kotlik_web(env, tmp_path / "web.log") as api:
            threads = [
                threading.Thread(target=play, args=(api, tally, playing, n), daemon=True)
                for n in range(CLIENTS)
            ]
            for t in threads:
                t.start()
            time.sleep(BEFORE)
            before = len(tally.acknowledged)
            crash(server, tally)
            time.sleep(DOWN)
            tally.restarted_at = time.monotonic()
            server.ensure_postgres_running()  # pg_ctl start on the same data directory: crash recovery
            restarted_at = time.monotonic()
            wait_until(lambda: answers(api), 60, "the API to answer after the restart")
            recovered = round(time.monotonic() - restarted_at, 1)
            during = len(tally.acknowledged) - before
            time.sleep(AFTER)
            playing.clear()
            for t in threads:
                t.join(timeout=SETTLE + 30)
            assert not [t for t in threads if t.is_alive()], "a client is still running"
        figures, problems = check_acknowledged(str(server.get_uri()), tally)
        report(
            clients=CLIENTS,
            games=len(tally.games),
            by_status=dict(tally.statuses),
            during_outage=dict(tally.outage),
            acknowledged=len(tally.acknowledged),
            acknowledged_from_kill_to_api_back=during,
            abandoned=len(tally.abandoned),
            slowest_503_s=round(tally.slowest_503, 1),
            api_back_after_s=recovered,
            **figures,
            seconds=round(time.monotonic() - started, 1),
        )
        assert not tally.server_errors, tally.server_errors[:10]
        assert tally.outage and set(tally.outage) <= {"503"}, tally.outage
        assert tally.slowest_503 < 30
        # The pool gives up a run of reconnections after a few seconds and the next request starts
        # another, so the API answers as soon as PostgreSQL does (a run whose pause doubled for the
        # whole outage answered 11-14 s later).
        assert recovered < RECOVERY_SECONDS, recovered
        assert not problems, problems[:20]
    finally:
        with contextlib.suppress(ProcessLookupError, psutil.NoSuchProcess):
            server.cleanup()
        shutil.rmtree(home, ignore_errors=True)
