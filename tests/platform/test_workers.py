"""Bots, scoring and the outbox through a real Celery worker on a real broker."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from httpclient import Client, create, play_to_end

import commands
from events.outbox import pending
from projections import lobby
from workers.relay import redrive

GAME = "kupferkessel"


@pytest.fixture(scope="module")
def api(live_url: str, worker: Any) -> Client:
    return Client(live_url)


def test_a_human_against_the_default_bot_to_the_end(api: Client, pool: Any) -> None:
    game = create(api, GAME, [{"name": "Human"}, {"name": "Bot", "bot": "default"}])
    assert game["seats"][1]["token"] is None
    summary = play_to_end(api, game, seed=11)
    score = api.get(f"/api/v1/games/{game['id']}/score").body
    assert summary["result"] == score and len(score["seats"]) == 2
    events = api.get(f"/api/v1/games/{game['id']}/events").body
    bot_moves = [e for e in events if e["seat"] == 1]
    assert bot_moves, "the bot never moved"
    with pool.connection() as conn:
        unsent = conn.execute(
            "SELECT count(*) AS n FROM outbox WHERE sent_at IS NULL AND args->>0 = %s", (game["id"],)
        ).fetchone()
    assert unsent["n"] == 0  # this game's: an earlier test may leave rows for the sweep


def test_bots_alone_play_a_whole_game(api: Client) -> None:
    game = create(api, GAME, [{"name": "A", "bot": "default"}, {"name": "B", "bot": "random"}])
    summary = play_to_end(api, game, seed=1)
    assert summary["status"] == "finished"


def test_the_sweep_sends_what_no_process_relayed(pool: Any, worker: Any, worker_log: Path) -> None:
    """A game created without the API's relay (a crash after commit) still gets its bot turn, and
    the worker's log tells of that re-send but not of the routine sweeps that found nothing."""
    with pool.connection() as conn:
        created = commands.create_game(conn, GAME, [{"name": "Bot", "bot": "default"}, {"name": "H"}], {})
        assert pending(conn) >= 1
    deadline = time.monotonic() + 60
    game_id = UUID(str(created.game.id))
    while time.monotonic() < deadline:
        with pool.connection() as conn:
            row = lobby.get(conn, game_id)
        if row.version > created.game.version and row.to_move == [1]:
            break  # the bot's whole turn: a Kupferkessel turn may take it two commands
        time.sleep(0.5)
    assert row.version > created.game.version and row.to_move == [1]
    while b"outbox sweep re-sent" not in worker_log.read_bytes() and time.monotonic() < deadline:
        time.sleep(0.2)
    log = worker_log.read_text()
    assert "the outbox sweep re-sent" in log
    assert "Task bots.play_turn[" in log
    assert "Task outbox.sweep[" not in log and "Sending due task outbox-sweep" not in log


def test_a_duplicate_task_is_harmless(pool: Any, api: Client) -> None:
    game = create(api, GAME, [{"name": "H"}, {"name": "Bot", "bot": "default"}])
    game_id = UUID(game["id"])
    with pool.connection() as conn:
        assert commands.play_bot(conn, game_id, 1, game["version"]) is None  # not its turn
        assert commands.score_game(conn, game_id, game["version"]) is None  # not over


def test_a_game_whose_bot_task_was_lost_is_driven_again(pool: Any, worker: Any) -> None:
    """The outbox row was handed over, then the task died with its worker or broker: the game
    would wait for ever. The stalled-game sweep finds it by its lobby row and sends the task again."""
    with pool.connection() as conn:
        created = commands.create_game(conn, GAME, [{"name": "Bot", "bot": "default"}, {"name": "H"}], {})
        game_id = UUID(str(created.game.id))
        conn.execute(
            "UPDATE outbox SET sent_at = now() WHERE id = ANY(%s)", ([q.id for q in created.queued],)
        )
        assert redrive(conn, 30) == 0  # not idle long enough yet
        conn.execute("UPDATE games SET updated_at = now() - interval '1 minute' WHERE id = %s", (game_id,))
        assert redrive(conn, 30) >= 1
    deadline = time.monotonic() + 60
    while (row := _row(pool, game_id)).version == created.game.version and time.monotonic() < deadline:
        time.sleep(0.2)
    assert row.version > created.game.version and row.to_move == [1]


def _row(pool: Any, game_id: UUID) -> lobby.GameRow:
    with pool.connection() as conn:
        return lobby.get(conn, game_id)
