"""Webhooks and their deliveries: who is told what, written in the transaction that caused it.

A player registers URLs for kinds of notice (:data:`KINDS`); a game's creator may register some
for that game alone. Whatever makes a notice due (a move, a clock's warning, the scoring, a
claimed invite) inserts one ``deliveries`` row per matching webhook and an outbox row for the
task that sends it, in its own transaction, so a notice is neither lost nor sent for something
that rolled back. The sending itself (signing, retries) is :mod:`workers.deliveries`'s.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
from typing import Any
from urllib.parse import urlsplit
from uuid import UUID, uuid4

from psycopg import Connection
from psycopg.types.json import Jsonb

from events.outbox import Queued
from projections import push
from projections.addresses import refusal

#: The notices a webhook may ask for.
KINDS = ("your_turn", "clock_warning", "game_over", "invite_claimed", "paired")
#: The task that sends one delivery.
DELIVER = "webhooks.deliver"


class RefusedUrl(ValueError):
    """A webhook URL that is not http(s) or points at a private or loopback address (HTTP 422)."""


def allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """``KOTLIK_WEBHOOK_ALLOW``: networks a webhook may reach although they are not public
    (comma-separated, e.g. ``127.0.0.1/32,10.0.0.0/8``); none by default."""
    raw = os.environ.get("KOTLIK_WEBHOOK_ALLOW", "")
    return [ipaddress.ip_network(part.strip(), strict=False) for part in raw.split(",") if part.strip()]


def check_url(url: str, what: str = "webhook") -> list[str]:
    """The addresses ``url`` reaches, if every one may be reached; else :class:`RefusedUrl`.

    Called when a webhook (or a Web Push endpoint, ``what``) is registered and again before each
    delivery, so a name that later resolves to a private address is refused then too. Which
    addresses may be reached is :mod:`projections.addresses`'s.
    """
    try:
        parts = urlsplit(url)
        parts.hostname  # noqa: B018 (parsing it is the check: a broken IPv6 literal raises)
    except ValueError:
        raise RefusedUrl(f"the {what} URL cannot be parsed") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RefusedUrl(f"a {what} URL must be http:// or https:// with a host")
    if parts.username or parts.password:
        raise RefusedUrl(f"a {what} URL may not hold credentials")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError, UnicodeError):
        raise RefusedUrl(f"the {what} host {parts.hostname!r} does not resolve") from None
    allowed = allowed_networks()
    addresses = sorted({str(info[4][0]) for info in infos})
    for text in addresses:
        address = ipaddress.ip_address(text.split("%")[0])
        kind = refusal(address, allowed)
        if kind is not None:
            raise RefusedUrl(
                f"the {what} host {parts.hostname!r} is {address}, which is not a public address "
                f"({kind}); only public unicast addresses are reached, and those in the networks "
                "KOTLIK_WEBHOOK_ALLOW lists"
            )
    return addresses


def register(
    conn: Connection[Any], url: str, kinds: list[str], *, player: UUID | None = None, game: UUID | None = None
) -> dict[str, Any]:
    """A new webhook of a player or of a game, with the secret its deliveries are signed with."""
    check_url(url)
    secret = secrets.token_urlsafe(32)
    row = conn.execute(
        "INSERT INTO webhooks (id, player_id, game_id, url, secret, kinds) VALUES (%s, %s, %s, %s, %s, %s) "
        "RETURNING id, url, kinds, secret, created_at",
        (uuid4(), player, game, url, secret, Jsonb(sorted(set(kinds)))),
    ).fetchone()
    assert row is not None
    return dict(row)


def of_player(conn: Connection[Any], player: UUID) -> list[dict[str, Any]]:
    return conn.execute(
        "SELECT id, url, kinds, created_at FROM webhooks WHERE player_id = %s AND removed_at IS NULL "
        "ORDER BY created_at",
        (player,),
    ).fetchall()


def remove(conn: Connection[Any], player: UUID, webhook: UUID) -> bool:
    """Remove the player's webhook and cancel its deliveries not yet sent; whether it was theirs.

    A delivery being sent at this moment is locked by its worker and skipped here; the worker
    cancels it instead of retrying (:func:`workers.deliveries.send`).
    """
    with conn.transaction():
        removed = conn.execute(
            "UPDATE webhooks SET removed_at = now() "
            "WHERE id = %s AND player_id = %s AND removed_at IS NULL RETURNING id",
            (webhook, player),
        ).fetchone()
        if removed is None:
            return False
        conn.execute(
            "UPDATE deliveries SET status = 'cancelled' WHERE id IN (SELECT id FROM deliveries "
            "WHERE webhook_id = %s AND status = 'pending' FOR UPDATE SKIP LOCKED)",
            (webhook,),
        )
    return True


def deliveries_of(conn: Connection[Any], player: UUID, limit: int = 100) -> list[dict[str, Any]]:
    """The newest deliveries to the player's webhooks, each with its attempts."""
    return conn.execute(
        "SELECT d.id, d.webhook_id, w.url, d.kind, d.body, d.status, d.attempts, d.next_at, "
        "d.created_at, d.delivered_at FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id "
        "WHERE w.player_id = %s ORDER BY d.id DESC LIMIT %s",
        (player, limit),
    ).fetchall()


def deliveries(when: str = "true") -> str:
    """The deliveries of one notice, one per matching webhook, if ``when`` holds: the game's own
    hooks and those of the players at ``%(notice_seats)s`` (every bound seat for NULL). CTEs for a
    statement that ends in :data:`DELIVERED_TASKS`, alone (:func:`announce`) or in a command's write
    (:mod:`commands.writes`). The notice's Web Push messages come with them (:func:`projections.push.due`)."""
    return f"""
    hooks AS (
        SELECT w.id, gp.seat FROM webhooks w JOIN game_players gp ON gp.player_id = w.player_id
        WHERE gp.game_id = %(game)s AND coalesce(%(notice_seats)s::jsonb @> to_jsonb(gp.seat), true)
            AND w.kinds ? %(notice_kind)s AND w.removed_at IS NULL AND {when}
        UNION ALL
        SELECT w.id, NULL FROM webhooks w WHERE w.game_id = %(game)s AND w.kinds ? %(notice_kind)s
            AND w.removed_at IS NULL AND {when}
    ), delivered AS (
        INSERT INTO deliveries (webhook_id, kind, body)
        SELECT id, %(notice_kind)s, %(notice)s::jsonb
            || CASE WHEN seat IS NULL THEN '{{}}'::jsonb ELSE jsonb_build_object('seat', seat) END
        FROM hooks RETURNING id
    ), {push.due(when)}"""


#: The outbox rows that send the deliveries and the pushes, for an ``INSERT INTO outbox (task, args)``.
DELIVERED_TASKS = f"SELECT '{DELIVER}', jsonb_build_array(id) FROM delivered UNION ALL {push.TASKS}"


def parameters(game_id: UUID, kind: str, body: dict[str, Any], seats: list[int] | None) -> dict[str, Any]:
    """The parameters of :func:`deliveries`."""
    notice = {"kind": kind, "game_id": str(game_id), **body}
    return {
        "game": game_id,
        "notice_kind": kind,
        "notice": Jsonb(notice),
        "notice_seats": None if seats is None else Jsonb(seats),
    }


def announce(
    conn: Connection[Any], game_id: UUID, kind: str, body: dict[str, Any], seats: list[int] | None = None
) -> list[Queued]:
    """Deliveries of ``kind`` to the game's own webhooks and to those of the players at ``seats``
    (every bound seat for ``None``); returns the outbox rows to hand over after commit."""
    rows = conn.execute(
        f"WITH {deliveries()} INSERT INTO outbox (task, args) {DELIVERED_TASKS} RETURNING id, task, args",
        parameters(game_id, kind, body, seats),
    ).fetchall()
    return [Queued(int(row["id"]), row["task"], row["args"]) for row in rows]
