"""The log of credentials (``credential_events``, alembic 0013) and what is folded from it: each
seat's token hash and expiry (``seat_tokens``), each player's key hash (``players.key_hash``) and
each game's count of reissued tokens (``games.credentials``).

Every token issued at a game's creation (``SeatTokenIssued``) or reissued (``SeatTokenReissued``),
and every player key issued (``PlayerKeyIssued``) or rotated (``PlayerKeyRotated``), is a row
holding the credential's SHA-256, never the credential; the newest row of a seat or a player is
its credential now. The writers (:mod:`projections.tokens`, :mod:`projections.players`) log and
project in one statement; :func:`recompute` folds the same from the log alone, :func:`stored`
reads the tables, and ``kotlik credentials check|rebuild`` compares them or rebuilds the tables.
The log is not part of any game's log, so no export carries it.
"""

from __future__ import annotations

from typing import Any

from psycopg import Connection

#: The kinds of row in the log.
TYPES = ("SeatTokenIssued", "SeatTokenReissued", "PlayerKeyIssued", "PlayerKeyRotated")


def recompute(conn: Connection[Any]) -> dict[tuple[str, ...], Any]:
    """Every projected value, from the log alone: ``("seat", game, seat)`` → ``(hash, expiry)``,
    ``("key", player)`` → hash, ``("count", game)`` → reissues (games with none left out)."""
    out: dict[tuple[str, ...], Any] = {}
    rows = conn.execute(
        "SELECT type, game_id, seat, player_id, hash, expires_at FROM credential_events ORDER BY position"
    ).fetchall()
    for r in rows:
        if r["game_id"] is not None:
            out[("seat", str(r["game_id"]), str(r["seat"]))] = (bytes(r["hash"]), r["expires_at"])
            if r["type"] == "SeatTokenReissued":
                key = ("count", str(r["game_id"]))
                out[key] = out.get(key, 0) + 1
        else:
            out[("key", str(r["player_id"]))] = bytes(r["hash"])
    return out


def stored(conn: Connection[Any]) -> dict[tuple[str, ...], Any]:
    """The same from the tables."""
    out: dict[tuple[str, ...], Any] = {}
    for r in conn.execute("SELECT game_id, seat, token_hash, expires_at FROM seat_tokens").fetchall():
        out[("seat", str(r["game_id"]), str(r["seat"]))] = (bytes(r["token_hash"]), r["expires_at"])
    for r in conn.execute("SELECT id, key_hash FROM players").fetchall():
        out[("key", str(r["id"]))] = bytes(r["key_hash"])
    for r in conn.execute("SELECT id, credentials FROM games WHERE credentials > 0").fetchall():
        out[("count", str(r["id"]))] = int(r["credentials"])
    return out


def rebuild(conn: Connection[Any]) -> int:
    """Make the tables what the log folds to; how many seats, keys and counts that is.

    ``seat_tokens`` is replaced whole; a player's key and a game's count are set in place (their
    rows hold more than this log makes).
    """
    table = recompute(conn)
    with conn.transaction():
        conn.execute("LOCK TABLE seat_tokens, players IN EXCLUSIVE MODE")
        conn.execute("DELETE FROM seat_tokens")
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO seat_tokens (game_id, seat, token_hash, expires_at) VALUES (%s, %s, %s, %s)",
                [(k[1], int(k[2]), v[0], v[1]) for k, v in table.items() if k[0] == "seat"],
            )
            cur.executemany(
                "UPDATE players SET key_hash = %s WHERE id = %s",
                [(v, k[1]) for k, v in table.items() if k[0] == "key"],
            )
        conn.execute("UPDATE games SET credentials = 0 WHERE credentials <> 0")
        with conn.cursor() as cur:
            cur.executemany(
                "UPDATE games SET credentials = %s WHERE id = %s",
                [(v, k[1]) for k, v in table.items() if k[0] == "count"],
            )
    return len(table)
