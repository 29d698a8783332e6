"""Who is calling: the seat a bearer token (a seat token or a player key) holds in a game, a
spectator, or a player."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from flask import request
from psycopg import Connection

from projections import lobby, players
from projections.caches import Caches
from projections.fold import Folded
from projections.tokens import Seated
from service.context import caches
from service.contract.problems import Unauthorized


def bearer() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    token = bearer_token(header)
    if token is None:
        raise Unauthorized("the Authorization header must be 'Bearer <seat token>'")
    return token


def bearer_token(header: str) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; ``None`` for any other header."""
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def seat_of(
    conn: Connection[Any], caches: Caches, game_id: UUID, token: str, row: lobby.GameRow | None = None
) -> int | None:
    """The seat ``token`` (a seat token or a player key) holds in the game, or ``None``.

    ``row``: the game's lobby row as this request has just read it, by whose count of reissued
    tokens a remembered token is trusted; without it, the game's tokens are read.
    Raises :class:`projections.tokens.TokenExpired` for a seat token whose time is up.
    """
    seat = caches.tokens.seat_for(conn, game_id, token, None if row is None else row.credentials)
    return players.seat_in(conn, game_id, token) if seat is None else seat


def holder(conn: Connection[Any], caches: Caches, game_id: UUID, token: str) -> Seated | None:
    """The seat ``token`` holds, for a command: a seat token as this process remembers it, with
    the count to guard the command's write by (:func:`commands.handlers.play`), or a player key's
    seat, read now (no count: nothing remembered to guard)."""
    seated = caches.tokens.provisional(conn, game_id, token)
    if seated is not None:
        return seated
    seat = players.seat_in(conn, game_id, token)
    return None if seat is None else Seated(seat, None)


def seat_and_game(
    conn: Connection[Any],
    caches: Caches,
    game_id: UUID,
    token: str,
    newest: Callable[[UUID], int] | None = None,
) -> tuple[Seated | None, lobby.GameRow, Folded]:
    """:func:`holder`, with the game's lobby row and state in the same round trip; the seat is
    checked by the row's count of reissued tokens (a token reissued on another node is refused).

    A game this process holds no row of is read with its seed and kept whole, so that a command
    after this, the seat's first here included, writes alone (:func:`commands.handlers.play`).
    ``newest`` is as for :meth:`projections.state.States.with_row`.
    """
    hot = caches.states.get(game_id)
    whole = hot is None or hot.row is None
    asked: list[Callable[[], Seated | None]] = []

    def ask_row(conn: Connection[Any]) -> Callable[[], lobby.GameRow]:
        asked.append(caches.tokens.later(conn, game_id, token, trust=True))
        return lobby.later(conn, game_id, secret=whole)

    row, folded = caches.states.with_row(conn, game_id, ask_row, newest)
    if whole:
        caches.states.put(game_id, folded, row=row)
    seated = asked[0]()
    if not caches.tokens.checked(game_id, row.credentials):  # a token reissued since: ask again
        seated = caches.tokens.later(conn, game_id, token, row.credentials)()
    if seated is None:
        seat = players.seat_in(conn, game_id, token)
        seated = None if seat is None else Seated(seat, None)
    return seated, row, folded


def caller_seat(
    conn: Connection[Any], game_id: UUID, *, required: bool, row: lobby.GameRow | None = None
) -> int | None:
    """The caller's seat; ``None`` for a spectator (no token) unless a seat is ``required``.
    ``row``: the lobby row this request read (:func:`seat_of`).

    A token that holds no seat in this game is refused even where spectators are welcome, so a
    client with a wrong or forged token learns so instead of silently seeing less. An unknown
    game is a 404 before it is a 401; that is checked only when the token fails.
    """
    try:
        token = bearer()
        if token is None:
            if required:
                raise Unauthorized("this needs a seat token: Authorization: Bearer <token>")
            return None
        seat = seat_of(conn, caches(), game_id, token, row)
        if seat is None:
            raise Unauthorized("the token holds no seat in this game")
        return seat
    except Unauthorized:
        lobby.get(conn, game_id)
        raise


def caller_holder(conn: Connection[Any], game_id: UUID) -> tuple[str, Seated]:
    """The bearer token and the seat it holds, for a command (:func:`holder`); 401 without a token
    or for one of no seat of the game."""
    try:
        token = bearer()
        if token is None:
            raise Unauthorized("this needs a seat token: Authorization: Bearer <token>")
        seated = holder(conn, caches(), game_id, token)
        if seated is None:
            raise Unauthorized("the token holds no seat in this game")
        return token, seated
    except Unauthorized:
        lobby.get(conn, game_id)
        raise


def player_if_any(conn: Connection[Any]) -> players.Player | None:
    """The player whose key is the bearer token, or None: no token, or one that is no player's key
    (a client holding a seat token may send it with every request, and a game it creates is then
    anonymous, as before credentials were recorded)."""
    key = bearer()
    return None if key is None else players.by_key(conn, key)


def caller_player(conn: Connection[Any]) -> players.Player:
    """The player whose key is the bearer token; 401 without one or for a key of no player."""
    key = bearer()
    if key is None:
        raise Unauthorized("this needs a player key: Authorization: Bearer <player key>")
    player = players.by_key(conn, key)
    if player is None:
        raise Unauthorized("no player has this key")
    return player
