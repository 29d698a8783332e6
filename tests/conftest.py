"""Fixtures for the platform tests: a real PostgreSQL, a real broker, a real worker, real HTTP.

``DATABASE_URL`` and ``CELERY_BROKER_URL`` are used when set (CI: the machine's PostgreSQL and
Redis); otherwise an embedded PostgreSQL (pgserver) is started and the broker is that same
database through kombu's SQLAlchemy transport. Each run gets a database of its own, dropped at
the end, and a queue of its own, so runs never see each other's tasks.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

ROOT = Path(__file__).resolve().parent.parent


def _with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The PostgreSQL server: ``DATABASE_URL``'s, or an embedded one for this run."""
    if os.environ.get("DATABASE_URL"):
        yield os.environ["DATABASE_URL"]
        return
    from events.database import embedded_server

    server = embedded_server(tmp_path_factory.mktemp("pgdata"), cleanup_mode="delete")
    yield str(server.get_uri())
    server.cleanup()


@pytest.fixture(scope="session")
def database_url(server_url: str) -> Iterator[str]:
    """A fresh, migrated database for this test run."""
    from events.database import migrate

    name = f"kotlik_test_{secrets.token_hex(4)}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = _with_database(server_url, name)
    migrate(url)
    yield url
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def broker(database_url: str) -> dict[str, str]:
    """Environment naming the broker and a queue of this run's own, applied to the Celery app.

    The default broker's tables are made here by the owner, as ``kotlik up`` does, before the
    processes that use them as the service role start.
    """
    from events import privileges
    from workers.app import app, broker_url
    from workers.broker import prepare

    env = {
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url(privileges.service_url(database_url)),
        "KOTLIK_QUEUE": f"kotlik-test-{secrets.token_hex(4)}",
    }
    prepare(broker_url(database_url), env["KOTLIK_QUEUE"])
    privileges.apply(database_url)
    app.conf.update(broker_url=env["CELERY_BROKER_URL"], task_default_queue=env["KOTLIK_QUEUE"])
    return env


@pytest.fixture(scope="session", autouse=True)
def signing_key(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One export signing key for the run, shared by the test app and every server a test starts
    (through the environment), so an export imported into another server re-exports byte for
    byte; made at the first start, as an operator's is."""
    path = tmp_path_factory.mktemp("signing") / "export-signing-key.pem"
    before = os.environ.get("KOTLIK_SIGNING_KEY")
    os.environ["KOTLIK_SIGNING_KEY"] = str(path)
    yield path
    if before is None:
        os.environ.pop("KOTLIK_SIGNING_KEY", None)
    else:
        os.environ["KOTLIK_SIGNING_KEY"] = before


@pytest.fixture(scope="session", autouse=True)
def vapid_key(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One VAPID key (Web Push) for the run, shared through the environment by the test app and the
    workers, as an operator's processes share one; made at the first start."""
    path = tmp_path_factory.mktemp("vapid") / "vapid-key.pem"
    before = os.environ.get("KOTLIK_VAPID_KEY")
    os.environ["KOTLIK_VAPID_KEY"] = str(path)
    yield path
    if before is None:
        os.environ.pop("KOTLIK_VAPID_KEY", None)
    else:
        os.environ["KOTLIK_VAPID_KEY"] = before


@pytest.fixture(scope="session")
def pool(database_url: str) -> Iterator[Any]:
    from events.database import create_pool

    pool = create_pool(database_url, max_size=20)
    yield pool
    pool.close()


@pytest.fixture(scope="session")
def app(pool: Any, broker: dict[str, str]) -> Any:
    from service.app import create_app

    # Without rate limits: their counters live in the broker's Redis in CI, shared by every test
    # of the run, and the tests create games far faster than a person. tests/platform/test_hostile.py
    # builds an app of its own to test the limits.
    return create_app(pool, TESTING=True, KOTLIK_RATE_LIMITS="off")


@pytest.fixture(scope="session")
def live_url(app: Any) -> Iterator[str]:
    """The app served over real HTTP on a loopback port, by a threaded WSGI server."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="session")
def worker_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the worker writes its log (stdout and stderr)."""
    return tmp_path_factory.mktemp("worker") / "worker.log"


@pytest.fixture(scope="session")
def worker(broker: dict[str, str], worker_log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """Real Celery workers (with the outbox sweep) consuming this run's queues, as ``kotlik worker``
    starts them: the games' one, and the searches' and the webhooks' beside it."""
    from service.cli import search_worker_command, webhook_worker_command, worker_command

    log = worker_log
    env = {**os.environ, **broker}
    schedule = log.parent / "beat-schedule"
    with (
        open(log, "wb") as out,
        open(log.with_name("search.log"), "wb") as thinking,
        open(log.with_name("webhooks.log"), "wb") as hooks,
    ):
        process = subprocess.Popen(
            worker_command(2, schedule, env), cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
        search = subprocess.Popen(
            search_worker_command(env), cwd=ROOT, env=env, stdout=thinking, stderr=subprocess.STDOUT
        )
        webhooks = subprocess.Popen(
            webhook_worker_command(env), cwd=ROOT, env=env, stdout=hooks, stderr=subprocess.STDOUT
        )
    deadline = time.monotonic() + 60
    while b"ready." not in log.read_bytes():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the worker did not start:\n{log.read_text()}")
        time.sleep(0.2)
    yield process
    for started in (process, search, webhooks):
        started.terminate()
    for started in (process, search, webhooks):
        started.wait(timeout=30)
