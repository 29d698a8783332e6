"""Seat tokens: bearer secrets shown once at creation; only their SHA-256 is stored."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any
from uuid import UUID

from psycopg import Connection


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def issue(conn: Connection[Any], game_id: UUID, seat: int) -> str:
    token = secrets.token_urlsafe(32)
    conn.execute(
        "INSERT INTO seat_tokens (game_id, seat, token_hash) VALUES (%s, %s, %s)",
        (game_id, seat, _digest(token)),
    )
    return token


def seat_for(conn: Connection[Any], game_id: UUID, token: str) -> int | None:
    """The seat ``token`` holds in ``game_id``, or ``None`` for a token of no seat of this game."""
    row = conn.execute(
        "SELECT seat FROM seat_tokens WHERE game_id = %s AND token_hash = %s",
        (game_id, _digest(token)),
    ).fetchone()
    return None if row is None else int(row["seat"])
