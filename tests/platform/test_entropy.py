"""Players' entropy through real HTTP: a person's seat keys the game's random stream with the server.

A seat's entropy is refused with a problem and nothing written unless it is 64 lowercase hex digits
on a person's seat; it is shown as given in the summary, the log and the export; the deal follows
from the seed and every seat's entropy together (not from the seed alone), and an export with one
seat's entropy changed does not verify. A claim cannot add entropy to a game already dealt (409).
"""

from __future__ import annotations

import json
import time
from typing import Any

import psycopg
from httpclient import Client, create, game_path, play_to_end

import games
from audit.verify import check, parse
from games.rng import Rng, game_key

GAME = "kupferkessel"
MINE = "5e" * 32


def _games(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM games").fetchone()
    assert row is not None
    return int(row[0])


def test_bad_entropy_is_a_problem_and_writes_nothing(live_url: str, database_url: str) -> None:
    api = Client(live_url)
    before = _games(database_url)
    for bad in ("", "5e" * 31, "5E" * 32, "zz" * 32, "5e" * 33, "5e" * 32 + "\n", 12):
        reply = api.post(
            "/api/v1/games", {"game": GAME, "seats": [{"name": "A", "entropy": bad}, {"name": "B"}]}
        )
        assert reply.status == 422, (bad, reply)
        assert reply.headers["Content-Type"].startswith("application/problem+json")
    on_a_bot = api.post(
        "/api/v1/games",
        {"game": GAME, "seats": [{"name": "A"}, {"name": "B", "bot": "default", "entropy": MINE}]},
    )
    assert on_a_bot.status == 422 and "only a person's seat" in on_a_bot.problem["detail"], on_a_bot
    assert _games(database_url) == before


def test_a_claim_cannot_give_entropy_to_a_dealt_game(live_url: str) -> None:
    api = Client(live_url)
    game = create(api, GAME, [{"name": "Host", "entropy": MINE}, {"name": "Guest"}])
    guest = api.post("/api/v1/players", {"name": "Guest"}).body
    client = api.seat(guest["key"])
    path = game_path(game, "/claim")
    assert client.post(path, {"token": game["seats"][1]["token"], "entropy": "nothex"}).status == 422
    late = client.post(path, {"token": game["seats"][1]["token"], "entropy": MINE})
    assert late.status == 409 and late.problem["type"].endswith("/entropy-refused"), late
    assert "dealt already" in late.problem["detail"]
    host = api.post("/api/v1/players", {"name": "Host"}).body
    twice = api.seat(host["key"]).post(path, {"token": game["seats"][0]["token"], "entropy": MINE})
    assert twice.status == 409 and "given its entropy already" in twice.problem["detail"], twice
    assert client.post(path, {"token": game["seats"][1]["token"]}).status == 200  # without: as before


def test_the_deal_follows_from_the_seed_and_every_seats_entropy(live_url: str, worker: Any) -> None:
    api = Client(live_url)
    game = create(api, GAME, [{"name": "Me", "entropy": MINE}, {"name": "Bot", "bot": "default"}])
    assert [s["entropy"] for s in api.get(game_path(game)).body["seats"]] == [MINE, None]
    summary = play_to_end(api, game, seed=52)
    raw = api.get(game_path(game, "/export")).raw
    export = parse(raw.splitlines())
    created = export.events[0]["data"]
    assert created["seats"][0]["entropy"] == MINE and "entropy" not in created["seats"][1]
    assert export.header["seats"] == created["seats"]
    assert check(export).ok, check(export).report()

    seed = bytes.fromhex(summary["seed"])
    rules = games.load(GAME)
    keyed = json.loads(json.dumps(rules.setup({}, 2, Rng(game_key(seed, [MINE, None]), "setup"))))
    alone = json.loads(json.dumps(rules.setup({}, 2, Rng(seed, "setup"))))
    setup = [{"type": e["type"], **e["data"]} for e in export.events[1 : 1 + len(keyed)]]
    assert setup == keyed and keyed != alone

    lines = [json.loads(line) for line in raw.splitlines()]
    other = "6f" * 32
    lines[0]["seats"][0]["entropy"] = other
    lines[1]["data"]["seats"][0]["entropy"] = other
    forged = check(parse([json.dumps(line).encode() for line in lines if "signature" not in line]))
    assert not forged.ok and forged.problems[0].version in (2, 3), forged.report()
    assert "setup re-run from the seed gives another event" in str(forged.problems[0])


def _finished(api: Client, game: dict[str, Any]) -> dict[str, Any]:
    """``game`` ended by its first seat's resignation, once scored."""
    assert api.seat(game["seats"][0]["token"]).post(game_path(game, "/resign")).status == 201
    deadline = time.monotonic() + 30
    while (summary := api.get(game_path(game)).body)["status"] != "finished":
        assert time.monotonic() < deadline, summary
        time.sleep(0.1)
    return dict(summary)


def test_a_rematch_is_keyed_by_the_entropy_given_with_it(
    live_url: str, database_url: str, worker: Any
) -> None:
    api = Client(live_url)
    game = create(api, GAME, [{"name": "Me", "entropy": MINE}, {"name": "Bot", "bot": "default"}])
    _finished(api, game)
    mine = api.seat(game["seats"][0]["token"])
    rematch = game_path(game, "/rematch")
    before = _games(database_url)
    other = "a7" * 32
    for body, detail in [
        ({"seats": [{"seat": 0, "entropy": "5E" * 32}]}, "64 lowercase hex digits"),
        ({"seats": [{"seat": 0, "entropy": "5e" * 31}]}, "64 lowercase hex digits"),
        ({"seats": [{"seat": 0}]}, "gives its entropy"),
        ({"seats": [{"seat": 0, "entropy": MINE}, {"seat": 0, "entropy": other}]}, "once"),
        ({"seats": [{"seat": 1, "entropy": MINE}]}, "is a bot: only a person"),
        ({"seats": [{"seat": 2, "entropy": MINE}]}, "seats 0 to 1"),
        ({"seats": [{"seat": -1, "entropy": MINE}]}, "seat"),
        ({"seats": {"0": MINE}}, "seats"),
        ({"entropy": MINE}, "entropy"),
    ]:
        reply = mine.post(rematch, body)
        assert reply.status == 422, (body, reply)
        assert detail in json.dumps(reply.problem), (body, reply.problem)
    assert _games(database_url) == before and api.get(game_path(game)).body["rematch"] is None

    started = mine.post(rematch, {"seats": [{"seat": 0, "entropy": other}]})
    assert started.status == 201, started
    assert [s["entropy"] for s in started.body["seats"]] == [other, None]
    new = _finished(api, started.body)
    export = parse(api.get(game_path(new, "/export")).raw.splitlines())
    assert export.events[0]["data"]["seats"][0]["entropy"] == other
    assert check(export).ok, check(export).report()
    seed = bytes.fromhex(new["seed"])
    rules = games.load(GAME)
    keyed = json.loads(json.dumps(rules.setup({}, 2, Rng(game_key(seed, [other, None]), "setup"))))
    alone = json.loads(json.dumps(rules.setup({}, 2, Rng(seed, "setup"))))
    setup = [{"type": e["type"], **e["data"]} for e in export.events[1 : 1 + len(keyed)]]
    assert setup == keyed and keyed != alone, "the rematch's deal is keyed by the seat's entropy"

    plain = api.seat(started.body["seats"][0]["token"]).post(game_path(new, "/rematch"))
    assert plain.status == 201, plain  # no body: no seat gives entropy, as before
    assert [s["entropy"] for s in plain.body["seats"]] == [None, None]

    document = api.get("/api/v1/openapi.json").body
    body = document["paths"]["/api/v1/games/{game_id}/rematch"]["post"]["requestBody"]
    assert body.get("required") is not True, "a rematch needs no body"
    schema = body["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("/Rematch")
    seat = document["components"]["schemas"]["RematchSeat"]
    assert seat["properties"]["entropy"]["pattern"] == "^[0-9a-f]{64}$" and seat["required"] == ["seat"]
