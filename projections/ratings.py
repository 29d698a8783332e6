"""Ratings per game: OpenSkill's Plackett–Luce model over the rated games' results.

The ``ratings`` table is a projection of the games' logs: a game whose ``kotlik.GameCreated``
says ``rated`` moves the ratings of its seats' players (a seat's ``player``, from creation or
``kotlik.SeatTaken``; a bot seat's player is its level, ``bot:<name>``, rated in the same pool)
when its ``kotlik.GameScored`` is written, in that transaction (:func:`apply`, called by the
scoring). :func:`recompute` folds every rated game's result in the order of its score's position
in the log, and :func:`stored` reads the table, so a test and ``kotlik ratings check`` can tell
that the two agree; ``kotlik ratings rebuild`` writes the recomputed table.

Why the order agrees: :func:`apply` locks the rows of the game's players before the score is
appended, so of two games that share a player, the later to lock is the later in the log.
Games that share no player commute.

A seat that resigned or forfeited ranks below every seat that did not; otherwise the winners rank
first and the rest by their total, ties sharing a rank.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from openskill.models import PlackettLuce
from psycopg import Connection

#: The model, with its defaults (mu 25, sigma 25/3): the starting rating of every player.
MODEL = PlackettLuce()
SCORED = "kotlik.GameScored"
CREATED = "kotlik.GameCreated"
TAKEN = "kotlik.SeatTaken"


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative value shown as the rating: mu less three sigma."""
        return self.mu - 3 * self.sigma


NEW = Rating(MODEL.mu, MODEL.sigma, 0)


def player_of(seat: dict[str, Any]) -> str | None:
    """Who a seat's result rates: its player's id, or its bot's level (``bot:<name>``)."""
    if seat.get("player"):
        return str(seat["player"])
    if seat.get("bot"):
        return f"bot:{seat['bot']}"
    return None


def ranks(result: dict[str, Any], seats: int) -> list[int]:
    """Each seat's rank (1 best; ties share one) in a scored result."""
    left = {int(e["seat"]) for e in result.get("ended", [])}
    winners = set(result.get("winners", []))
    totals = {int(s["seat"]): s.get("total", 0) for s in result.get("seats", []) if isinstance(s, dict)}
    keys = [(seat not in left, seat in winners, totals.get(seat) or 0) for seat in range(seats)]
    return [1 + sum(other > key for other in keys) for key in keys]


def rate(before: list[Rating], ranked: list[int]) -> list[Rating]:
    """The ratings after one game of free-for-all (each seat its own team)."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranked])
    return [Rating(t[0].mu, t[0].sigma, r.games + 1) for t, r in zip(after, before, strict=True)]


def apply(conn: Connection[Any], kind: str, seats: list[dict[str, Any]], result: dict[str, Any]) -> None:
    """Move the ratings of a rated game's players, in the scoring's transaction (before its append)."""
    who = [player_of(s) for s in seats]
    if any(p is None for p in who):
        return
    ids = [str(p) for p in who]
    conn.execute(
        "INSERT INTO ratings (game, player, mu, sigma, games) "
        "SELECT %s, p, %s, %s, 0 FROM unnest(%s::text[]) AS p ON CONFLICT DO NOTHING",
        (kind, NEW.mu, NEW.sigma, sorted(ids)),
    )
    rows = conn.execute(
        "SELECT player, mu, sigma, games FROM ratings WHERE game = %s AND player = ANY(%s) "
        "ORDER BY player FOR UPDATE",
        (kind, ids),
    ).fetchall()
    now = {r["player"]: Rating(r["mu"], r["sigma"], r["games"]) for r in rows}
    after = rate([now[p] for p in ids], ranks(result, len(seats)))
    for player, r in zip(ids, after, strict=True):
        conn.execute(
            "UPDATE ratings SET mu = %s, sigma = %s, games = %s, updated_at = now() "
            "WHERE game = %s AND player = %s",
            (r.mu, r.sigma, r.games, kind, player),
        )


def recompute(conn: Connection[Any]) -> dict[tuple[str, str], Rating]:
    """Every rating, folded from the log alone."""
    rows = conn.execute(
        "SELECT s.game_id, c.data AS created, s.data AS scored, "
        "coalesce((SELECT jsonb_agg(t.data ORDER BY t.version) FROM events t "
        "WHERE t.game_id = s.game_id AND t.type = %s), '[]') AS taken "
        "FROM events s JOIN events c ON c.game_id = s.game_id AND c.version = 1 "
        "WHERE s.type = %s AND c.type = %s AND (c.data->>'rated')::boolean ORDER BY s.position",
        (TAKEN, SCORED, CREATED),
    ).fetchall()
    table: dict[tuple[str, str], Rating] = {}
    for r in rows:
        seats = [dict(s) for s in r["created"]["seats"]]
        for taken in r["taken"]:
            seats[int(taken["seat"])]["player"] = taken["player"]
        fold_game(table, r["created"]["game"], seats, r["scored"]["score"])
    return table


def fold_game(
    table: dict[tuple[str, str], Rating], kind: str, seats: list[dict[str, Any]], result: dict[str, Any]
) -> None:
    """One rated game's result folded into ``table``, as :func:`apply` moves the stored one."""
    who = [player_of(s) for s in seats]
    if any(p is None for p in who):
        return
    keys = [(kind, str(p)) for p in who]
    after = rate([table.get(k, NEW) for k in keys], ranks(result, len(seats)))
    table.update(zip(keys, after, strict=True))


def stored(conn: Connection[Any]) -> dict[tuple[str, str], Rating]:
    rows = conn.execute("SELECT game, player, mu, sigma, games FROM ratings").fetchall()
    return {(r["game"], r["player"]): Rating(r["mu"], r["sigma"], r["games"]) for r in rows}


def rebuild(conn: Connection[Any]) -> int:
    """Replace the table with the ratings recomputed from the log; how many rows."""
    table = recompute(conn)
    with conn.transaction():
        conn.execute("LOCK TABLE ratings IN EXCLUSIVE MODE")
        conn.execute("DELETE FROM ratings")
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO ratings (game, player, mu, sigma, games) VALUES (%s, %s, %s, %s, %s)",
                [(g, p, r.mu, r.sigma, r.games) for (g, p), r in table.items()],
            )
    return len(table)


@dataclass(frozen=True)
class Entry:
    player: str
    name: str
    rating: float
    mu: float
    sigma: float
    games: int


def leaderboard(conn: Connection[Any], kind: str, limit: int, offset: int) -> tuple[list[Entry], int]:
    """A game's ratings, best (by the conservative value) first, with the total for pagination."""
    total = conn.execute("SELECT count(*) AS n FROM ratings WHERE game = %s", (kind,)).fetchone()
    rows = conn.execute(
        "SELECT r.player, r.mu, r.sigma, r.games, p.name FROM ratings r "
        "LEFT JOIN players p ON p.id::text = r.player "
        "WHERE r.game = %s ORDER BY r.mu - 3 * r.sigma DESC, r.player LIMIT %s OFFSET %s",
        (kind, limit, offset),
    ).fetchall()
    return [_entry(r) for r in rows], int(total["n"]) if total else 0


def of_player(conn: Connection[Any], player: UUID | str) -> list[dict[str, Any]]:
    """A player's rating in every game they played rated."""
    rows = conn.execute(
        "SELECT game, mu, sigma, games FROM ratings WHERE player = %s ORDER BY game", (str(player),)
    ).fetchall()
    return [
        {
            "game": r["game"],
            "rating": r["mu"] - 3 * r["sigma"],
            "mu": r["mu"],
            "sigma": r["sigma"],
            "games": r["games"],
        }
        for r in rows
    ]


def _entry(r: dict[str, Any]) -> Entry:
    player = r["player"]
    name = r["name"] or (f"{player.removeprefix('bot:')} (bot)" if player.startswith("bot:") else player)
    return Entry(player, name, r["mu"] - 3 * r["sigma"], r["mu"], r["sigma"], r["games"])
