"""Every read path shows a running game's log exactly as the rules redact it for the caller.

The oracle is the game's own ``redact`` over the log and state read straight from the database;
the paths under test answer from the process's state cache and its shared stream renderings. Škoda
kouzla is played because its redaction differs per seat (each hand is hidden from the other).
"""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

from httpclient import Client, create, streamed

import games
from events import read
from projections.fold import PLATFORM, state_at

GAME = "skodakouzla"


def _oracle(pool: Any, game_id: UUID, seat: int | None, upto: int, redacted_at: int) -> list[dict[str, Any]]:
    rules = games.load(GAME)
    with pool.connection() as conn:
        state = state_at(conn, game_id, rules, at=redacted_at).state
        events = read(conn, game_id, upto=upto)
    out = []
    for event in events:
        data = event.data
        if not event.type.startswith(PLATFORM):
            data = {k: v for k, v in rules.redact(state, event.body(), seat).items() if k != "type"}
        out.append({"version": event.version, "type": event.type, "data": data, "seat": event.seat})
    return out


def _plain(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: e[k] for k in ("version", "type", "data", "seat")} for e in events]


def test_every_read_path_redacts_as_the_rules_do(live_url: str, pool: Any) -> None:
    api = Client(live_url)
    game = create(api, GAME, [{"name": "A"}, {"name": "B"}])
    game_id, path = UUID(game["id"]), f"/api/v1/games/{game['id']}"
    seats = {s["seat"]: api.seat(s["token"]) for s in game["seats"]}
    rng = random.Random(5)
    answers: list[tuple[int, dict[str, Any]]] = []
    for _ in range(30):
        to_move = api.get(path).body["to_move"]
        if not to_move:
            break
        client = seats[to_move[0]]
        reply = client.post(f"{path}/commands", rng.choice(client.get(f"{path}/actions").body))
        assert reply.status == 201
        answers.append((to_move[0], reply.body))
    last = answers[-1][1]["version"]
    assert api.get(path).body["status"] == "active"

    shown = {}
    for seat, client in [(None, api), *seats.items()]:
        expected = _oracle(pool, game_id, seat, last, last)
        assert _plain(client.get(f"{path}/events").body) == expected
        assert _plain(streamed(client, path, last)) == expected
        shown[seat] = expected
    assert shown[0] != shown[1] != shown[None], "the game must hide something, or this test proves nothing"

    for seat, answer in answers:
        at = answer["version"]
        first = answer["events"][0]["version"]
        expected = _oracle(pool, game_id, seat, at, at)[first - 1 :]
        assert _plain(answer["events"]) == expected
