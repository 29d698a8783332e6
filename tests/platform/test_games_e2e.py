"""Every game through the one generic path: created over HTTP, played by clients choosing from
``/actions`` and by bots on the worker, scored by the worker, and audited from its revealed seed.

Every game the registry lists (``games.known()``) is played: the scenarios below, and for a game
they do not name, a client against the default bots at its fewest seats."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from httpclient import Client, create, play_to_end

import games
from audit.stored import verify

HUMAN = {"name": "Client"}


def bot(name: str = "default") -> dict[str, Any]:
    return {"name": f"Bot {name}", "bot": name}


CHOSEN = {
    "kupferkessel: a client against the default bot": ("kupferkessel", [HUMAN, bot()], {}),
    "kupferkessel with recipes, two clients": ("kupferkessel", [HUMAN, HUMAN], {"recipes": True}),
    "carodeni: a client and two default bots": ("carodeni", [HUMAN, bot(), bot()], {}),
    "carodeni: five seats with animals": (
        "carodeni",
        [HUMAN, bot(), bot(), bot("random"), bot()],
        {"animals": True, "animal_goals": 1},
    ),
    "carodeni: solo against Ostara": (
        "carodeni",
        [HUMAN, bot("ostara")],
        {"solo": True, "difficulty": "experienced"},
    ),
    "skodakouzla: a client against the default bot": ("skodakouzla", [HUMAN, bot()], {}),
    "skodakouzla: two clients": ("skodakouzla", [HUMAN, HUMAN], {}),
    "carcassonne: a client and two default bots": ("carcassonne", [HUMAN, bot(), bot()], {}),
}


def _scenarios() -> dict[str, tuple[str, list[dict[str, Any]], dict[str, Any]]]:
    """The chosen scenarios, and one for every other game the registry lists."""
    out = dict(CHOSEN)
    chosen = {game_id for game_id, _, _ in CHOSEN.values()}
    for game_id in games.known():
        if game_id not in chosen:
            bots = [bot()] * (games.load(game_id).INFO.min_seats - 1)
            out[f"{game_id}: a client against the default bots"] = (game_id, [HUMAN, *bots], {})
    return out


SCENARIOS = _scenarios()


@pytest.mark.e2e
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_played_to_finished_scored_and_audited(scenario: str, live_url: str, worker: Any, pool: Any) -> None:
    game_id, seats, options = SCENARIOS[scenario]
    api = Client(live_url)
    game = create(api, game_id, seats, options)
    summary = play_to_end(api, game, seed=len(scenario))
    assert summary["status"] == "finished"
    score = api.get(f"/api/v1/games/{game['id']}/score").body
    assert summary["result"] == score
    assert {s["seat"] for s in score["seats"]} == set(range(len(seats)))
    for seat in score["seats"]:
        assert seat["total"] == sum(seat["breakdown"].values())
    assert score["winners"] and set(score["winners"]) <= set(range(len(seats)))
    bots = {s["seat"] for s in game["seats"] if s["bot"]}
    events = api.get(f"/api/v1/games/{game['id']}/events").body
    assert bots <= {e["seat"] for e in events}, "a bot seat never moved"
    with pool.connection() as conn:
        assert verify(conn, UUID(game["id"])) == []


#: Seatings the rules forbid, each refused with 422 before anything is written.
FORBIDDEN_SEATS = {
    "solo Čarodění with Ostara listed first": ([bot("ostara"), HUMAN], {"solo": True}),
    "solo Čarodění with two people": ([HUMAN, HUMAN], {"solo": True}),
    "the ostara bot in a game of players": ([HUMAN, bot("ostara"), bot()], {}),
}


@pytest.mark.e2e
@pytest.mark.parametrize("case", list(FORBIDDEN_SEATS))
def test_a_seating_the_rules_forbid_is_422_and_creates_no_game(case: str, live_url: str, pool: Any) -> None:
    seats, options = FORBIDDEN_SEATS[case]
    api = Client(live_url)
    with pool.connection() as conn:
        before = conn.execute("SELECT count(*) FROM games").fetchone()["count"]
    reply = api.post("/api/v1/games", {"game": "carodeni", "seats": seats, "options": options})
    assert reply.status == 422, reply
    assert reply.problem["type"].endswith("/invalid-options") and "ostara" in reply.problem["detail"], reply
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()["count"] == before
