"""``/health`` says the process lives; ``/ready`` whether the database, its schema and the broker are."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import uuid4

import pytest
from httpclient import Client
from processes import fresh_database

from service.server.readiness import heads


@pytest.fixture(scope="module")
def api(live_url: str) -> Client:
    return Client(live_url)


@pytest.fixture
def unmigrated(server_url: str) -> Iterator[Any]:
    """The app on an empty database: reachable, but with no schema."""
    from events.database import create_pool
    from service.app import create_app

    with fresh_database(server_url) as url:
        pool = create_pool(url, max_size=2)
        try:
            yield create_app(pool, TESTING=True).test_client()
        finally:
            pool.close()


def test_health_answers_without_asking_anything_else(api: Client) -> None:
    reply = api.get("/health")
    assert (reply.status, reply.body) == (200, {"status": "ok"})


def test_ready_when_database_schema_and_broker_are(api: Client, broker: dict[str, str]) -> None:
    reply = api.get("/ready")
    assert reply.status == 200, reply.body
    assert reply.body == {"status": "ready", "checks": {"database": "ok", "migrations": "ok", "broker": "ok"}}


def test_not_ready_before_migrations(unmigrated: Any, broker: dict[str, str]) -> None:
    reply = unmigrated.get("/ready")
    assert reply.status_code == 503 and reply.mimetype == "application/problem+json"
    assert reply.headers["Retry-After"].isdigit()
    body = reply.get_json()
    assert body["checks"]["database"] == "ok" and body["checks"]["broker"] == "ok"
    assert body["checks"]["migrations"].startswith("not migrated") and "migrations" in body["detail"]


def test_not_ready_on_an_older_revision(unmigrated: Any, broker: dict[str, str]) -> None:
    with unmigrated.application.extensions["kotlik.pool"].connection() as conn:
        conn.execute("CREATE TABLE alembic_version (version_num varchar(32) PRIMARY KEY)")
        conn.execute("INSERT INTO alembic_version VALUES ('0000_older')")
    checks = unmigrated.get("/ready").get_json()["checks"]
    assert checks["migrations"] == f"at 0000_older, the newest is {', '.join(heads())}; run kotlik migrate"


def test_requests_before_migrations_are_told_to_migrate(unmigrated: Any, broker: dict[str, str]) -> None:
    seats = [{"name": "Ada"}, {"name": "Bob"}]
    asked = {
        "create": unmigrated.post("/api/v1/games", json={"game": "kupferkessel", "seats": seats}),
        "list": unmigrated.get("/api/v1/games"),
        # a seat's command is answered beneath Flask (service.api.fast), its errors by the app's handlers
        "command": unmigrated.post(
            f"/api/v1/games/{uuid4()}/commands", json={"type": "pass"}, headers={"Authorization": "Bearer x"}
        ),
    }
    for name, reply in asked.items():
        assert reply.status_code == 503 and reply.mimetype == "application/problem+json", name
        assert reply.headers["Retry-After"].isdigit(), name
        body = reply.get_json()
        assert body["type"].endswith("/not-migrated") and "run kotlik migrate" in body["detail"], (name, body)


def test_a_missing_table_at_the_newest_migration_stays_a_bug(unmigrated: Any, broker: dict[str, str]) -> None:
    """A database that says it is at the newest migration and lacks a table is not one to migrate:
    the server answers its own fault, 500."""
    with unmigrated.application.extensions["kotlik.pool"].connection() as conn:
        conn.execute("CREATE TABLE alembic_version (version_num varchar(32) PRIMARY KEY)")
        for head in heads():
            conn.execute("INSERT INTO alembic_version VALUES (%s)", [head])
    assert unmigrated.get("/ready").get_json()["checks"]["migrations"] == "ok"
    unmigrated.application.config["PROPAGATE_EXCEPTIONS"] = False  # answer as in production
    reply = unmigrated.get("/api/v1/games")
    assert reply.status_code == 500 and reply.mimetype == "application/problem+json"


def test_not_ready_without_the_broker(
    api: Client, broker: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Celery's conf.broker_url reads the variable first, so it names the broker in every setup.
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")  # nothing listens on port 1
    reply = api.get("/ready")
    assert reply.status == 503, reply.body
    assert reply.problem["checks"]["broker"] != "ok" and reply.problem["checks"]["database"] == "ok"


def test_the_probes_are_in_the_openapi_document(api: Client) -> None:
    paths = api.get("/api/v1/openapi.json").body["paths"]
    assert set(paths["/health"]) == {"get"} and set(paths["/ready"]["get"]["responses"]) >= {"200", "503"}
