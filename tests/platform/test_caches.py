"""Every in-process cache is the app's (:class:`projections.caches.Caches`): sized by its setting,
shared with no other app, and forgotten by one call."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

import pytest

from projections.caches import Caches, size
from projections.tokens import KnownTokens


def _app(pool: Any, **config: Any) -> Any:
    from service.app import create_app

    return create_app(pool, TESTING=True, KOTLIK_RATE_LIMITS="off", **config)


def _game(client: Any) -> dict[str, Any]:
    created = client.post(
        "/api/v1/games", json={"game": "kupferkessel", "seats": [{"name": "A"}, {"name": "B"}]}
    )
    assert created.status_code == 201, created.json
    return dict(created.json)


def test_an_app_holds_its_caches_each_sized_by_its_setting(pool: Any) -> None:
    app = _app(
        pool, KOTLIK_CACHE_GAMES=7, KOTLIK_TOKEN_GAMES=8, KOTLIK_STREAM_SPANS=9, KOTLIK_POLL_ANSWERS=10
    )
    caches = app.extensions["kotlik.caches"]
    assert (caches.states.size, caches.tokens.size) == (7, 8)
    assert {name: cache.size for name, cache in caches.others.items()} == {
        "heard versions": 100_000,
        "lobby rows": 10_000,
        "poll answers": 10,
        "stream spans": 9,
    }


def test_forgetting_empties_every_cache_and_the_app_answers_as_before(pool: Any) -> None:
    app = _app(pool)
    client = app.test_client()
    game = _game(client)
    game_id, path = UUID(game["id"]), f"/api/v1/games/{game['id']}"
    token = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    before = client.get(f"{path}/state", headers=token).json
    assert client.get(f"{path}/state?wait=1&since=0", headers=token).status_code == 200  # a long-poll
    stream = client.get(f"{path}/stream?after=0", headers=token, buffered=False)
    assert b"id: 1" in b"".join(next(stream.response) for _ in range(2))  # its first span
    stream.close()
    caches = app.extensions["kotlik.caches"]
    held = caches.held()
    assert held.keys() == {"states", "tokens", "heard versions", "lobby rows", "poll answers", "stream spans"}
    assert all(held[name] > 0 for name in ("states", "tokens", "lobby rows", "poll answers", "stream spans"))

    caches.forget()

    assert caches.held() == dict.fromkeys(held, 0)
    assert caches.states.get(game_id) is None and not caches.tokens.held(game_id)
    assert client.get(f"{path}/state", headers=token).json == before


def test_a_cache_keeps_no_more_than_its_size() -> None:
    """The oldest game goes first (the tokens' cache here; the states' in test_hot_commands)."""
    tokens = KnownTokens(2)
    games = [uuid4() for _ in range(3)]
    for game_id in games:
        tokens.remember(game_id, [])
    assert [tokens.held(g) for g in games] == [False, True, True] and len(tokens) == 2


def test_two_apps_share_no_cache(pool: Any) -> None:
    first, second = _app(pool), _app(pool)
    game = _game(first.test_client())
    assert first.extensions["kotlik.caches"] is not second.extensions["kotlik.caches"]
    assert first.extensions["kotlik.caches"].states.get(UUID(game["id"])) is not None
    assert second.extensions["kotlik.caches"].states.get(UUID(game["id"])) is None


def test_caches_without_an_app_keep_nothing() -> None:
    caches = Caches.none()
    assert (caches.states.size, caches.tokens.size) == (0, 0)


@pytest.mark.parametrize("value", ["-1", "many"])
def test_a_size_that_is_not_a_count_is_refused_by_name(value: str) -> None:
    with pytest.raises(ValueError, match="KOTLIK_CACHE_GAMES"):
        size({"KOTLIK_CACHE_GAMES": value}, "KOTLIK_CACHE_GAMES", 2000)
