"""The lobby read model: one ``games`` row per game, written in the transaction of its events.

A running game's seed is not in its row: it lives in ``game_seeds`` (alembic ``0004``), read only
by the deciding code (``get(..., secret=True)``: create, play, a bot's move, scoring), and is copied
to the row when the game is scored. Every read path gets ``seed=None`` until then.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg import Connection
from psycopg.types.json import Jsonb

import games
from games.interface import Rules


class GameNotFound(LookupError):
    def __init__(self, game_id: UUID | str) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


@dataclass(frozen=True)
class GameRow:
    """A game's row in the lobby; ``kind`` is what game it is (the ``game`` column and field)."""

    id: UUID
    kind: str
    status: str
    version: int
    rules_version: int
    options: dict[str, Any]
    arranged: bool
    seats: list[dict[str, Any]]
    to_move: list[int]
    result: dict[str, Any] | None
    #: ``None`` while the game runs, unless read with ``secret=True`` by the code that decides.
    seed: bytes | None
    seed_sha256: str
    created_at: datetime
    updated_at: datetime
    #: The turn clock (alembic ``0005``): ``{per_move, seconds, on_timeout, warn_seconds}`` or ``None``.
    clock: dict[str, Any] | None = None
    #: When the seats to move run out of time, while a clocked game runs.
    deadline: datetime | None = None
    #: The game a rematch of this one started, once one did.
    rematch: UUID | None = None
    #: Whether the game moves its players' ratings (alembic ``0011``).
    rated: bool = False
    #: The player who opened a game with open seats, who alone may cancel it while it waits.
    creator: UUID | None = None
    #: When a game that still waits for players expires.
    expires_at: datetime | None = None
    #: How many of its seat tokens have been reissued (alembic ``0013``): a process trusts a
    #: token it remembers only at the count it read it at (:class:`projections.tokens.KnownTokens`).
    credentials: int = 0

    @property
    def over(self) -> bool:
        return self.status != "active"

    @property
    def waiting(self) -> bool:
        """The game waits for players to take its open seats: nothing is set up yet."""
        return self.status == "open"

    @property
    def rules(self) -> Rules:
        """The rules this game started with: every fold and decision of it uses them."""
        return games.load(self.kind, self.rules_version)


_COLUMNS = (
    "id, game AS kind, status, version, rules_version, options, arranged, seats, to_move, result, "
    "seed, seed_sha256, created_at, updated_at, clock, deadline, rematch, rated, creator, "
    "expires_at, credentials"
)
#: The same columns with the seed joined from ``game_seeds``, for the code that decides.
_SECRET_COLUMNS = (
    "g.id, game AS kind, status, version, rules_version, options, arranged, seats, to_move, result, "
    "coalesce(s.seed, g.seed) AS seed, seed_sha256, created_at, updated_at, clock, deadline, rematch, "
    "rated, creator, expires_at, credentials"
)


def insert(
    conn: Connection[Any],
    game_id: UUID,
    kind: str,
    rules_version: int,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    seed: bytes,
    seed_sha256: str,
) -> None:
    """A new running game; its seed goes to ``game_seeds``, not the row (one statement)."""
    conn.execute(
        "WITH g AS (INSERT INTO games (id, game, status, rules_version, options, seats, seed_sha256) "
        "VALUES (%s, %s, 'active', %s, %s, %s, %s) RETURNING id) "
        "INSERT INTO game_seeds (game_id, seed) SELECT id, %s FROM g",
        (game_id, kind, rules_version, Jsonb(options), Jsonb(seats), seed_sha256, seed),
    )


def opened(
    conn: Connection[Any], game_id: UUID, rated: bool, creator: UUID | None, expires_in: float | None
) -> None:
    """A new game is rated, or waits for players (with ``expires_in``) until its last seat is taken."""
    conn.execute(
        "UPDATE games SET rated = %(rated)s, creator = %(creator)s, "
        "status = CASE WHEN %(expires)s::float8 IS NULL THEN status ELSE 'open' END, "
        "expires_at = now() + make_interval(secs => %(expires)s::float8) WHERE id = %(game)s",
        {"rated": rated, "creator": creator, "expires": expires_in, "game": game_id},
    )


def restore(conn: Connection[Any], row: GameRow) -> None:
    """The row of a finished game brought from elsewhere (an import), with its score."""
    conn.execute(
        "INSERT INTO games (id, game, status, version, rules_version, options, arranged, seats, to_move, "
        "result, seed, seed_sha256, created_at, updated_at) "
        "VALUES (%s, %s, 'finished', %s, %s, %s, %s, %s, '[]', %s, %s, %s, %s, %s)",
        (
            row.id,
            row.kind,
            row.version,
            row.rules_version,
            Jsonb(row.options),
            row.arranged,
            Jsonb(row.seats),
            Jsonb(row.result),
            row.seed,
            row.seed_sha256,
            row.created_at,
            row.updated_at,
        ),
    )
    conn.execute(
        "INSERT INTO scores (game_id, version, score, scored_at) VALUES (%s, %s, %s, %s)",
        (row.id, row.version, Jsonb(row.result), row.updated_at),
    )


def get(conn: Connection[Any], game_id: UUID, *, lock: bool = False, secret: bool = False) -> GameRow:
    """A game's row; ``secret=True`` (for the code that decides only) joins in its seed."""
    return later(conn, game_id, lock=lock, secret=secret)()


def later(
    conn: Connection[Any], game_id: UUID, *, lock: bool = False, secret: bool = False
) -> Callable[[], GameRow]:
    """:func:`get`, asked now and answered when called: in a pipeline (``conn.pipeline()``) whose
    results are taken after it ends, the read shares one round trip with the statements around
    it. (psycopg syncs for a result taken inside a pipeline, and again at its end: two.)"""
    if secret:
        sql = (
            f"SELECT {_SECRET_COLUMNS} FROM games g LEFT JOIN game_seeds s ON s.game_id = g.id "
            "WHERE g.id = %s" + (" FOR UPDATE OF g" if lock else "")
        )
    else:
        sql = f"SELECT {_COLUMNS} FROM games WHERE id = %s" + (" FOR UPDATE" if lock else "")
    cursor = conn.execute(sql, (game_id,))

    def answer() -> GameRow:
        row = cursor.fetchone()
        if row is None:
            raise GameNotFound(game_id)
        return GameRow(**row)

    return answer


def finish(
    conn: Connection[Any], game_id: UUID, version: int, score: dict[str, Any], seed: bytes | None
) -> None:
    """The game is scored: its result, and its seed revealed in the row."""
    conn.execute(
        "UPDATE games SET version = %s, status = 'finished', to_move = '[]', result = %s, "
        "seed = coalesce(%s, seed), updated_at = now() WHERE id = %s",
        (version, Jsonb(score), seed, game_id),
    )
    conn.execute(
        "INSERT INTO scores (game_id, version, score) VALUES (%s, %s, %s)",
        (game_id, version, Jsonb(score)),
    )


def page(
    conn: Connection[Any],
    game: str | None,
    status: str | None,
    limit: int,
    offset: int,
    *,
    rated: bool | None = None,
) -> tuple[list[GameRow], int]:
    """Games newest first, filtered (``status='open'``: the games waiting for players; ``rated``:
    rated or casual ones only), with the total count for pagination."""
    where = (
        "WHERE (%(game)s::text IS NULL OR game = %(game)s) "
        "AND (%(status)s::text IS NULL OR status = %(status)s) "
        "AND (%(rated)s::boolean IS NULL OR rated = %(rated)s)"
    )
    params = {"game": game, "status": status, "rated": rated, "limit": limit, "offset": offset}
    total = conn.execute(f"SELECT count(*) AS n FROM games {where}", params).fetchone()
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM games {where} ORDER BY created_at DESC, id "
        "LIMIT %(limit)s OFFSET %(offset)s",
        params,
    ).fetchall()
    return [GameRow(**r) for r in rows], int(total["n"]) if total else 0


def stalled(conn: Connection[Any], idle_seconds: float, limit: int = 500) -> list[GameRow]:
    """Games waiting on a worker (a bot to move, or scoring) that have not moved for a while."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM games WHERE status IN ('active', 'scoring') "
        "AND updated_at < now() - make_interval(secs => %s) "
        "AND (status = 'scoring' OR EXISTS (SELECT FROM jsonb_array_elements_text(to_move) AS s(seat) "
        "WHERE seats -> s.seat::int ->> 'bot' IS NOT NULL)) "
        "ORDER BY updated_at LIMIT %s",
        (idle_seconds, limit),
    ).fetchall()
    return [GameRow(**r) for r in rows]


def score(conn: Connection[Any], game_id: UUID) -> dict[str, Any] | None:
    row = conn.execute("SELECT score FROM scores WHERE game_id = %s", (game_id,)).fetchone()
    return row["score"] if row else None
