"""Seat tokens: bearer secrets shown once at creation; only their SHA-256 is stored.

A token lives ``KOTLIK_TOKEN_DAYS`` days (default 365): long enough for a correspondence game
played a move a day, short enough that a leaked token does not stay a key forever.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from psycopg import Connection


class TokenExpired(Exception):
    """The token was a seat's, but its time is up (HTTP 401)."""


@dataclass(frozen=True)
class Issued:
    """A seat's new token, shown once, and when it expires."""

    seat: int
    token: str
    expires_at: datetime


def lifetime_days() -> int:
    return int(os.environ.get("KOTLIK_TOKEN_DAYS", "365"))


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def issue(conn: Connection[Any], game_id: UUID, seat: int) -> Issued:
    token = secrets.token_urlsafe(32)
    row = conn.execute(
        "INSERT INTO seat_tokens (game_id, seat, token_hash, expires_at) "
        "VALUES (%s, %s, %s, now() + make_interval(days => %s)) RETURNING expires_at",
        (game_id, seat, _digest(token), lifetime_days()),
    ).fetchone()
    assert row is not None
    return Issued(seat, token, row["expires_at"])


def remember(game_id: UUID, issued: Issued) -> None:
    """Know the seat of a token this process issued, once its game is committed: the first command
    of each seat then reads no token, as the later ones do not."""
    _keep((game_id, _digest(issued.token)), (issued.seat, issued.expires_at))


def seat_for(conn: Connection[Any], game_id: UUID, token: str) -> int | None:
    """The seat ``token`` holds in ``game_id``, or ``None`` for a token of no seat of this game.

    A token holds the same seat until it expires, so a seat once found is kept in memory and the
    next request with that token reads nothing (were tokens ever revoked, this would have to go).
    """
    key = (game_id, _digest(token))
    known = _KNOWN.get(key)
    if known is None:
        row = conn.execute(
            "SELECT seat, expires_at FROM seat_tokens WHERE game_id = %s AND token_hash = %s", key
        ).fetchone()
        if row is None:
            return None
        known = (int(row["seat"]), row["expires_at"])
        _keep(key, known)
    seat, expires_at = known
    if expires_at <= datetime.now(UTC):
        raise TokenExpired("the seat token has expired")
    return seat


def _keep(key: tuple[UUID, bytes], known: tuple[int, datetime]) -> None:
    _KNOWN[key] = known
    if len(_KNOWN) > KNOWN_TOKENS:
        _KNOWN.pop(next(iter(_KNOWN)), None)


#: How many (game, token) → seat answers each process keeps; the oldest go first.
KNOWN_TOKENS = 20_000
_KNOWN: dict[tuple[UUID, bytes], tuple[int, datetime]] = {}
