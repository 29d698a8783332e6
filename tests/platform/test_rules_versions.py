"""A game is folded, decided and scored with the rules version it started with, after a rule change.

The test-only game ``tally`` (``rulechange/``) is put on ``games.__path__`` twice, as a deploy
would ship it: ``before`` (rules version 1: a pip counts once) and ``after`` (version 2: a pip
counts double; version 1 kept verbatim in ``v1.py``). Games stored before the change are then read
through the Flask app on the real database, played on and verified, under the new deploy.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

import commands
import games
from audit.verify import check, parse
from projections import lobby

HERE = Path(__file__).resolve().parent / "rulechange"
SEATS = [{"name": "A"}, {"name": "B"}]


@pytest.fixture
def deploy(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """``deploy("before")`` / ``deploy("after")``: the server as if restarted with that ``tally``."""
    original = list(games.__path__)

    def forget() -> None:
        for name in [m for m in sys.modules if m == "games.tally" or m.startswith("games.tally.")]:
            del sys.modules[name]
        games.load.cache_clear()

    def to(which: str) -> None:
        forget()
        monkeypatch.setattr(games, "__path__", [*original, str(HERE / which)])

    yield to
    monkeypatch.undo()
    forget()


def _roll(pool: Any, game_id: UUID, times: int) -> list[dict[str, Any]]:
    """Play ``roll`` for whoever is to move, ``times`` times; the events, as stored."""
    stored = []
    with pool.connection() as conn:
        for _ in range(times):
            seat = lobby.get(conn, game_id).to_move[0]
            played = commands.play(conn, game_id, seat, {"type": "roll"})
            stored += [{"type": e.type, **e.data, "meta": e.meta} for e in played.events]
    return stored


def _totals(events: list[dict[str, Any]], per_pip: int) -> list[int]:
    totals = [0, 0]
    for event in events:
        if event["type"] == "Rolled":
            totals[event["seat"]] += per_pip * event["pips"]
    return totals


def _state_at(client: Any, game_id: UUID, version: int) -> dict[str, Any]:
    """The view replayed with ``?at=``: a cold fold from the stored events."""
    reply = client.get(f"/api/v1/games/{game_id}/state?at={version}")
    assert reply.status_code == 200, reply.get_json()
    return dict(reply.get_json()["view"])


def test_stored_games_keep_their_rules_version_after_a_rule_change(
    app: Any, pool: Any, deploy: Callable[[str], None]
) -> None:
    client = app.test_client()
    deploy("before")
    with pool.connection() as conn:
        finished = commands.create_game(conn, "tally", SEATS, {}).game.id
        running = commands.create_game(conn, "tally", SEATS, {}).game.id
    finished_events = _roll(pool, finished, 6)
    with pool.connection() as conn:
        commands.score_game(conn, finished, lobby.get(conn, finished).version)
    running_events = _roll(pool, running, 2)
    exported = client.get(f"/api/v1/games/{finished}/export").data
    assert check(parse(exported.splitlines())).ok

    deploy("after")
    assert games.load("tally").INFO.rules_version == 2 and games.versions("tally") == [1, 2]
    with pytest.raises(games.UnknownRulesVersion, match="tally has no rules version 3"):
        games.load("tally", 3)
    assert (HERE / "after/tally/v1.py").read_bytes() == (HERE / "before/tally/__init__.py").read_bytes()

    summary = client.get(f"/api/v1/games/{finished}").get_json()
    assert summary["rules_version"] == 1 and summary["status"] == "finished"
    final = _state_at(client, finished, summary["version"])
    assert final["totals"] == _totals(finished_events, 1) != _totals(finished_events, 2)
    assert summary["result"]["seats"][0]["total"] == final["totals"][0]
    assert check(parse(exported.splitlines())).ok, "a version 1 export still verifies under the new deploy"

    # The running game is decided with version 1 too: its new event has no `double`.
    more = _roll(pool, running, 1)
    assert "double" not in more[0] and more[0]["meta"]["rules_version"] == 1
    version = client.get(f"/api/v1/games/{running}").get_json()["version"]
    assert _state_at(client, running, version)["totals"] == _totals(running_events + more, 1)

    # A new game gets the new rules.
    with pool.connection() as conn:
        created = commands.create_game(conn, "tally", SEATS, {}).game
    assert created.rules_version == 2
    new = _roll(pool, created.id, 1)
    assert new[0]["double"] is True and new[0]["meta"]["rules_version"] == 2
    assert client.get(f"/api/v1/games/{created.id}").get_json()["rules_version"] == 2
    assert _state_at(client, created.id, created.version + 1)["totals"] == _totals(new, 2)

    # The same log claimed for version 2 does not verify: its events were not decided by those rules.
    head, *events, _signature = [json.loads(line) for line in exported.splitlines()]
    naive = check(parse([json.dumps(line) for line in [{**head, "rules_version": 2}, *events]]))
    assert [p.version for p in naive.problems] == [1]
    for event in events:  # a careful forger says version 2 everywhere
        event["meta"]["rules_version"] = 2
    events[0]["data"]["rules_version"] = 2
    verdict = check(parse([json.dumps(line) for line in [{**head, "rules_version": 2}, *events]]))
    first = next(e for e in events if e["type"] == "Rolled")
    assert [p.version for p in verdict.problems] == [first["version"]]
    assert "double: expected true, found nothing" in verdict.problems[0].how


def test_a_game_under_rules_this_server_does_not_ship_gets_a_clear_problem(
    app: Any, pool: Any, deploy: Callable[[str], None]
) -> None:
    """A deploy rolled back past a game's rules version: 503 naming the version, not a 500."""
    client = app.test_client()
    deploy("after")
    with pool.connection() as conn:
        game_id = commands.create_game(conn, "tally", SEATS, {}).game.id
    _roll(pool, game_id, 1)
    deploy("before")
    for path in ("/state", "/state?at=2", "/state?wait=5&since=0", "/events", "/export", "/stream"):
        reply = client.get(f"/api/v1/games/{game_id}{path}")
        assert reply.status_code == 503, (path, reply.data)
        problem = reply.get_json()
        assert reply.mimetype == "application/problem+json" and problem["status"] == 503
        assert problem["type"].endswith("/unknown-rules-version"), problem
        assert "tally has no rules version 2" in problem["detail"], problem
    assert client.get(f"/api/v1/games/{game_id}").get_json()["rules_version"] == 2
