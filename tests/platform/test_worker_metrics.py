"""A worker node's ``GET /metrics`` and its JSON log lines, with a real ``kotlik web`` and a real
Celery worker on a queue of their own.

The worker serves its metrics on a port of its own (``KOTLIK_WORKER_METRICS_PORT``) under the web
nodes' bearer rule. Its figures are checked against what the test caused: the bot turns the log
holds. A request sent with an ``X-Request-Id`` leaves that id in the web node's JSON access line
and in the worker's JSON lines of the bot turn it caused.
"""

from __future__ import annotations

import json
import os
import secrets
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from httpclient import Client, create, game_path
from processes import Worker, environment, free_port, fresh_database, wait_until, web_process
from prometheus_client.parser import text_string_to_metric_families

from events import read
from events.database import create_pool, migrate

TOKEN = "worker-metrics-secret"
BOTS = [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}]


def scrape(
    port: int, authorization: str | None = f"Bearer {TOKEN}", path: str = "/metrics"
) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    if authorization:
        request.add_header("Authorization", authorization)
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def samples(text: str, name: str, **labels: str) -> float:
    return sum(
        s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if s.name == name and all(s.labels.get(k) == v for k, v in labels.items())
    )


def json_lines(log: Path) -> list[dict[str, Any]]:
    """The log's JSON lines; any other line fails the test (one object a line)."""
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    parsed = []
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except json.JSONDecodeError:
            raise AssertionError(f"not a JSON line in {log.name}: {line!r}") from None
    return parsed


@pytest.fixture(scope="module")
def database(server_url: str) -> Iterator[str]:
    """A database of the node's own: the run's shared one has a worker whose beat re-sends the
    tasks of games that waited on a worker, which on a loaded machine would take this node's."""
    with fresh_database(server_url) as db:
        migrate(db)
        yield db


@pytest.fixture(scope="module")
def pool(database: str) -> Iterator[Any]:
    with create_pool(database, max_size=1) as opened:
        yield opened


@pytest.fixture(scope="module")
def node(database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    from workers.app import broker_url
    from workers.broker import prepare

    folder = tmp_path_factory.mktemp("worker-metrics")
    queue = f"kotlik-metrics-{secrets.token_hex(4)}"
    url = os.environ.get("CELERY_BROKER_URL") or broker_url(database)
    prepare(url, queue)
    port = free_port()
    env = environment(
        DATABASE_URL=database,
        CELERY_BROKER_URL=url,
        KOTLIK_QUEUE=queue,
        KOTLIK_WORKER_METRICS_PORT=str(port),
        KOTLIK_METRICS_TOKEN=TOKEN,
        KOTLIK_LOG_FORMAT="json",
        KOTLIK_ACCESS_LOG="1",
        KOTLIK_RATE_LIMITS="off",
        PROMETHEUS_MULTIPROC_DIR=None,
    )
    worker = Worker(env, folder, concurrency=2, beat=False)
    worker.start()
    try:
        with web_process(env, folder / "web.log") as (api, _):
            yield {"api": api, "worker": worker, "port": port, "web_log": folder / "web.log"}
    finally:
        worker.kill()


def test_the_worker_metrics_need_the_token(node: dict[str, Any]) -> None:
    port = node["port"]
    assert scrape(port, None)[0] == 401
    assert scrape(port, "Bearer wrong")[0] == 401
    assert scrape(port, f"Basic {TOKEN}")[0] == 401
    assert scrape(port, path="/")[0] == 404
    assert scrape(port)[0] == 200  # empty until a task has run: the figures are the tasks'


def test_the_worker_counts_and_times_every_bot_turn(node: dict[str, Any], pool: Any) -> None:
    api: Client = node["api"]
    before = scrape(node["port"])[1]
    played = [create(api, "kupferkessel", BOTS)["id"] for _ in range(2)]

    def finished() -> bool:
        return all(api.get(f"/api/v1/games/{g}").body["status"] == "finished" for g in played)

    wait_until(finished, 120, "the bot games to finish")
    with pool.connection() as conn:
        turns = sum(len({e.meta["at"] for e in read(conn, UUID(g)) if e.meta.get("bot")}) for g in played)
    assert turns > 0

    def counted(text: str) -> float:
        return samples(text, "kotlik_tasks_total", task="bots.play_turn", outcome="success")

    # the scoring's task ends a moment after the game's status says finished
    wait_until(
        lambda: (
            samples(scrape(node["port"])[1], "kotlik_tasks_total", task="scoring.score_game")
            >= samples(before, "kotlik_tasks_total", task="scoring.score_game") + len(played)
        ),
        30,
        "the scorings to be counted",
    )
    after = scrape(node["port"])[1]
    assert counted(after) - counted(before) == turns
    ran = samples(after, "kotlik_task_seconds_count", task="bots.play_turn") - samples(
        before, "kotlik_task_seconds_count", task="bots.play_turn"
    )
    assert ran >= turns  # turns that found nothing to do are timed too
    assert samples(after, "kotlik_task_queue_seconds_count", task="bots.play_turn") >= turns
    assert samples(after, "kotlik_task_seconds_sum", task="bots.play_turn") > 0


def test_a_request_id_reaches_the_worker_lines_of_the_turn_it_caused(node: dict[str, Any]) -> None:
    api: Client = node["api"]
    game = create(api, "kupferkessel", [{"name": "Ada"}, {"name": "Bot", "bot": "random"}])
    request_id = ""
    path = game_path(game)
    token = game["seats"][0]["token"]
    # a Kupferkessel turn may take the person more than one command: the one that ends it queues
    # the bot's turn
    for _ in range(10):
        summary = api.get(path).body
        assert summary["to_move"] == [0], "the person moves first, and the bot only after"
        actions = api.seat(token).get(f"{path}/actions").body
        request_id = f"test-{secrets.token_hex(8)}"
        reply = api.seat(token).post(
            f"{path}/commands",
            {**actions[0], "expected_version": summary["version"]},
            headers={"X-Request-Id": request_id},
        )
        assert reply.status == 201 and reply.headers["X-Request-Id"] == request_id
        if api.get(path).body["to_move"] != [0]:
            break

    def turn_lines() -> list[dict[str, Any]]:
        return [
            line
            for line in json_lines(node["worker"].log)
            if line.get("request_id") == request_id and line.get("task") == "bots.play_turn"
        ]

    try:
        wait_until(lambda: any("succeeded" in line["message"] for line in turn_lines()), 60, "its line")
    except AssertionError:
        lines = [line for line in json_lines(node["worker"].log) if line.get("task") == "bots.play_turn"]
        tail = node["worker"].log.read_text().splitlines()[-8:]
        raise AssertionError(f"no line of the turn with {request_id}: {lines[-4:]} {tail}") from None
    for line in turn_lines():
        assert line["game_id"] == game["id"] and line["task_id"] and line["level"] in ("INFO", "WARNING")
        assert {"time", "level", "logger", "message"} <= set(line)
    accessed = [line for line in json_lines(node["web_log"]) if line.get("request_id") == request_id]
    assert len(accessed) == 1, accessed
    line = accessed[0]
    assert (line["method"], line["path"], line["status"]) == ("POST", f"{path}/commands", 201)
    assert line["game_id"] == game["id"] and line["duration"] > 0 and line["level"] == "INFO"


@pytest.mark.parametrize(
    ("setting", "value", "said"),
    [
        ("KOTLIK_LOG_FORMAT", "xml", "KOTLIK_LOG_FORMAT must be one of json, text, not 'xml'"),
        ("KOTLIK_WORKER_METRICS_PORT", "nine", "KOTLIK_WORKER_METRICS_PORT must be a number of a TCP port"),
        ("KOTLIK_WORKER_METRICS_PORT", "70000", "KOTLIK_WORKER_METRICS_PORT must be a TCP port (1-65535)"),
    ],
)
@pytest.mark.parametrize("command", ["web", "worker", "up"])
def test_a_wrong_setting_is_said_before_anything_starts(
    command: str, setting: str, value: str, said: str, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from service.cli import main

    monkeypatch.setenv(setting, value)
    assert main([command]) == 2
    assert said in capsys.readouterr().err
