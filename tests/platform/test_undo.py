"""Undo within a turn over HTTP, in every game: ``/actions`` offers ``{"type": "undo"}`` exactly when
the seat may take a move back, ``POST /commands`` with it puts the game back as it was before the
move and logs ``kotlik.Undone`` (which every seat sees, in ``/events`` and the stream), a refused
undo is a 409 ``undo-refused`` problem with its ``reason`` and leaves the log as it was, and a
finished game with undos exports a file ``kotlik verify`` accepts, while a forged undo is refused.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from httpclient import Client, create, game_path, streamed

import games
from audit.verify import check, parse
from events import read
from games.rng import Rng
from projections.fold import fold_log, state_at

GAMES = ["carcassonne", "carodeni", "kupferkessel", "skodakouzla"]
UNDO = {"type": "undo"}


def _actions(client: Client, game: dict[str, Any]) -> list[dict[str, Any]]:
    reply = client.get(game_path(game, "/actions"))
    assert reply.status == 200, reply
    return list(reply.body)


def _summary(api: Client, game: dict[str, Any]) -> dict[str, Any]:
    return dict(api.get(game_path(game)).body)


def play_until_undo(api: Client, game: dict[str, Any], seed: int) -> dict[str, Any]:
    """Play both seats (the game's random bot choosing, never an undo) until the seat to move is
    offered an undo; what the test needs to know then."""
    choose = games.load(game["game"]).BOTS["random"]
    rng = Rng(f"undo-http-{seed}".encode(), "client")
    clients = {s["seat"]: api.seat(s["token"]) for s in game["seats"]}
    for _ in range(400):
        summary = _summary(api, game)
        assert summary["status"] == "active", summary
        seat = summary["to_move"][0]
        client = clients[seat]
        before = client.get(game_path(game, "/state")).body
        actions = _actions(client, game)
        assert UNDO not in actions or actions[-1] == UNDO
        moves = [a for a in actions if a != UNDO]
        command = dict(choose(before["view"], moves, rng))
        played = client.post(
            game_path(game, "/commands"), {**command, "expected_version": summary["version"]}
        )
        assert played.status == 201, (command, played)
        if seat in played.body["to_move"] and UNDO in _actions(client, game):
            return {
                "seat": seat,
                "client": client,
                "before": before,
                "command": command,
                "played": played.body,
            }
    raise AssertionError(f"no undo offered in 400 moves of {game['game']}")


@pytest.fixture(scope="module")
def api(live_url: str) -> Client:
    return Client(live_url)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_seat_takes_back_its_move_over_http(api: Client, game_id: str, worker: Any, pool: Any) -> None:
    game = create(api, game_id, [{"name": "A"}, {"name": "B"}])
    found = play_until_undo(api, game, seed=len(game_id))
    seat, client, before = found["seat"], found["client"], found["before"]
    other = api.seat(game["seats"][1 - seat]["token"])
    assert UNDO not in _actions(other, game), "only the seat to move is offered an undo"
    refused = other.post(game_path(game, "/commands"), UNDO)
    assert refused.status == 409 and refused.problem["type"] == "/problems/undo-refused", refused
    assert refused.problem["reason"] == "not_to_move"

    version = found["played"]["version"]
    undone = client.post(game_path(game, "/commands"), {**UNDO, "expected_version": version})
    assert undone.status == 201, undone
    event = undone.body["events"][0]
    assert event["type"] == "kotlik.Undone" and event["seat"] == seat and event["command"] == UNDO
    assert event["data"]["to"] == before["version"] and event["data"]["command"] == found["command"]["type"]
    assert event["data"]["undone"] == list(range(before["version"] + 1, version + 1))
    assert undone.body["version"] == version + 1 and seat in undone.body["to_move"]
    after = client.get(game_path(game, "/state")).body
    assert after["view"] == before["view"], "the seat sees the game as before its move"
    assert after["version"] == version + 1
    # the other seat sees the undo in the log and in the stream, and the table as before too
    log = other.get(game_path(game, "/events")).body
    assert log[-1]["type"] == "kotlik.Undone" and log[-1]["data"] == event["data"]
    assert log[-1]["command"] == UNDO
    assert streamed(other, game_path(game), version + 1)[-1]["type"] == "kotlik.Undone"
    assert (
        other.get(game_path(game, "/state")).body["view"]
        == other.get(game_path(game, f"/state?at={before['version']}")).body["view"]
    )

    _folds_alike(pool, game, placed_at=version)

    # idempotent: the same key answers the first undo again, and appends nothing
    key = {"Idempotency-Key": "undo-again"}
    actions = _actions(client, game)
    if UNDO in actions:
        first = client.post(game_path(game, "/commands"), UNDO, headers=key)
        again = client.post(game_path(game, "/commands"), UNDO, headers=key)
        assert first.status == again.status == 201 and again.headers.get("Idempotent-Replayed") == "true"
        assert again.body["version"] == first.body["version"] == _summary(api, game)["version"]
    # back at the start of the turn: nothing more to take back, said with a reason; the log stays
    while UNDO in _actions(client, game):
        assert client.post(game_path(game, "/commands"), UNDO).status == 201
    length = _summary(api, game)["version"]
    refused = client.post(game_path(game, "/commands"), UNDO)
    assert refused.status == 409, refused
    assert refused.problem["reason"] in ("other_seat", "revealed", "nothing"), refused.problem
    assert _summary(api, game)["version"] == length
    malformed = client.post(game_path(game, "/commands"), {"type": "undo", "steps": 2})
    assert malformed.status == 422, malformed
    assert _summary(api, game)["version"] == length


def test_an_undo_is_refused_once_something_came_to_light(api: Client) -> None:
    """Carcassonne: a tile placed may be taken back; once the follower is placed (or passed) the
    next tile is drawn and the seat's turn is over."""
    game = create(api, "carcassonne", [{"name": "A"}, {"name": "B"}])
    seat = _summary(api, game)["to_move"][0]
    client = api.seat(game["seats"][seat]["token"])
    client.post(game_path(game, "/commands"), _actions(client, game)[0])
    assert _actions(client, game)[-1] == UNDO
    _past_the_magic(client, game)
    finishing = next(a for a in _actions(client, game) if a["type"] == "pass")
    assert client.post(game_path(game, "/commands"), finishing).status == 201
    nxt = api.seat(game["seats"][1 - seat]["token"])
    assert UNDO not in _actions(nxt, game)
    refused = nxt.post(game_path(game, "/commands"), UNDO)
    assert refused.status == 409 and refused.problem["reason"] in ("revealed", "other_seat"), refused.problem


def _finished_with_undos(api: Client, game_id: str) -> dict[str, Any]:
    game = create(api, game_id, [{"name": "A"}, {"name": "B"}])
    found = play_until_undo(api, game, seed=7)
    assert found["client"].post(game_path(game, "/commands"), UNDO).status == 201
    assert found["client"].post(game_path(game, "/commands"), found["command"]).status == 201
    assert found["client"].post(game_path(game, "/commands"), UNDO).status == 201
    assert found["client"].post(game_path(game, "/resign")).status in (200, 201, 202)
    deadline = time.monotonic() + 60
    while _summary(api, game)["status"] != "finished":
        assert time.monotonic() < deadline, "the resigned game was not scored"
        time.sleep(0.2)
    return game


def test_a_game_with_undos_verifies_and_a_forged_undo_does_not(
    api: Client, worker: Any, tmp_path: Path
) -> None:
    game = _finished_with_undos(api, "kupferkessel")
    raw = api.get(game_path(game, "/export")).raw
    verdict = check(parse(raw.splitlines()))
    assert verdict.ok, verdict.report()
    assert verdict.undos == 2 and "2 undos" in verdict.report()

    lines = [json.loads(line) for line in raw.splitlines() if "signature" not in json.loads(line)]
    undos = [i for i, e in enumerate(lines) if e.get("type") == "kotlik.Undone"]
    forged = json.loads(json.dumps(lines))
    forged[undos[0]]["data"]["to"] -= 1  # back further than the seat's move
    assert not check(parse(json.dumps(e) for e in forged)).ok
    forged = json.loads(json.dumps(lines))
    forged[undos[0]]["meta"]["seat"] = 1 - forged[undos[0]]["meta"]["seat"]  # the other seat's undo
    forged[undos[0]]["seat"] = forged[undos[0]]["meta"]["seat"]
    verdict = check(parse(json.dumps(e) for e in forged))
    assert not verdict.ok and "undo" in verdict.report(), verdict.report()
    dropped = [e for i, e in enumerate(lines) if i != undos[0]]  # the undo cut out of the log
    assert not check(parse(json.dumps(e) for e in dropped)).ok


def test_actions_say_which_moves_are_final(api: Client) -> None:
    """``?final=true``: the header lists the moves no undo could take back (Carcassonne: a tile
    placed is not final, nor the figure a mage symbol asks for; the follower placed or passed draws
    the next tile, so it is)."""
    game = create(api, "carcassonne", [{"name": "A"}, {"name": "B"}])
    seat = _summary(api, game)["to_move"][0]
    client = api.seat(game["seats"][seat]["token"])
    tiles = client.get(game_path(game, "/actions?final=true"))
    assert tiles.status == 200 and tiles.headers["Kotlik-Final"] == "", tiles.headers
    assert tiles.body == _actions(client, game)
    client.post(game_path(game, "/commands"), tiles.body[0])
    magic = client.get(game_path(game, "/actions?final=true"))
    if _past_the_magic(client, game):
        assert magic.headers["Kotlik-Final"] == "", magic.headers
    after = client.get(game_path(game, "/actions?final=true"))
    final = [int(i) for i in after.headers["Kotlik-Final"].split(",")]
    assert {after.body[i]["type"] for i in final} == {a["type"] for a in after.body} - {"undo"}
    assert after.body[-1] == UNDO and len(after.body) - 1 not in final
    assert "Kotlik-Final" not in _summary(api, game), "asked for, not sent by default"
    assert "Kotlik-Final" not in client.get(game_path(game, "/actions")).headers


def _past_the_magic(client: Client, game: dict[str, Any]) -> bool:
    """Carcassonne after a tile: when it bore the mage symbol, place the figure it asks for (not
    final either) so that the follower step is next; whether it did."""
    first = _actions(client, game)[0]
    if first["type"] != "place_magic":
        return False
    assert client.post(game_path(game, "/commands"), first).status == 201
    return True


def _folds_alike(pool: Any, game: dict[str, Any], placed_at: int) -> None:
    """The state after an undo, folded cold from the log, equals the whole log's fold, with and
    without a snapshot between the version the undo returns to and the undo itself (a fold from
    that snapshot meets the undo and reads the earlier state again)."""
    from uuid import UUID

    from psycopg.types.json import Jsonb

    rules = games.load(game["game"])
    game_id = UUID(game["id"])
    with pool.connection() as conn:
        events = read(conn, game_id)
        whole = fold_log(rules, ((e.version, e.body()) for e in events))
        assert json.loads(json.dumps(state_at(conn, game_id, rules).state)) == json.loads(json.dumps(whole))
        between = state_at(conn, game_id, rules, at=placed_at)
        conn.execute(
            "INSERT INTO snapshots (game_id, version, rules_version, state) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT DO NOTHING",
            (game_id, placed_at, rules.INFO.rules_version, Jsonb(between.state)),
        )
        assert json.loads(json.dumps(state_at(conn, game_id, rules).state)) == json.loads(json.dumps(whole))
