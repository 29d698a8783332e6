"""``GET /metrics`` and ``X-Request-Id`` on the app served over real HTTP.

The endpoint is an operator's: 404 while ``KOTLIK_METRICS_TOKEN`` is unset, 401 without that token.
The figures are checked against what the test itself did (the commands it appended, the stream it
holds open); the multiprocess sum under gunicorn is checked by ``tests/cluster``.
"""

from __future__ import annotations

import urllib.request
from typing import Any

import pytest
from httpclient import Client, create, game_path
from prometheus_client.parser import text_string_to_metric_families

TOKEN = "metrics-secret"


def scrape(api: Client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    reply = api.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert reply.status == 200 and reply.headers["Content-Type"].startswith("text/plain"), reply
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(reply.raw.decode())
        for sample in family.samples
    }


def value(figures: dict[Any, float], name: str, **labels: str) -> float:
    return figures.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_are_not_there_without_a_token(live_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KOTLIK_METRICS_TOKEN", raising=False)
    assert Client(live_url).get("/metrics").status == 404


@pytest.mark.parametrize("authorization", [None, "Bearer wrong", f"Basic {TOKEN}"])
def test_metrics_refuse_any_other_authorization(
    live_url: str, monkeypatch: pytest.MonkeyPatch, authorization: str | None
) -> None:
    monkeypatch.setenv("KOTLIK_METRICS_TOKEN", TOKEN)
    headers = {"Authorization": authorization} if authorization else {}
    reply = Client(live_url).get("/metrics", headers=headers)
    assert reply.status == 401 and reply.problem["type"].endswith("/unauthorized"), reply
    assert reply.headers["WWW-Authenticate"].startswith("Bearer")


def test_metrics_count_what_was_done(live_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOTLIK_METRICS_TOKEN", TOKEN)
    api = Client(live_url)
    before = scrape(api)
    game = create(api, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    path = game_path(game)
    for _ in range(3):
        seat = api.seat(game["seats"][api.get(path).body["to_move"][0]]["token"])
        assert seat.post(f"{path}/commands", dict(seat.get(f"{path}/actions").body[0])).status == 201
    after = scrape(api)
    commands = "/api/v1/games/<uuid:game_id>/commands"
    gained = value(after, "kotlik_commands_appended_total", game="kupferkessel") - value(
        before, "kotlik_commands_appended_total", game="kupferkessel"
    )
    assert gained == 3
    requests = ("kotlik_requests_total", {"route": commands, "method": "POST", "status": "201"})
    assert value(after, requests[0], **requests[1]) - value(before, requests[0], **requests[1]) == 3
    timed = value(after, "kotlik_request_seconds_count", route=commands, method="POST")
    assert timed >= 3
    assert ("kotlik_outbox_backlog", ()) in after
    assert (
        value(after, "kotlik_state_cache_lookups_total", result="hit")
        + value(after, "kotlik_state_cache_lookups_total", result="miss")
        > 0
    )
    assert ("kotlik_db_pool_wait_seconds_total", (("pool", "requests"),)) in after


def test_an_open_stream_counts_until_it_ends(
    live_url: str, worker: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KOTLIK_METRICS_TOKEN", TOKEN)
    api = Client(live_url)
    game = create(api, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    open_before = value(scrape(api), "kotlik_watching", how="streams")
    with urllib.request.urlopen(f"{live_url}{game_path(game)}/stream", timeout=60) as stream:
        stream.readline()
        assert value(scrape(api), "kotlik_watching", how="streams") == open_before + 1
        # the game ends and is scored by the worker; its stream sends the end and closes
        assert api.seat(game["seats"][0]["token"]).post(f"{game_path(game)}/resign").status == 201
        assert b"event: end" in stream.read()
    assert value(scrape(api), "kotlik_watching", how="streams") == open_before


def test_every_answer_has_a_request_id(live_url: str) -> None:
    api = Client(live_url)
    made = api.get("/api/v1/catalog").headers["X-Request-Id"]
    assert len(made) == 32 and int(made, 16) >= 0
    assert (
        api.get("/api/v1/games/nope", headers={"X-Request-Id": "edge-42"}).headers["X-Request-Id"]
        == "edge-42"
    )
    odd = api.get("/api/v1/catalog", headers={"X-Request-Id": "a b\tc"}).headers["X-Request-Id"]
    assert odd != "a b\tc" and len(odd) == 32
