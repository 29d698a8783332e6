"""Web Push subscriptions: a browser's push endpoint, given by a player, told when a seat of theirs
comes to move or its clock is about to run out, with no Kotlík tab open.

Each subscription is its events in ``push_events`` (:data:`ADDED`, then one of :data:`REMOVED` by
its player, :data:`REPLACED` when its endpoint is given again, :data:`EXPIRED` when the push service
answers 404 or 410); :func:`fold` is the one fold of them. The write side appends and refreshes the
row in one transaction (:func:`append`); :func:`recompute` folds the whole log, so
:func:`stored` and :func:`recompute` can be compared (``kotlik push check``) and :func:`rebuild`
can replace the table (``kotlik push rebuild``).

An endpoint passes the webhooks' address checks (:func:`projections.webhooks.check_url`) when it is
given and again before each push. The notices are made beside the webhooks' in the transaction
that causes them (:func:`due`, :data:`TASKS`); the sending is :mod:`workers.push`'s.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from cryptography.hazmat.primitives.asymmetric import ec
from psycopg import Connection
from psycopg.types.json import Jsonb

ADDED = "PushSubscribed"
REMOVED = "PushUnsubscribed"
REPLACED = "PushReplaced"
EXPIRED = "PushExpired"
_ENDED = {REMOVED: "removed", REPLACED: "replaced", EXPIRED: "expired"}
#: The notices pushed: the rest (``game_over``, ``paired``...) are the webhooks' alone.
KINDS = ("your_turn", "clock_warning")
#: The task that sends one push.
SEND = "push.send"
#: The most subscriptions a player keeps (one per browser or device they play on).
MAX_PER_PLAYER = 20


class RefusedEndpoint(ValueError):
    """A push endpoint the webhooks' address checks refuse (HTTP 422)."""


class BadSubscription(ValueError):
    """A subscription whose keys are not a P-256 public key and a 16-byte secret (HTTP 422)."""


@dataclass(frozen=True)
class Subscription:
    id: UUID
    player_id: UUID
    endpoint: str
    p256dh: str
    auth: str
    status: str
    created_at: datetime
    ended_at: datetime | None

    def info(self) -> dict[str, Any]:
        """As the browser's ``PushSubscription.toJSON()`` gives it (what pywebpush takes)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


_COLUMNS = "id, player_id, endpoint, p256dh, auth, status, created_at, ended_at"


def fold(subscription_id: UUID, events: Iterable[dict[str, Any]]) -> Subscription | None:
    """A subscription from its events (``type``, ``data``, ``recorded_at``), oldest first."""
    sub: Subscription | None = None
    for e in events:
        data = e["data"]
        if e["type"] == ADDED:
            sub = Subscription(
                subscription_id,
                UUID(data["player"]),
                data["endpoint"],
                data["p256dh"],
                data["auth"],
                "active",
                e["recorded_at"],
                None,
            )
        elif sub is not None and sub.status == "active" and e["type"] in _ENDED:
            sub = Subscription(**{**asdict(sub), "status": _ENDED[e["type"]], "ended_at": e["recorded_at"]})
    return sub


def _b64(value: str, size: int | None, what: str) -> str:
    """``value`` if it is base64url of ``size`` bytes (or of a P-256 point, for None)."""
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise BadSubscription(f"keys.{what} is not base64url") from None
    if size is not None and len(raw) != size:
        raise BadSubscription(f"keys.{what} must be {size} bytes, not {len(raw)}")
    if size is None:
        if len(raw) != 65 or raw[0] != 4:
            raise BadSubscription(f"keys.{what} must be an uncompressed P-256 point (65 bytes, 0x04 first)")
        try:  # a point off the curve would fail every push, and never as a 404 or 410
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
        except ValueError:
            raise BadSubscription(f"keys.{what} is not a point on P-256") from None
    return value.rstrip("=")


def append(conn: Connection[Any], subscription_id: UUID, kind: str, data: dict[str, Any]) -> Subscription:
    """Append one event of a subscription and bring its row along, in the caller's transaction."""
    conn.execute(
        "INSERT INTO push_events (subscription_id, type, data) VALUES (%s, %s, %s)",
        (subscription_id, kind, Jsonb(data)),
    )
    rows = conn.execute(
        "SELECT type, data, recorded_at FROM push_events WHERE subscription_id = %s ORDER BY position",
        (subscription_id,),
    ).fetchall()
    sub = fold(subscription_id, rows)
    assert sub is not None, "a subscription's first event adds it"
    _write(conn, sub)
    return sub


def _write(conn: Connection[Any], sub: Subscription) -> None:
    row = asdict(sub)
    names = ", ".join(row)
    values = ", ".join(f"%({k})s" for k in row)
    updates = ", ".join(f"{k} = excluded.{k}" for k in row if k != "id")
    conn.execute(
        f"INSERT INTO push_subscriptions ({names}) VALUES ({values}) "
        f"ON CONFLICT (id) DO UPDATE SET {updates}",
        row,
    )


def subscribe(conn: Connection[Any], player: UUID, endpoint: str, keys: dict[str, str]) -> Subscription:
    """The player's subscription of ``endpoint``: the one they have if it is the same, else a new one
    (an older one of that endpoint, theirs or another player's on the same browser, is replaced).

    The caller has checked the endpoint's address (:func:`projections.webhooks.check_url`).
    """
    p256dh = _b64(keys["p256dh"], None, "p256dh")
    auth = _b64(keys["auth"], 16, "auth")
    with conn.transaction():
        # One subscriber of an endpoint at a time: two browsers' calls for it queue here.
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 50))", (endpoint,))
        old = conn.execute(
            f"SELECT {_COLUMNS} FROM push_subscriptions WHERE endpoint = %s AND status = 'active'",
            (endpoint,),
        ).fetchone()
        if old is not None:
            same = Subscription(**old)
            if same.player_id == player and (same.p256dh, same.auth) == (p256dh, auth):
                return same
            append(conn, same.id, REPLACED, {})
        count = conn.execute(
            "SELECT count(*) AS n FROM push_subscriptions WHERE player_id = %s AND status = 'active'",
            (player,),
        ).fetchone()
        if count and int(count["n"]) >= MAX_PER_PLAYER:  # the oldest gives way
            oldest = conn.execute(
                "SELECT id FROM push_subscriptions WHERE player_id = %s AND status = 'active' "
                "ORDER BY created_at LIMIT 1",
                (player,),
            ).fetchone()
            assert oldest is not None
            append(conn, oldest["id"], REPLACED, {})
        data = {"player": str(player), "endpoint": endpoint, "p256dh": p256dh, "auth": auth}
        return append(conn, uuid4(), ADDED, data)


def of_player(conn: Connection[Any], player: UUID) -> list[Subscription]:
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM push_subscriptions WHERE player_id = %s AND status = 'active' "
        "ORDER BY created_at",
        (player,),
    ).fetchall()
    return [Subscription(**r) for r in rows]


def unsubscribe(conn: Connection[Any], player: UUID, subscription_id: UUID) -> bool:
    """End the player's subscription; whether it was theirs and active."""
    with conn.transaction():
        row = conn.execute(
            "SELECT id FROM push_subscriptions WHERE id = %s AND player_id = %s AND status = 'active' "
            "FOR UPDATE",
            (subscription_id, player),
        ).fetchone()
        if row is None:
            return False
        append(conn, subscription_id, REMOVED, {})
    return True


def expire(conn: Connection[Any], subscription_id: UUID, status: int) -> bool:
    """The push service said the subscription is gone (``status`` 404 or 410): drop it, once."""
    with conn.transaction():
        row = conn.execute(
            "SELECT id FROM push_subscriptions WHERE id = %s AND status = 'active' FOR UPDATE",
            (subscription_id,),
        ).fetchone()
        if row is None:
            return False
        append(conn, subscription_id, EXPIRED, {"status": status})
    return True


def get(conn: Connection[Any], subscription_id: UUID) -> Subscription | None:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM push_subscriptions WHERE id = %s", (subscription_id,)
    ).fetchone()
    return Subscription(**row) if row else None


def due(when: str = "true") -> str:
    """The CTE of the pushes of one notice: the active subscriptions of the players at
    ``%(notice_seats)s`` (every bound seat for NULL), if the notice is one of :data:`KINDS` and
    ``when`` holds. Shares :func:`projections.webhooks.parameters`; :data:`TASKS` sends them."""
    kinds = ", ".join(f"'{k}'" for k in KINDS)
    return f"""
    pushed AS (
        SELECT s.id, gp.seat FROM push_subscriptions s JOIN game_players gp ON gp.player_id = s.player_id
        WHERE gp.game_id = %(game)s AND coalesce(%(notice_seats)s::jsonb @> to_jsonb(gp.seat), true)
            AND %(notice_kind)s IN ({kinds}) AND s.status = 'active' AND {when}
    )"""


#: The outbox rows of :func:`due`'s pushes: the subscription, and the notice with its seat and the
#: game's kind (which board it is, for the words the browser shows).
TASKS = f"""SELECT '{SEND}', jsonb_build_array(pushed.id, %(notice)s::jsonb
    || jsonb_build_object('seat', pushed.seat, 'game', (SELECT game FROM games WHERE id = %(game)s)))
    FROM pushed"""


def recompute(conn: Connection[Any]) -> dict[UUID, Subscription]:
    """Every subscription folded from the log alone."""
    rows = conn.execute(
        "SELECT subscription_id, type, data, recorded_at FROM push_events ORDER BY position"
    ).fetchall()
    by_id: dict[UUID, list[dict[str, Any]]] = {}
    for r in rows:
        by_id.setdefault(r["subscription_id"], []).append(r)
    folded = {key: fold(key, events) for key, events in by_id.items()}
    return {k: v for k, v in folded.items() if v is not None}


def stored(conn: Connection[Any]) -> dict[UUID, Subscription]:
    rows = conn.execute(f"SELECT {_COLUMNS} FROM push_subscriptions").fetchall()
    return {r["id"]: Subscription(**r) for r in rows}


def rebuild(conn: Connection[Any]) -> int:
    """Replace the table with the subscriptions folded from the log; how many."""
    with conn.transaction():
        conn.execute("LOCK TABLE push_subscriptions IN EXCLUSIVE MODE")
        table = recompute(conn)
        conn.execute("DELETE FROM push_subscriptions")
        for sub in table.values():
            _write(conn, sub)
    return len(table)
