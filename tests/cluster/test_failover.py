"""The primary database SIGKILLed under load, and its synchronous standby promoted.

The services connect with a multi-host URL (``host=primary,standby``, ``target_session_attrs=
read-write``): they find the promoted standby by themselves. The failover is operator-driven — the
test does what ``deploy/README.md`` tells an operator to do (``pg_ctl promote``, then stop waiting
for a standby) — after a detection delay. Clients play through HAProxy all along and retry with
their ``Idempotency-Key``. Afterwards every command that got a 201 is in the log once, the clients
saw 503 with ``Retry-After`` during the switch (never a 500), every node's ``LISTEN`` is back (a
long-poll on each node wakes on a move), and the workers go on (bot games finish).
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import require_tools
from deployment import running, settings
from httpclient import create
from outage import SETTLE, Tally, answers, check_acknowledged, play
from postgres import replicated
from processes import RedisServer, wait_until

from events.database import migrate

pytestmark = [pytest.mark.cluster, pytest.mark.timeout(600)]

CLIENTS = 6
#: Seconds of play before the primary dies, the operator's delay before promoting, play after.
BEFORE, DETECT, AFTER = 5.0, 2.0, 6.0


def test_a_killed_primary_loses_no_acknowledged_move(tmp_path: Path) -> None:
    require_tools()
    home = Path(tempfile.mkdtemp(prefix="kotlik-failover-"))
    redis = RedisServer(tmp_path / "redis.log")
    redis.start()
    primary, standby = replicated(home)
    try:
        primary_url = primary.url("kotlik")
        with psycopg.connect(primary.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE kotlik")
        migrate(primary_url)
        both = (
            f"postgresql://postgres@127.0.0.1:{primary.port},127.0.0.1:{standby.port}/kotlik"
            "?target_session_attrs=read-write&connect_timeout=2"
        )
        env = settings(both, redis.url, KOTLIK_RATE_LIMITS="off")
        with running(env, tmp_path) as cluster:
            api = cluster.api
            bots = [{"name": "A", "bot": "default"}, {"name": "B", "bot": "random"}]
            bot_games = [create(api, "carodeni", bots)["id"] for _ in range(4)]
            tally, playing = Tally(), threading.Event()
            playing.set()
            threads = [
                threading.Thread(target=play, args=(api, tally, playing, n), daemon=True)
                for n in range(CLIENTS)
            ]
            for thread in threads:
                thread.start()
            time.sleep(BEFORE)
            primary.kill()
            tally.killed_at = killed = time.monotonic()
            time.sleep(DETECT)
            standby.promote()
            tally.restarted_at = promoted = time.monotonic()
            wait_until(lambda: answers(api), 60, "the API to answer after the promotion")
            back = time.monotonic()
            time.sleep(AFTER)
            playing.clear()
            for thread in threads:
                thread.join(timeout=SETTLE + 30)
            assert not [t for t in threads if t.is_alive()], "a client is still running"
            wakes = _long_polls_wake_on_every_node(cluster)
            wait_until(
                lambda: all(api.get(f"/api/v1/games/{g}").body["status"] == "finished" for g in bot_games),
                180,
                "the bot games to finish after the failover",
            )
        figures, problems = check_acknowledged(standby.url("kotlik"), tally)
        print(
            f"failover: {dict(tally.statuses)}; during the switch {dict(tally.outage)};"
            f" API back {back - promoted:.1f} s after the promotion ({back - killed:.1f} s after the kill);"
            f" {len(tally.acknowledged)} acknowledged; long-polls woke in {wakes}; {figures}"
        )
        assert not tally.server_errors, tally.server_errors[:10]
        # the switch was seen, as 503s (with Retry-After), and nothing else went wrong
        assert tally.statuses["503"] > 0 and set(tally.statuses) <= {"200", "201", "503"}, tally.statuses
        assert not problems, problems[:20]
    finally:
        primary.kill()
        standby.kill()
        redis.kill()
        shutil.rmtree(home, ignore_errors=True)


def _long_polls_wake_on_every_node(cluster: Any) -> list[float]:
    """A long-poll held on each node, then a move through the proxy: each wakes at once (seconds
    from the move's 201 to the long-poll's answer) — its node's ``LISTEN`` came back by itself."""
    game = create(cluster.api, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    path = f"/api/v1/games/{game['id']}"
    woke: list[float] = []
    for node in cluster.nodes:
        summary = node.api.get(path).body
        seat = cluster.api.seat(game["seats"][summary["to_move"][0]]["token"])
        actions = seat.get(f"{path}/actions").body
        etag = {"If-None-Match": f'"{summary["version"]}"'}
        answer: dict[str, Any] = {}
        waiter = threading.Thread(
            target=lambda api=node.api, out=answer, etag=etag: out.update(
                reply=api.get(f"{path}/state?wait=20", headers=etag), at=time.monotonic()
            )
        )
        waiter.start()
        time.sleep(0.5)
        assert seat.post(f"{path}/commands", dict(actions[0])).status == 201
        moved = time.monotonic()
        waiter.join(timeout=30)
        assert answer["reply"].status == 200 and answer["reply"].body["version"] > summary["version"]
        assert answer["at"] - moved < 3, f"{node.name}'s long-poll woke {answer['at'] - moved:.1f} s late"
        woke.append(round(answer["at"] - moved, 3))
    return woke
