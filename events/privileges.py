"""Least privilege: the service and its workers connect as a role that can only append to the log.

Migrations run as the owner (``DATABASE_URL``); everything that serves (web processes, workers,
the default broker's connections) connects as the service role (``KOTLIK_SERVICE_ROLE``, default
``kotlik_service``, on the same server and database), which may ``SELECT`` and ``INSERT`` on
``events`` and nothing more there: no ``UPDATE``, ``DELETE``, ``TRUNCATE``, ``ALTER TABLE`` or
``DISABLE TRIGGER``, so no code path of the service can rewrite history, even by switching the
immutability trigger off. :func:`apply` creates the role if it is missing and sets its privileges
to exactly :data:`TABLES` on every migration, revoking whatever else it had.

``KOTLIK_SERVICE_DATABASE_URL`` names the service's connection outright (a server where the role
needs a password, or was made by a DBA); ``KOTLIK_SERVICE_ROLE=`` (empty) runs the service as the
owner, as before this module existed.
"""

from __future__ import annotations

import os
from urllib.parse import quote, unquote, urlsplit, urlunsplit

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

#: The role the service connects as, unless ``KOTLIK_SERVICE_ROLE`` says otherwise.
ROLE = "kotlik_service"

#: What the service may do, table by table; everything else is revoked. ``UPDATE`` on ``games``
#: and ``outbox`` also covers their ``SELECT … FOR UPDATE`` locks. ``"UPDATE (name)"`` grants it on
#: that column only (revoking a table's privileges revokes its columns' too).
TABLES: dict[str, tuple[str, ...]] = {
    "events": ("SELECT", "INSERT"),
    "games": ("SELECT", "INSERT", "UPDATE"),
    # Seeds of games (alembic 0004): written at creation, read only by the deciding code.
    "game_seeds": ("SELECT", "INSERT"),
    # Seat tokens and player keys are projections of ``credential_events`` (alembic 0013, issue 53):
    # a reissued token or a rotated key replaces the hash in place.
    "seat_tokens": ("SELECT", "INSERT", "UPDATE"),
    "credential_events": ("SELECT", "INSERT"),
    "commands": ("SELECT", "INSERT"),
    "snapshots": ("SELECT", "INSERT"),
    "scores": ("SELECT", "INSERT"),
    "outbox": ("SELECT", "INSERT", "UPDATE"),
    # Players and their seats, webhooks and their deliveries (alembic 0005, issue 10).
    # UPDATE of the name (a player renames: PATCH /players/me) and of the key's hash (a player rotates
    # the key: POST /players/me/key, folded from credential_events); nothing else of a player changes.
    "players": ("SELECT", "INSERT", "UPDATE (name, key_hash)"),
    "game_players": ("SELECT", "INSERT"),
    "webhooks": ("SELECT", "INSERT", "UPDATE"),  # UPDATE: removed_at (alembic 0006)
    "deliveries": ("SELECT", "INSERT", "UPDATE"),
    # The games some web process watches (alembic 0008): leases, renewed and dropped.
    "watched": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    # Ratings, moved by the scoring; seeks, a log of their own and its table (alembic 0011, issue 49).
    # Rebuilding a projection (``kotlik ratings rebuild``) is the owner's work, not the service's.
    "ratings": ("SELECT", "INSERT", "UPDATE"),
    "seek_events": ("SELECT", "INSERT"),
    "seeks": ("SELECT", "INSERT", "UPDATE"),
    # Web Push subscriptions: a log of their own and its table (alembic 0014, issue 50).
    "push_events": ("SELECT", "INSERT"),
    "push_subscriptions": ("SELECT", "INSERT", "UPDATE"),
    "alembic_version": ("SELECT",),
    # The default broker's queue (workers/broker.py): messages are taken by deleting them.
    "kombu_queue": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    "kombu_message": ("SELECT", "INSERT", "UPDATE", "DELETE"),
}

#: Held while privileges change, so two processes preparing one database do not collide.
LOCK = 0x6B6F746C696B02  # "kotlik" + 2


class RoleUnavailable(RuntimeError):
    """The owner may not create the service role; the message says what to do instead."""


def role() -> str | None:
    """The service's role, or None when the service runs as the owner."""
    explicit = os.environ.get("KOTLIK_SERVICE_DATABASE_URL")
    if explicit:
        return _user(explicit)
    configured = os.environ.get("KOTLIK_SERVICE_ROLE", ROLE)
    return configured or None


def service_url(owner: str) -> str:
    """The service's connection to the database that ``owner`` connects to as its owner."""
    explicit = os.environ.get("KOTLIK_SERVICE_DATABASE_URL")
    if explicit:
        return explicit
    name = role()
    if name is None:
        return owner
    password = os.environ.get("KOTLIK_SERVICE_PASSWORD")
    if "://" not in owner:
        return make_conninfo(owner, user=name, password=password)
    parts = urlsplit(owner)
    userinfo = quote(name, safe="") + (f":{quote(password, safe='')}" if password else "")
    return urlunsplit(parts._replace(netloc=f"{userinfo}@{parts.netloc.rpartition('@')[2]}"))


def _user(url: str) -> str | None:
    if "://" in url:
        user = urlsplit(url).username
        return unquote(user) if user else None
    return conninfo_to_dict(url).get("user")  # type: ignore[return-value]


def apply(owner: str) -> None:
    """Create the service role if missing and give it exactly :data:`TABLES` in this database."""
    name = role()
    if name is None:
        return
    with psycopg.connect(owner, autocommit=True) as conn:
        if conn.info.user == name:
            return
        _create_role(conn, name)
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK])
            grantee = sql.Identifier(name)
            conn.execute(
                sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(
                    sql.Identifier(conn.info.dbname), grantee
                )
            )
            conn.execute(sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(grantee))
            conn.execute(sql.SQL("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {}").format(grantee))
            conn.execute(sql.SQL("REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {}").format(grantee))
            present = {
                r[0]
                for r in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename = ANY(%s)",
                    [list(TABLES)],
                )
            }
            for table in sorted(present):
                conn.execute(
                    sql.SQL("GRANT {} ON {} TO {}").format(
                        sql.SQL(", ").join(map(sql.SQL, TABLES[table])), sql.Identifier(table), grantee
                    )
                )
            conn.execute(sql.SQL("GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {}").format(grantee))


def _create_role(conn: psycopg.Connection[tuple[object, ...]], name: str) -> None:
    if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [name]).fetchone():
        return
    password = os.environ.get("KOTLIK_SERVICE_PASSWORD")
    statement = sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(name))
    if password:
        statement = sql.SQL("{} PASSWORD {}").format(statement, sql.Literal(password))
    try:
        conn.execute(statement)
    except psycopg.errors.DuplicateObject:
        pass  # another migration made it a moment ago (roles belong to the whole server)
    except psycopg.errors.UniqueViolation:
        pass  # the same race, caught by the catalog's index instead
    except psycopg.errors.InsufficientPrivilege as e:
        raise RoleUnavailable(
            f"the database owner may not create the role {name!r} the service connects as ({e}). "
            "Create it (LOGIN) and set KOTLIK_SERVICE_DATABASE_URL, or give the owner CREATEROLE; "
            "KOTLIK_SERVICE_ROLE= (empty) runs the service as the owner instead."
        ) from None
