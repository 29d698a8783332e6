"""Seat tokens: bearer secrets shown once at creation (or at a reissue); only their SHA-256 is
stored, in ``seat_tokens`` and in the log of credentials (``credential_events``, alembic 0013),
of which ``seat_tokens`` is the projection (:mod:`projections.credentials`).

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
from psycopg.types.json import Jsonb


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
    """A new token for ``seat`` of a new game, logged as issued (its hash only) in one statement."""
    token = secrets.token_urlsafe(32)
    row = conn.execute(_ISSUE, (game_id, seat, _digest(token), lifetime_days())).fetchone()
    assert row is not None
    return Issued(seat, token, row["expires_at"])


def reissue(conn: Connection[Any], game_id: UUID, seat: int, by: dict[str, Any]) -> Issued:
    """A new token for ``seat``, its old one (if any) refused from now on: logged as reissued,
    ``by`` saying who asked (``{"seat": n}`` or ``{"player": id}``), the seat's row replaced and
    the game's ``credentials`` (its lobby row's count of reissued tokens) counted up, in one
    statement; inside the caller's transaction, with the lobby row locked."""
    token = secrets.token_urlsafe(32)
    row = conn.execute(_REISSUE, (game_id, seat, _digest(token), lifetime_days(), Jsonb(by))).fetchone()
    assert row is not None
    return Issued(seat, token, row["expires_at"])


_ISSUE = """
    WITH token AS (
        INSERT INTO seat_tokens (game_id, seat, token_hash, expires_at)
        VALUES (%s, %s, %s, now() + make_interval(days => %s)) RETURNING *
    )
    INSERT INTO credential_events (type, game_id, seat, hash, expires_at)
    SELECT 'SeatTokenIssued', game_id, seat, token_hash, expires_at FROM token RETURNING expires_at
"""
_REISSUE = """
    WITH new AS (
        SELECT %s::uuid AS game_id, %s::int AS seat, %s::bytea AS hash,
            now() + make_interval(days => %s) AS expires_at, %s::jsonb AS data
    ), logged AS (
        INSERT INTO credential_events (type, game_id, seat, hash, expires_at, data)
        SELECT 'SeatTokenReissued', game_id, seat, hash, expires_at, data FROM new RETURNING expires_at
    ), token AS (
        INSERT INTO seat_tokens (game_id, seat, token_hash, expires_at)
        SELECT game_id, seat, hash, expires_at FROM new
        ON CONFLICT (game_id, seat) DO UPDATE SET token_hash = excluded.token_hash,
            expires_at = excluded.expires_at
    ), counted AS (
        UPDATE games SET credentials = credentials + 1 WHERE id = (SELECT game_id FROM new)
    )
    SELECT expires_at FROM logged
"""


@dataclass(frozen=True)
class Seated:
    """The seat a token holds, and the game's count of reissued tokens when it was read
    (``None`` for a seat a player key holds, read now: nothing remembered to check)."""

    seat: int
    credentials: int | None


class KnownTokens:
    """The seats of the tokens of games this process has read or issued lately (token digest →
    seat, expiry), so that no seat of a hot game costs a read. Each app holds one
    (:class:`projections.caches.Caches`), sized by ``KOTLIK_TOKEN_GAMES``; the oldest game goes first.

    A seat's token may be reissued by any process (:func:`reissue`), which counts up the game's
    ``credentials`` in its lobby row. Each entry here remembers the count it was read at, and is
    trusted only against a count the caller read in the same request (the lobby row it reads
    anyway), or provisionally by a write guarded by that count
    (:func:`commands.handlers.play`'s ``credentials``): a token reissued on another node is refused
    here at once, without a message between the nodes having to arrive first.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._known: dict[UUID, tuple[int, dict[bytes, tuple[int, datetime]]]] = {}

    def remember(self, game_id: UUID, issued: Sequence[Issued]) -> None:
        """Know the seats of the tokens this process issued for a new game, once it is committed:
        the first command of each seat then reads no token, as the later ones do not."""
        self._keep(game_id, 0, {_digest(i.token): (i.seat, i.expires_at) for i in issued})

    def held(self, game_id: UUID) -> bool:
        """Whether this process knows the game's tokens, so that no seat of it costs a read."""
        return game_id in self._known

    def seat_for(
        self, conn: Connection[Any], game_id: UUID, token: str, credentials: int | None = None
    ) -> int | None:
        """The seat ``token`` holds in ``game_id``, or ``None`` for a token of no seat of this game.

        ``credentials`` is the game's count of reissued tokens as the caller has just read it in
        the lobby row; without it the tokens are read (a caller with no row to check by).
        Raises :class:`TokenExpired` for a seat token whose time is up.
        """
        seated = self.later(conn, game_id, token, credentials)()
        return None if seated is None else seated.seat

    def provisional(self, conn: Connection[Any], game_id: UUID, token: str) -> Seated | None:
        """The seat ``token`` holds as this process last knew it, with the count it knew it at:
        only for a write guarded by that count, which fails if a token of the game was reissued
        since (:func:`commands.handlers.play`)."""
        return self.later(conn, game_id, token, trust=True)()

    def later(
        self,
        conn: Connection[Any],
        game_id: UUID,
        token: str,
        credentials: int | None = None,
        *,
        trust: bool = False,
    ) -> Callable[[], Seated | None]:
        """:meth:`seat_for` as a :class:`Seated`, asked now and answered when called: in a
        pipeline, the read shares one round trip with the statements around it. ``trust``: answer
        from memory whatever the count (:meth:`provisional`, :meth:`checked`).

        The first read takes every seat's token and keeps them in memory: later requests of any
        seat, and those with a player key, read none while the game's count stays the same.
        """
        digest = _digest(token)
        known = self._known.get(game_id)
        if known is not None and (trust or (credentials is not None and known[0] == credentials)):
            return partial(_valid, known[0], known[1].get(digest))
        cursor = conn.execute(_TOKENS, (game_id,))

        def answer() -> Seated | None:
            rows = cursor.fetchall()
            if not rows:  # no such game
                return None
            count = int(rows[0]["credentials"])
            found = {
                bytes(r["token_hash"]): (int(r["seat"]), r["expires_at"]) for r in rows if r["token_hash"]
            }
            # kept even with no token (a game of bots and players' keys): its count is known then
            self._keep(game_id, count, found)
            return _valid(count, found.get(digest))

        return answer

    def checked(self, game_id: UUID, credentials: int) -> bool:
        """Whether what this process knows of the game's tokens (an answer of :meth:`later` asked
        with ``trust``) is good by the count of the lobby row read beside it; if not, the game's
        tokens are forgotten and the caller asks again."""
        known = self._known.get(game_id)
        if known is not None and known[0] == credentials:
            return True
        self.forget(game_id)
        return False

    def forget(self, game_id: UUID) -> None:
        """Forget one game's tokens: one of them was reissued."""
        self._known.pop(game_id, None)

    def __len__(self) -> int:
        """How many entries it holds now."""
        return len(self._known)

    def clear(self) -> None:
        """Forget every game's tokens, as a restart does."""
        self._known.clear()

    def _keep(self, game_id: UUID, count: int, seats: dict[bytes, tuple[int, datetime]]) -> None:
        old = self._known.get(game_id)
        if old is not None and old[0] > count:  # a read older than what is known: keep the newer
            return
        self._known[game_id] = (count, seats)
        while len(self._known) > self.size:
            self._known.pop(next(iter(self._known)), None)


#: A game's tokens with its count of reissues; one row with no token for a game without any.
_TOKENS = (
    "SELECT t.token_hash, t.seat, t.expires_at, g.credentials FROM games g "
    "LEFT JOIN seat_tokens t ON t.game_id = g.id WHERE g.id = %s"
)


def _valid(count: int, known: tuple[int, datetime] | None) -> Seated | None:
    if known is None:
        return None
    seat, expires_at = known
    if expires_at <= datetime.now(UTC):
        raise TokenExpired("the seat token has expired")
    return Seated(seat, count)
