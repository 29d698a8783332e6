"""Redis goes away for half a minute while bots play and comes back empty: every queued task is lost.
What the web and the workers could not hand over stays in the outbox for the sweep; what Redis held
is driven again by the stalled-game sweep. Every game still finishes, scored once, nothing doubled."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from conftest import RedisServer, Worker, check_game, queue_name, size
from processes import environment, fresh_database, kotlik_web
from test_worker_crashes import bot_games, moved, unfinished

from events.database import create_pool, migrate
from events.outbox import pending

#: Each test stops itself well before this; the timeout only guards CI against a hang.
pytestmark = [pytest.mark.faults, pytest.mark.timeout(600)]

GAMES = size("GAMES", 16)
#: Seconds Redis stays down.
OUTAGE = size("OUTAGE", 30)
STALLED_AFTER = 3
FINISH_WITHIN = 150.0


def test_bot_games_finish_after_redis_is_down_and_comes_back_empty(
    redis_server: RedisServer, server_url: str, tmp_path: Path, report: Any
) -> None:
    started = time.monotonic()
    with fresh_database(server_url) as db:
        migrate(db)
        env = environment(
            DATABASE_URL=db,
            CELERY_BROKER_URL=redis_server.url,
            KOTLIK_QUEUE=queue_name(),
            KOTLIK_STALLED_AFTER=str(STALLED_AFTER),
        )
        worker = Worker(env, tmp_path)
        pool = create_pool(db, max_size=2)
        try:
            with kotlik_web(env, tmp_path / "web.log") as api:
                worker.start()
                ids = bot_games(api, GAMES)
                time.sleep(2)  # bots at work
                redis_server.kill()
                down_at = moved(pool, ids)
                time.sleep(OUTAGE)
                during = moved(pool, ids) - down_at
                with pool.connection() as conn:
                    unsent = pending(conn)
                redis_server.start()  # a new process with --save '': empty
                # kombu's Redis transport can crash a worker whose connection drops while a task
                # is unacknowledged (celery/kombu#582); ``kotlik up`` restarts it, and so does this.
                crashed = worker.process is not None and worker.process.poll() is not None
                if crashed:
                    worker.start()
                deadline = time.monotonic() + FINISH_WITHIN
                while (left := unfinished(api, ids)) and time.monotonic() < deadline:
                    time.sleep(1)
                recovered = round(time.monotonic() - deadline + FINISH_WITHIN, 1)
                scores = sum(api.get(f"/api/v1/games/{i}/score").status == 200 for i in ids)
                with pool.connection() as conn:
                    checks = {i: check_game(conn, UUID(i)) for i in ids}
                    unsent_after = pending(conn)
            problems = {i: c["problems"] for i, c in checks.items() if c["problems"]}
            logs = worker.logs()
            report(
                games=len(ids),
                outage_s=OUTAGE,
                versions_at_outage=down_at,
                versions_during_outage=during,
                outbox_unsent_during=unsent,
                worker_crashed=crashed,
                finished_s_after_restart=recovered,
                events=sum(c["events"] for c in checks.values()),
                scored=scores,
                events_lost=sum(c["gaps"] for c in checks.values()),
                duplicated=sum(c["duplicated"] for c in checks.values()),
                games_stuck=len(left),
                outbox_unsent_after=unsent_after,
                redrives=logs.count("games that waited on a worker too long"),
                seconds=round(time.monotonic() - started, 1),
            )
            assert worker.process is not None and worker.process.poll() is None, logs[-3000:]
            assert not problems, problems
            assert not left and scores == len(ids), f"unfinished: {left}\n{logs[-3000:]}"
        finally:
            worker.kill()
            pool.close()
