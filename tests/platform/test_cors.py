"""CORS through real HTTP: a listed origin may call the API from a browser (preflight answered,
``ETag`` readable, errors included); an unlisted one, or any when none is configured, gets nothing."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any
from uuid import uuid4

import pytest
from httpclient import Client, create

ORIGIN = "https://client.example"


@pytest.fixture(scope="module")
def cors_api(pool: Any, broker: dict[str, str]) -> Iterator[Client]:
    """The app with ``KOTLIK_CORS_ORIGINS`` set, over a real socket."""
    from werkzeug.serving import make_server

    from service.app import create_app

    app = create_app(pool, TESTING=True, KOTLIK_CORS_ORIGINS=f"{ORIGIN}, https://other.example")
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Client(f"http://127.0.0.1:{server.server_port}")
    server.shutdown()


def test_a_preflight_of_a_listed_origin_allows_what_a_client_sends(cors_api: Client) -> None:
    game = create(cors_api, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    reply = cors_api.request(
        "OPTIONS",
        f"/api/v1/games/{game['id']}/commands",
        headers={
            "Origin": ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        },
    )
    assert reply.status == 204
    assert reply.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "POST" in reply.headers["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in reply.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "idempotency-key", "if-none-match", "last-event-id"} <= allowed
    assert "Access-Control-Allow-Credentials" not in reply.headers  # tokens travel in a header, not cookies


def test_a_preflight_allows_removing_a_webhook(cors_api: Client) -> None:
    reply = cors_api.request(
        "OPTIONS",
        f"/api/v1/players/me/webhooks/{uuid4()}",
        headers={"Origin": ORIGIN, "Access-Control-Request-Method": "DELETE"},
    )
    assert reply.status == 204 and reply.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "DELETE" in {m.strip() for m in reply.headers["Access-Control-Allow-Methods"].split(",")}


def test_answers_to_a_listed_origin_name_it_and_expose_the_etag(cors_api: Client) -> None:
    game = create(cors_api, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    seat = cors_api.seat(game["seats"][0]["token"])
    reply = seat.get(f"/api/v1/games/{game['id']}/state", headers={"Origin": ORIGIN})
    assert reply.status == 200 and reply.headers["ETag"]
    assert reply.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "ETag" in reply.headers["Access-Control-Expose-Headers"]
    assert "Origin" in reply.headers["Vary"]
    path = f"/api/v1/games/{game['id']}/commands"
    played = seat.post(path, {"type": "move", "steps": 99}, headers={"Origin": ORIGIN})
    assert played.status == 422  # a problem a script on that origin can read too
    assert played.headers["Access-Control-Allow-Origin"] == ORIGIN


def test_an_unlisted_origin_gets_no_cors_headers(cors_api: Client) -> None:
    reply = cors_api.get("/api/v1/catalog", headers={"Origin": "https://evil.example"})
    assert reply.status == 200
    assert "Access-Control-Allow-Origin" not in reply.headers
    preflight = cors_api.request(
        "OPTIONS",
        "/api/v1/games",
        headers={
            "Origin": "https://evil.example",
            "Access-Control-Request-Method": "POST",
        },
    )
    assert "Access-Control-Allow-Origin" not in preflight.headers
    assert "Access-Control-Allow-Methods" not in preflight.headers


def test_no_origin_is_allowed_by_default(live_url: str) -> None:
    reply = Client(live_url).get("/api/v1/catalog", headers={"Origin": ORIGIN})
    assert reply.status == 200
    assert "Access-Control-Allow-Origin" not in reply.headers
