"""The primary SIGKILLed under load with pg_auto_failover watching: the standby is promoted by the
monitor, no operator involved.

The same checks as ``test_failover.py`` (the operator-driven switch): every command that got a 201
is in the log once afterwards, clients see 503 (never a 500) during the switch, the nodes'
connections and the workers find the promoted server by themselves (a multi-host URL), bot games
finish. The figure printed is the time from the kill to the first answered request.

Needs Debian's ``postgresql-15-auto-failover`` (``pg_autoctl``) and PostgreSQL 15: skipped without
them, unless ``KOTLIK_REQUIRE_AUTO_FAILOVER=1``.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import psycopg
import pytest
from autofailover import Formation, missing
from conftest import require_tools
from deployment import running, settings
from httpclient import create
from outage import SETTLE, Tally, answers, check_acknowledged, play
from processes import RedisServer, wait_until

from events.database import migrate

pytestmark = [pytest.mark.cluster, pytest.mark.timeout(900)]

CLIENTS = 4
#: Seconds of play before the primary dies, and after the API answers again.
BEFORE, AFTER = 5.0, 5.0


def test_the_monitor_fails_over_a_killed_primary_with_no_acknowledged_move_lost(tmp_path: Path) -> None:
    require_tools()
    if (why := missing()) is not None:
        if os.environ.get("KOTLIK_REQUIRE_AUTO_FAILOVER"):
            pytest.fail(why)
        pytest.skip(why)
    redis = RedisServer(tmp_path / "redis.log")
    redis.start()
    formation = Formation()
    try:
        formation.start()
        first = formation.primary()
        with psycopg.connect(formation.url(formation.ports[first]), autocommit=True) as conn:
            conn.execute("CREATE DATABASE kotlik")
            # the keepers made the standby synchronous: a committed move is on both servers
            wait_until(
                lambda: conn.execute("SHOW synchronous_standby_names").fetchone() not in (None, ("",)),
                60,
                "the standby to be synchronous",
            )
        migrate(formation.url(formation.ports[first], "kotlik"))
        env = settings(formation.multi_host("kotlik"), redis.url, KOTLIK_RATE_LIMITS="off")
        with running(env, tmp_path, nodes=2, workers=2) as cluster:
            api = cluster.api
            bots = [{"name": "A", "bot": "default"}, {"name": "B", "bot": "random"}]
            bot_games = [create(api, "carodeni", bots)["id"] for _ in range(2)]
            tally, playing = Tally(), threading.Event()
            playing.set()
            threads = [
                threading.Thread(target=play, args=(api, tally, playing, n), daemon=True)
                for n in range(CLIENTS)
            ]
            for thread in threads:
                thread.start()
            time.sleep(BEFORE)
            formation.kill(first)
            tally.killed_at = killed = time.monotonic()
            # no operator: the monitor notices, and promotes the standby
            second = next(name for name in formation.NAMES if name != first)
            wait_until(lambda: formation.states().get(second) == "wait_primary", 120, "the failover")
            promoted = time.monotonic()
            tally.restarted_at = promoted
            wait_until(lambda: answers(api), 60, "the API to answer after the failover")
            back = time.monotonic()
            time.sleep(AFTER)
            playing.clear()
            for thread in threads:
                thread.join(timeout=SETTLE + 30)
            assert not [t for t in threads if t.is_alive()], "a client is still running"
            wait_until(
                lambda: all(api.get(f"/api/v1/games/{g}").body["status"] == "finished" for g in bot_games),
                180,
                "the bot games to finish after the failover",
            )
        figures, problems = check_acknowledged(formation.url(formation.ports[second], "kotlik"), tally)
        print(
            f"automatic failover: {dict(tally.statuses)}; the monitor promoted {second}"
            f" {promoted - killed:.1f} s after the kill; API back {back - killed:.1f} s after the kill;"
            f" {len(tally.acknowledged)} acknowledged; {figures}"
        )
        assert not tally.server_errors, tally.server_errors[:10]
        assert set(tally.statuses) <= {"200", "201", "503"}, tally.statuses
        assert not problems, problems[:20]
    except Exception:
        print(formation.log("monitor")[-3000:], formation.states())
        raise
    finally:
        formation.stop()
        redis.kill()
