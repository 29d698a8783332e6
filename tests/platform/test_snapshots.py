"""Snapshots are a cache: deleting them changes no view, and long games fold from them."""

from __future__ import annotations

import random
from typing import Any

import orjson
from httpclient import Client, create
from psycopg.types.json import Jsonb

import commands
import games
from events import read
from projections import lobby
from projections.fold import SNAPSHOT_EVERY, Folded, fold, newest_later, state_at


def test_deleting_every_snapshot_changes_no_view(live_url: str, pool: Any) -> None:
    api = Client(live_url)
    game = create(api, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    path = f"/api/v1/games/{game['id']}"
    seats = {s["seat"]: api.seat(s["token"]) for s in game["seats"]}
    rng = random.Random(3)
    while (summary := api.get(path).body)["version"] <= SNAPSHOT_EVERY + 5 and summary["to_move"]:
        client = seats[summary["to_move"][0]]
        assert client.post(f"{path}/commands", rng.choice(client.get(f"{path}/actions").body)).status == 201
    readers = [api, *seats.values()]
    versions = [None, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1]

    def views() -> list[Any]:
        return [
            r.get(f"{path}/state" + (f"?at={v}" if v else "")).body for r in readers for v in versions
        ] + [r.get(f"{path}/actions").body for r in readers]

    with pool.connection() as conn:
        count = conn.execute("SELECT count(*) AS n FROM snapshots WHERE game_id = %s", (game["id"],))
        assert count.fetchone()["n"] >= 1
    before = views()
    with pool.connection() as conn:
        conn.execute("DELETE FROM snapshots WHERE game_id = %s", (game["id"],))
    assert views() == before


def _plain(state: Any) -> Any:
    """The state as JSON gives it back, as a snapshot's is."""
    return orjson.loads(orjson.dumps(state))


def test_a_fold_starts_from_the_newest_snapshot_of_its_own_rules(pool: Any) -> None:
    """``state_at`` takes the newest snapshot at or before the version asked, under the game's own
    rules version, and folds only the events after it: a snapshot planted with another state shows."""
    rules = games.load("kupferkessel")
    rng = random.Random(5)
    with pool.connection() as conn:
        game_id = commands.create_game(conn, "kupferkessel", [{"name": "A"}, {"name": "B"}], {}).game.id
        while (row := lobby.get(conn, game_id)).version <= SNAPSHOT_EVERY + 5 and row.to_move:
            seat = row.to_move[0]
            body = rng.choice(rules.legal_actions(state_at(conn, game_id, rules).state, seat))
            commands.play(conn, game_id, seat, body, expected_version=row.version)
        events = read(conn, game_id)
        snapshot = conn.execute("SELECT min(version) AS v FROM snapshots WHERE game_id = %s", (game_id,))
        at = snapshot.fetchone()["v"]

        def truth(version: int) -> Folded:
            return Folded(_plain(fold(rules, (e.body() for e in events if e.version <= version))), version)

        def loaded(version: int | None) -> Folded:
            folded = state_at(conn, game_id, rules, version)
            return Folded(_plain(folded.state), folded.version)

        def newest() -> Folded:
            """The pipelined cold load's form, which takes the rules version from the lobby row."""
            folded = newest_later(conn, game_id)(rules)
            return Folded(_plain(folded.state), folded.version)

        versions = [1, at - 1, at, at + 1, row.version]
        assert [loaded(v) for v in versions] == [truth(v) for v in versions]
        assert loaded(None) == truth(row.version)

        planted = truth(at - 1).state
        conn.execute(
            "UPDATE snapshots SET state = %s WHERE game_id = %s AND version = %s",
            (Jsonb(planted), game_id, at),
        )
        assert loaded(at) == Folded(planted, at)
        assert loaded(at + 1) == Folded(_plain(rules.evolve(planted, events[at].body())), at + 1)
        assert loaded(at - 1) == truth(at - 1)
        marked = {**truth(at).state, "planted": True}  # evolve carries it along: a copy of the dict
        conn.execute(
            "UPDATE snapshots SET state = %s WHERE game_id = %s AND version = %s",
            (Jsonb(marked), game_id, at),
        )
        assert newest() == Folded({**truth(row.version).state, "planted": True}, row.version)

        conn.execute(
            "UPDATE snapshots SET rules_version = rules_version + 1 WHERE game_id = %s AND version = %s",
            (game_id, at),
        )
        assert loaded(at) == truth(at)
        assert newest() == truth(row.version)
