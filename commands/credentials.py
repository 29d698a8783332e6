"""Revoking credentials: a seat's token reissued (the old one refused from then on), a player's
key rotated.

Each is one transaction that logs the new credential's hash in ``credential_events`` and replaces
it in its projection (``seat_tokens``, ``players.key_hash``), so a crash leaves either the old
credential or the new one, never both or neither. A reissue also counts up the game's
``credentials`` in its lobby row, by which every web process checks the tokens it remembers
(:class:`projections.tokens.KnownTokens`): the old token is refused on every node from the commit
on. A key is never remembered by any process: the rotation's commit is enough.

Who may ask is the service's to judge (:mod:`service.api.credentials`); here only what may be
reissued at all.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import Connection

from games.interface import GameError
from projections import lobby, players, tokens
from projections.caches import Caches


class NoSuchSeat(LookupError):
    """The game has no seat of this number (HTTP 404)."""


class SeatWithoutToken(GameError):
    """A bot's seat, or one still open, has no token to reissue (HTTP 409)."""


def reissue_token(
    conn: Connection[Any], game_id: UUID, seat: int, by: dict[str, Any], *, caches: Caches | None = None
) -> tokens.Issued:
    """A new token for ``seat`` of the game, shown once; its old one, if it had one, is refused
    from now on. ``by`` says who asked, for the log: ``{"seat": n}`` or ``{"player": "<id>"}``.

    A seat a player took with their key (which has no token) gets its first one: the key plays it
    still, and the token too.
    """
    with conn.transaction():
        row = lobby.get(conn, game_id, lock=True)
        if not 0 <= seat < len(row.seats):
            raise NoSuchSeat(f"the game has seats 0 to {len(row.seats) - 1}, not {seat}")
        record = row.seats[seat]
        if record.get("bot"):
            raise SeatWithoutToken(f"seat {seat} is a bot's ({record['bot']}): it has no token")
        if record.get("open"):
            raise SeatWithoutToken(f"seat {seat} is open: the player who takes it plays it with their key")
        issued = tokens.reissue(conn, game_id, seat, by)
    if caches is not None:
        caches.tokens.forget(game_id)
    return issued


def rotate_key(conn: Connection[Any], player_id: UUID) -> tuple[players.Player, str]:
    """The player's new key, shown once; the old one is refused from the commit on."""
    return players.rotate(conn, player_id)
