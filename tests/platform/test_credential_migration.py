"""Migration 0013 writes the tokens and keys there are into the new log of credentials, so that
``seat_tokens`` and the players' keys rebuild from it whole on a database that had games before."""

from __future__ import annotations

import hashlib
from pathlib import Path
from uuid import uuid4

import psycopg
from alembic.config import Config
from processes import fresh_database
from psycopg.rows import dict_row

from alembic import command
from events.database import sqlalchemy_url
from projections import credentials

ROOT = Path(__file__).resolve().parents[2]


def _config(url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.attributes["url"] = sqlalchemy_url(url)
    return config


def test_the_tokens_and_keys_before_0013_are_logged_as_issued(server_url: str) -> None:
    with fresh_database(server_url) as url:
        config = _config(url)
        command.upgrade(config, "0012")
        game, player = uuid4(), uuid4()
        with psycopg.connect(url, row_factory=dict_row, autocommit=True) as conn:
            conn.execute(
                "INSERT INTO games (id, game, status, rules_version, options, seats, seed_sha256) "
                "VALUES (%s, 'kupferkessel', 'active', 1, '{}', '[]', 'x')",
                (game,),
            )
            for seat in (0, 1):
                digest = hashlib.sha256(f"token-{seat}".encode()).digest()
                conn.execute(
                    "INSERT INTO seat_tokens (game_id, seat, token_hash, expires_at) "
                    "VALUES (%s, %s, %s, now() + interval '1 day')",
                    (game, seat, digest),
                )
            key = hashlib.sha256(b"key").digest()
            conn.execute("INSERT INTO players (id, name, key_hash) VALUES (%s, 'Eva', %s)", (player, key))
        command.upgrade(config, "0013")
        with psycopg.connect(url, row_factory=dict_row, autocommit=True) as conn:
            logged = conn.execute("SELECT type, game_id, seat, player_id FROM credential_events").fetchall()
            assert sorted((r["type"], r["seat"]) for r in logged) == [
                ("PlayerKeyIssued", None),
                ("SeatTokenIssued", 0),
                ("SeatTokenIssued", 1),
            ]
            assert credentials.recompute(conn) == credentials.stored(conn)
            assert conn.execute("SELECT credentials FROM games").fetchone() == {"credentials": 0}
        command.downgrade(config, "0012")
        command.upgrade(config, "head")
