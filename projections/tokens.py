"""Seat tokens: bearer secrets shown once at creation; only their SHA-256 is stored.

A token lives ``KOTLIK_TOKEN_DAYS`` days (default 365): long enough for a correspondence game
played a move a day, short enough that a leaked token does not stay a key forever.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
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


class KnownTokens:
    """The seats of the tokens of games this process has read or issued lately (token digest →
    seat, expiry), so that no seat of a hot game costs a read. Each app holds one
    (:class:`projections.caches.Caches`), sized by ``KOTLIK_TOKEN_GAMES``; the oldest game goes first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._known: dict[UUID, dict[bytes, tuple[int, datetime]]] = {}

    def remember(self, game_id: UUID, issued: Sequence[Issued]) -> None:
        """Know the seats of the tokens this process issued for a new game, once it is committed:
        the first command of each seat then reads no token, as the later ones do not."""
        self._keep(game_id, {_digest(i.token): (i.seat, i.expires_at) for i in issued})

    def held(self, game_id: UUID) -> bool:
        """Whether this process knows the game's tokens, so that no seat of it costs a read."""
        return game_id in self._known

    def seat_for(self, conn: Connection[Any], game_id: UUID, token: str) -> int | None:
        """The seat ``token`` holds in ``game_id``, or ``None`` for a token of no seat of this game.

        Raises :class:`TokenExpired` for a seat token whose time is up.
        """
        return self.later(conn, game_id, token)()

    def later(self, conn: Connection[Any], game_id: UUID, token: str) -> Callable[[], int | None]:
        """:meth:`seat_for`, asked now and answered when called: in a pipeline, the read shares one
        round trip with the statements around it.

        A game's tokens are all issued with it and never change, so the first read takes every
        seat's and keeps them in memory: later requests of any seat, and those with a player key,
        read none.
        """
        digest = _digest(token)
        known = self._known.get(game_id)
        if known is not None:
            return partial(_valid, known.get(digest))
        cursor = conn.execute(
            "SELECT token_hash, seat, expires_at FROM seat_tokens WHERE game_id = %s", (game_id,)
        )

        def answer() -> int | None:
            found = {bytes(r["token_hash"]): (int(r["seat"]), r["expires_at"]) for r in cursor.fetchall()}
            if found:  # none: no such game, or no human seat; nothing worth keeping either way
                self._keep(game_id, found)
            return _valid(found.get(digest))

        return answer

    def __len__(self) -> int:
        """How many entries it holds now."""
        return len(self._known)

    def clear(self) -> None:
        """Forget every game's tokens, as a restart does."""
        self._known.clear()

    def _keep(self, game_id: UUID, seats: dict[bytes, tuple[int, datetime]]) -> None:
        self._known[game_id] = seats
        while len(self._known) > self.size:
            self._known.pop(next(iter(self._known)), None)


def _valid(known: tuple[int, datetime] | None) -> int | None:
    if known is None:
        return None
    seat, expires_at = known
    if expires_at <= datetime.now(UTC):
        raise TokenExpired("the seat token has expired")
    return seat
