"""Workers SIGKILLed over and over while bots play: every game still finishes, is scored once, and no
bot turn is played twice. A task killed with its worker is lost (the database broker deletes what it
hands out; Redis keeps it unacknowledged for an hour), so the stalled-game sweep must drive it again."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from conftest import RedisServer, Worker, check_game, queue_name, size
from httpclient import Client, create
from processes import environment, fresh_database, kotlik_web

from events.database import create_pool, migrate
from projections import lobby

#: Each test stops itself well before this; the timeout only guards CI against a hang.
pytestmark = [pytest.mark.faults, pytest.mark.timeout(600)]

GAMES = size("GAMES", 16)
KILLS = size("KILLS", 10)
#: Seconds a game may wait on a worker before the sweep re-sends its task (the worker's setting).
STALLED_AFTER = 3
#: Seconds each worker runs before it is killed (with a seeded jitter of ±0.3 s): short enough
#: that most kills come while games are still being played (16 games take 6 s of running on a quiet
#: machine, 11 s on a busy one). The kills stop once every game is over.
RUN_FOR = 0.6
#: How many of the kills must come while games are still being played.
KILLS_IN_PLAY = KILLS // 2
#: The longest the games may take to finish once the last worker is up.
FINISH_WITHIN = 150.0


def bot_games(api: Client, count: int) -> list[str]:
    """Kupferkessel bot against bot (every other one with the searching ``strong`` bot, so kills
    land mid-search: the turn is redone, and played once), Čarodění solo with a bot in the player's
    seat, and Čarodění bot against bot (the longest: about 450 events)."""
    ids = []
    for i in range(count):
        if i % 4 == 3:
            seats = [{"name": "Witch", "bot": "default"}, {"name": "Ostara", "bot": "ostara"}]
            game = create(api, "carodeni", seats, {"solo": True, "difficulty": "experienced"})
        elif i % 4 == 1:
            seats = [{"name": "A", "bot": "default"}, {"name": "B", "bot": "random"}]
            game = create(api, "carodeni", seats)
        else:
            bots = ("strong", "random") if i % 4 == 2 else ("random", "default")
            game = create(api, "kupferkessel", [{"name": "A", "bot": bots[0]}, {"name": "B", "bot": bots[1]}])
        ids.append(game["id"])
    return ids


def moved(pool: Any, ids: list[str]) -> int:
    with pool.connection() as conn:
        return sum(lobby.get(conn, UUID(i)).version for i in ids)


def unfinished(api: Client, ids: list[str]) -> list[str]:
    return [i for i in ids if api.get(f"/api/v1/games/{i}").body["status"] != "finished"]


@pytest.fixture(
    params=[
        "redis",
        "database",
    ]
)
def broker_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The broker of this test's own: a ``redis-server`` it started, or (``database``) the default."""
    if request.param == "database":
        return ""  # filled in with the test's database below
    server: RedisServer = request.getfixturevalue("redis_server")
    return server.url


def test_bot_games_finish_while_workers_are_killed(
    broker_url: str, server_url: str, tmp_path: Path, report: Any
) -> None:
    from workers.app import broker_url as default_broker
    from workers.broker import prepare

    started = time.monotonic()
    with fresh_database(server_url) as db:
        migrate(db)
        url = broker_url or default_broker(db)
        queue = queue_name()
        prepare(url, queue)
        env = environment(
            DATABASE_URL=db,
            CELERY_BROKER_URL=url,
            KOTLIK_QUEUE=queue,
            KOTLIK_STALLED_AFTER=str(STALLED_AFTER),
            KOTLIK_SEARCH_PROCESSES="2",  # the searches get the two cores the games' worker has
        )
        worker = Worker(env, tmp_path)
        pool = create_pool(db, max_size=2)
        try:
            with kotlik_web(env, tmp_path / "web.log") as api:
                ids = bot_games(api, GAMES)
                progress, playing = [], []
                jitter = random.Random(14)
                for _ in range(KILLS):
                    worker.start()
                    before = moved(pool, ids)
                    time.sleep(RUN_FOR + jitter.uniform(-0.3, 0.3))
                    still = len(unfinished(api, ids))
                    worker.kill()
                    progress.append(moved(pool, ids) - before)
                    if not still:
                        break
                    playing.append(still)
                assert sum(progress) > 0, "no bot moved between the kills"
                assert len(playing) >= KILLS_IN_PLAY, f"games still playing at each kill: {playing}"
                worker.start()
                deadline = time.monotonic() + FINISH_WITHIN
                while (left := unfinished(api, ids)) and time.monotonic() < deadline:
                    time.sleep(1)
                stuck = len(left)
                scores = sum(api.get(f"/api/v1/games/{i}/score").status == 200 for i in ids)
                with pool.connection() as conn:
                    checks = {i: check_game(conn, UUID(i)) for i in ids}
            problems = {i: c["problems"] for i, c in checks.items() if c["problems"]}
            logs = worker.logs()
            report(
                games=len(ids),
                kills=len(progress),
                versions_between_kills=progress,
                games_playing_at_kills=playing,
                events=sum(c["events"] for c in checks.values()),
                commands=sum(c["commands"] for c in checks.values()),
                scored=scores,
                events_lost=sum(c["gaps"] for c in checks.values()),
                duplicated=sum(c["duplicated"] for c in checks.values()),
                games_stuck=stuck,
                redrives=logs.count("games that waited on a worker too long"),
                outbox_resends=logs.count("the outbox sweep re-sent"),
                seconds=round(time.monotonic() - started, 1),
            )
            assert not problems, problems
            kinds = ["kupferkessel", "carodeni", "kupferkessel with strong", "carodeni solo"]
            unfinished_kinds = [kinds[ids.index(i) % 4] for i in left]
            assert stuck == 0 and scores == len(ids), f"unfinished: {unfinished_kinds}\n{logs[-3000:]}"
        finally:
            worker.kill()
            pool.close()
