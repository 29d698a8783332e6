"""Searching bots' turns run on a queue and a worker of their own (:mod:`workers.queues`): a game
whose ``strong`` bot waits for a search never holds up another game's quick bots, and the strong
bot's turn is played, once, as soon as a search worker takes it."""

from __future__ import annotations

import os
import secrets
import subprocess
from pathlib import Path
from uuid import UUID

from httpclient import Client, create
from processes import ROOT, environment, fresh_database, kotlik_web, wait_until

from events.database import create_pool, migrate
from projections import lobby


def _worker(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    wait_until(lambda: b" ready." in log.read_bytes() or process.poll() is not None, 90, "a worker")
    assert process.poll() is None, log.read_text()
    return process


def _status(api: Client, game_id: str) -> str:
    return str(api.get(f"/api/v1/games/{game_id}").body["status"])


def test_strong_turns_wait_on_their_own_queue_not_in_front_of_other_games(
    server_url: str, tmp_path: Path
) -> None:
    from service.cli import search_worker_command, worker_command
    from workers.app import broker_url
    from workers.broker import prepare

    with fresh_database(server_url) as db:
        migrate(db)
        queue = f"kotlik-search-{secrets.token_hex(4)}"
        url = os.environ.get("CELERY_BROKER_URL") or broker_url(db)
        prepare(url, queue)
        env = environment(DATABASE_URL=db, CELERY_BROKER_URL=url, KOTLIK_QUEUE=queue)
        started: list[subprocess.Popen[bytes]] = []
        pool = create_pool(db, max_size=1)
        try:
            started.append(_worker(worker_command(1, None, env), env, tmp_path / "games.log"))
            with kotlik_web(env, tmp_path / "web.log") as api:
                thinker = create(api, "kupferkessel", [{"name": "S", "bot": "strong"}, {"name": "H"}])
                assert thinker["to_move"] == [0]
                quick = create(
                    api, "kupferkessel", [{"name": "A", "bot": "default"}, {"name": "B", "bot": "random"}]
                )
                # the games' worker alone plays a whole bot game while the strong turn waits
                wait_until(lambda: _status(api, quick["id"]) == "finished", 120, "the quick game to end")
                with pool.connection() as conn:
                    assert lobby.get(conn, UUID(thinker["id"])).version == thinker["version"]
                started.append(_worker(search_worker_command(env), env, tmp_path / "search.log"))
                wait_until(
                    lambda: api.get(f"/api/v1/games/{thinker['id']}").body["to_move"] == [1],
                    120,
                    "the strong bot's turn",
                )
                events = api.get(f"/api/v1/games/{thinker['id']}/events").body
        finally:
            pool.close()
            for process in started:
                process.terminate()
            for process in started:
                process.wait(timeout=30)
    assert [e for e in events if e["seat"] == 0], "the strong bot never moved"
    assert "Task bots.think[" in (tmp_path / "search.log").read_text()
    games_log = (tmp_path / "games.log").read_text()
    assert "Task bots.think[" not in games_log and "Task bots.play_turn[" in games_log
