"""Least privilege: the role the service connects as can append to the log and cannot rewrite it."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import uuid4

import psycopg
import pytest
from httpclient import create
from processes import environment, kotlik_web

from events import privileges

REWRITES = {
    "update": "UPDATE events SET data = '{}'",
    "delete": "DELETE FROM events",
    "truncate": "TRUNCATE events",
    "alter table": "ALTER TABLE events ADD COLUMN forged text",
    "disable trigger": "ALTER TABLE events DISABLE TRIGGER events_no_update_or_delete",
    "drop trigger": "DROP TRIGGER events_no_update_or_delete ON events",
    "replica mode (skips triggers)": "SET session_replication_role = replica",
    "drop table": "DROP TABLE events",
    "create table": "CREATE TABLE forged (x int)",
}


@pytest.fixture(scope="module")
def service(database_url: str) -> Any:
    with psycopg.connect(privileges.service_url(database_url), autocommit=True) as conn:
        yield conn


def test_the_service_connects_as_its_own_role_not_the_owner(database_url: str, service: Any) -> None:
    assert service.info.user == privileges.ROLE
    with psycopg.connect(database_url) as owner:
        assert owner.info.user != privileges.ROLE


@pytest.mark.parametrize("statement", REWRITES.values(), ids=REWRITES.keys())
def test_the_service_role_cannot_rewrite_or_unprotect_the_log(service: Any, statement: str) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege), service.transaction():
        service.execute(statement)


def test_the_service_role_keeps_exactly_its_table_privileges(service: Any) -> None:
    rows = service.execute(
        "SELECT table_name, privilege_type FROM information_schema.role_table_grants "
        "WHERE grantee = current_user AND table_schema = 'public'"
    ).fetchall()
    granted: dict[str, set[str]] = {}
    for table, privilege in rows:
        granted.setdefault(table, set()).add(privilege)
    wanted = {t: p for t, p in privileges.TABLES.items() if t in granted or not t.startswith("kombu")}
    expected = {t: {p for p in ps if "(" not in p} for t, ps in wanted.items()}
    assert granted == expected
    columns = service.execute(
        "SELECT table_name, column_name, privilege_type FROM information_schema.role_column_grants "
        "WHERE grantee = current_user AND table_schema = 'public'"
    ).fetchall()
    only = {(t, c, p) for t, c, p in columns if p not in granted.get(t, set())}
    assert only == {
        (t, p.split("(")[1].rstrip(")").strip(), p.split("(")[0].strip())
        for t, ps in wanted.items()
        for p in ps
        if "(" in p
    }, "a column's privilege, and no other column's"


def test_the_service_role_renames_a_player_but_cannot_change_a_key(service: Any) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege), service.transaction():
        service.execute("UPDATE players SET key_hash = key_hash")
    with service.transaction():
        service.execute("UPDATE players SET name = name WHERE false")


def test_a_running_service_plays_as_the_restricted_role(
    broker: dict[str, str], database_url: str, tmp_path: Path
) -> None:
    with kotlik_web(environment(**broker), tmp_path / "web.log") as api:
        game = create(api, "kupferkessel", [{"name": "Alice"}, {"name": "Bob"}])
        seat = api.seat(game["seats"][0]["token"])
        actions = seat.get(f"/api/v1/games/{game['id']}/actions").body
        assert seat.post(f"/api/v1/games/{game['id']}/commands", actions[0]).status == 201
        made = api.post("/api/v1/players", {"name": f"privileged-{uuid4().hex[:8]}"}).body
        fresh = {"name": f"renamed-{uuid4().hex[:8]}"}
        renamed = api.seat(made["key"]).request("PATCH", "/api/v1/players/me", fresh)
        assert renamed.status == 200, renamed  # the one UPDATE the role has on players
        with psycopg.connect(database_url) as owner:
            users = {
                r[0]
                for r in owner.execute(
                    "SELECT usename FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            }
    assert privileges.ROLE in users
