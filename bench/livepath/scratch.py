"""The PostgreSQL server to measure on, and a scratch database on it that the run drops at the end."""

from __future__ import annotations

import os
import secrets
from urllib.parse import urlsplit, urlunsplit

import psycopg

#: The machine's own server, used when ``DATABASE_URL`` is not set.
MACHINE_DEFAULT = "postgresql://postgres@127.0.0.1:5432/postgres"


def server_url() -> str:
    """``DATABASE_URL``'s server, else the machine's default one, else Kotlík's embedded server."""
    configured = os.environ.get("DATABASE_URL")
    if configured:
        return configured
    try:
        with psycopg.connect(MACHINE_DEFAULT, connect_timeout=3):
            return MACHINE_DEFAULT
    except psycopg.OperationalError:
        from events.database import database_url

        return database_url()


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def create(server: str, run_id: str | None = None) -> tuple[str, str]:
    """A new empty database ``kotlik_bench_<hex>``: its name and URL."""
    name = f"kotlik_bench_{run_id or secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return name, with_database(server, name)


def drop(server: str, name: str) -> None:
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def durability(url: str) -> str:
    """The settings that decide what a commit costs, for the run's header."""
    names = ("fsync", "synchronous_commit", "wal_sync_method", "max_connections")
    with psycopg.connect(url) as conn:
        return ", ".join(f"{n}={conn.execute(f'SHOW {n}').fetchone()[0]}" for n in names)  # type: ignore[index]
