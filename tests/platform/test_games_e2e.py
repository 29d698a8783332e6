"""Every game through the one generic path: created over HTTP, played by clients choosing from
``/actions`` and by bots on the worker, scored by the worker, and audited from its revealed seed."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from httpclient import Client, create, play_to_end

from projections.audit import verify

HUMAN = {"name": "Client"}


def bot(name: str = "default") -> dict[str, Any]:
    return {"name": f"Bot {name}", "bot": name}


SCENARIOS = {
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
