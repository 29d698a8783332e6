"""Ratings: OpenSkill's Plackett–Luce over rated games, moved by the scoring worker in the
scoring's transaction, and a projection of the log (a rebuild equals the table)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from typing import Any
from uuid import uuid4

import pytest
from httpclient import Client, play_to_end
from openskill.models import PlackettLuce

import commands
from projections import players, ratings

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def api(live_url: str, worker: Any) -> Client:
    return Client(live_url)


def player(api: Client, name: str) -> tuple[str, Client]:
    reply = api.post("/api/v1/players", {"name": f"{name}-{uuid4().hex[:8]}"})
    assert reply.status == 201, reply
    return reply.body["id"], api.seat(reply.body["key"])


def test_a_rated_four_player_carcassonne_moves_each_rating_as_openskill_says(api: Client) -> None:
    four = [player(api, n) for n in ("ana", "ben", "cyd", "dan")]
    seats = [{"player": four[0][0]}, *[{"open": True}] * 3]
    created = four[0][1].post("/api/v1/games", {"game": "carcassonne", "seats": seats, "rated": True})
    assert created.status == 201, created
    game = dict(created.body)
    tokens = {0: game["seats"][0]["token"]}  # a joined seat is played with its player's key
    for seat, (_, client) in enumerate(four[1:], start=1):
        joined = client.post(f"/api/v1/games/{game['id']}/join", {"seat": seat})
        assert joined.status == 201, joined
        tokens[seat] = client.token
    game["seats"] = [{"seat": s, "token": t} for s, t in tokens.items()]
    result = play_to_end(api, game, seed=4)["result"]

    # Independently: ranks by total (the winners share the best), each a team of one, all new.
    totals = {s["seat"]: s["total"] for s in result["seats"]}
    ranks = [1 + sum(t > totals[seat] for t in totals.values()) for seat in range(4)]
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=ranks)
    board = {e["player"]: e for e in api.get("/api/v1/ratings/carcassonne?page_size=100").body}
    for seat, (pid, _) in enumerate(four):
        want = expected[seat][0]
        got = board[pid]
        assert got["games"] == 1 and got["mu"] == pytest.approx(want.mu, abs=1e-9), (seat, got, want)
        assert got["sigma"] == pytest.approx(want.sigma, abs=1e-9)
        assert got["rating"] == pytest.approx(want.mu - 3 * want.sigma, abs=1e-9)
        profile = api.get(f"/api/v1/players/{pid}").body
        assert profile["ratings"][0]["mu"] == got["mu"] and profile["games_played"] == 1
        assert profile["recent"][0]["outcome"] == ("won" if seat in result["winners"] else "lost")
        assert "key" not in profile and "webhooks" not in profile
    # A lone winner is the best rated; winners who tie share a rank, and Plackett-Luce may then rate
    # a seat ranked below them higher (seen once in CI), so the check is for a lone winner only.
    best = max(range(4), key=lambda s: expected[s][0].mu - 3 * expected[s][0].sigma)
    assert result["winners"]
    if len(result["winners"]) == 1:
        assert best in result["winners"]


def test_a_casual_game_moves_no_rating_and_a_resignation_is_a_loss(api: Client) -> None:
    (a, alice), (b, bob) = player(api, "al"), player(api, "bo")
    casual = alice.post("/api/v1/games", {"game": "kupferkessel", "seats": [{"player": a}, {"open": True}]})
    bob.post(f"/api/v1/games/{casual.body['id']}/join", {})
    alice.post(f"/api/v1/games/{casual.body['id']}/resign", {})
    rated = alice.post(
        "/api/v1/games", {"game": "kupferkessel", "seats": [{"player": a}, {"open": True}], "rated": True}
    )
    bob.post(f"/api/v1/games/{rated.body['id']}/join", {})
    assert alice.post(f"/api/v1/games/{rated.body['id']}/resign", {}).status in (200, 201)
    for _ in range(300):
        if api.get(f"/api/v1/games/{rated.body['id']}").body["status"] == "finished":
            break
        api.get(f"/api/v1/games/{rated.body['id']}/state?wait=1", headers={"If-None-Match": '"0"'})
    board = {e["player"]: e for e in api.get("/api/v1/ratings/kupferkessel?page_size=100").body}
    assert board[a]["games"] == 1 and board[b]["games"] == 1, "the casual game is not counted"
    assert board[b]["mu"] > 25 > board[a]["mu"]


def test_the_ratings_table_equals_its_rebuild_after_200_random_rated_games(api: Client, pool: Any) -> None:
    """Scored four at a time (so the order of commits is tested too), among eight players and two
    bot levels, with seats resigning at random; some games casual."""
    rng = random.Random(49)
    with pool.connection() as conn:
        people = [players.create(conn, f"r{i}-{uuid4().hex[:6]}")[0].id for i in range(8)]
    plans = []
    for _ in range(200):
        kind = rng.choice(["kupferkessel", "carcassonne"])
        count = 2 if kind == "kupferkessel" else rng.randint(3, 5)
        entrants: list[dict[str, Any]] = [{"player": p} for p in rng.sample(people, count)]
        if rng.random() < 0.3:
            entrants[rng.randrange(count)] = {"name": "bot", "bot": rng.choice(["default", "random"])}
        humans = [i for i, e in enumerate(entrants) if "player" in e]
        leaving = rng.sample(humans, rng.randint(1, len(humans) - 1 if len(humans) > 1 else 1))
        plans.append((kind, entrants, leaving, rng.random() < 0.9))

    def run(chunk: list[Any]) -> None:
        with pool.connection() as conn:
            for kind, entrants, leaving, rated in chunk:
                created = commands.create_game(conn, kind, entrants, {}, rated=rated)
                played = commands.resign(conn, created.game.id, leaving, "resigned")
                commands.score_game(conn, created.game.id, played.version)

    threads = [threading.Thread(target=run, args=(plans[i::4],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with pool.connection() as conn:
        stored = ratings.stored(conn)
        assert ratings.recompute(conn) == stored
        assert sum(r.games for (g, p), r in stored.items() if p in {str(x) for x in people}) >= 400
        ratings.rebuild(conn)
        assert ratings.stored(conn) == stored
    board = api.get("/api/v1/ratings/kupferkessel?page_size=100")
    assert board.status == 200, board
    bots = {e["player"]: e["name"] for e in board.body if e["player"].startswith("bot:")}
    assert bots and all(name.endswith("(bot)") for name in bots.values()), "bot levels are rated players"
    ranked = [e["rating"] for e in board.body]
    assert ranked == sorted(ranked, reverse=True)


def test_names_are_unique_whatever_their_case_and_a_player_may_rename(api: Client) -> None:
    name = f"Unique-{uuid4().hex[:8]}"
    first = api.post("/api/v1/players", {"name": name})
    assert first.status == 201
    taken = api.post("/api/v1/players", {"name": name.upper()})
    assert taken.status == 409 and taken.problem["type"].endswith("name-taken")
    _, other = player(api, "renamer")
    assert other.request("PATCH", "/api/v1/players/me", {"name": name.lower()}).status == 409
    renamed = other.request("PATCH", "/api/v1/players/me", {"name": f"{name}-2"})
    assert renamed.status == 200 and renamed.body["name"] == f"{name}-2"
    assert api.get(f"/api/v1/players/{renamed.body['id']}").body["name"] == f"{name}-2"


def test_kotlik_ratings_check_finds_a_tampered_row_and_rebuild_mends_it(
    api: Client, pool: Any, database_url: str
) -> None:
    def kotlik(*args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "DATABASE_URL": database_url}
        return subprocess.run(
            [sys.executable, "-m", "service.cli", *args], env=env, capture_output=True, text=True, timeout=120
        )

    (a, alice), (_, bob) = player(api, "cli"), player(api, "cla")
    game = alice.post(
        "/api/v1/games", {"game": "kupferkessel", "seats": [{"player": a}, {"open": True}], "rated": True}
    )
    bob.post(f"/api/v1/games/{game.body['id']}/join", {})
    bob.post(f"/api/v1/games/{game.body['id']}/resign", {})
    deadline = time.monotonic() + 60
    while api.get(f"/api/v1/games/{game.body['id']}").body["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert kotlik("ratings", "check").returncode == 0
    with pool.connection() as conn:
        conn.execute("UPDATE ratings SET mu = mu + 1 WHERE game = 'kupferkessel' AND player = %s", (a,))
    tampered = kotlik("ratings", "check")
    assert tampered.returncode == 1 and a in tampered.stdout and "1 differ" in tampered.stdout, tampered
    assert kotlik("ratings", "rebuild").returncode == 0
    assert kotlik("ratings", "check").returncode == 0
    assert kotlik("seeks", "check").returncode == 0
