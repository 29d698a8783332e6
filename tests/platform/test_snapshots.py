"""Snapshots are a cache: deleting them changes no view, and long games fold from them."""

from __future__ import annotations

import random
from typing import Any

from httpclient import Client, create

from projections.fold import SNAPSHOT_EVERY


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
