"""``/catalog`` through real HTTP: every hosted game and everything in its content named in cs/pl/en.

The shape itself is checked per game in ``tests/games/test_catalog_names.py``; here the list's
``names`` and each game's catalog as a client receives it.
"""

from __future__ import annotations

from typing import Any

import pytest
from contract import Contract
from httpclient import Client

import games

LANGUAGES = {"cs", "pl", "en"}


@pytest.fixture(scope="module")
def api(live_url: str) -> Client:
    return Client(live_url)


def _named(value: Any) -> list[dict[str, str]]:
    """Every ``names`` object in a JSON value."""
    if isinstance(value, dict):
        own = [value["names"]] if isinstance(value.get("names"), dict) else []
        return own + [n for k, v in value.items() if k != "names" for n in _named(v)]
    if isinstance(value, list):
        return [n for v in value for n in _named(v)]
    return []


def test_the_list_names_each_game_in_three_languages(api: Client) -> None:
    listed = api.get("/api/v1/catalog").body
    assert sorted(g["game"] for g in listed) == games.known()
    for entry in listed:
        assert set(entry["names"]) == LANGUAGES and all(entry["names"].values()), entry
        assert entry["name"] == games.load(entry["game"]).INFO.name  # unchanged beside it


@pytest.mark.parametrize("game_id", games.known())
def test_each_catalog_names_everything_in_three_languages(api: Client, game_id: str) -> None:
    catalog = api.get(f"/api/v1/catalog/{game_id}").body
    assert catalog["game"] == game_id and set(catalog["names"]) == LANGUAGES
    named = _named(catalog)
    assert len(named) > 5
    assert all(set(n) == LANGUAGES and all(n.values()) for n in named)


def test_the_list_offers_each_bot_level_named_described_and_measured(api: Client) -> None:
    """Every bot a game seats is a level with a name and a one-line description in cs/pl/en; the
    search level ``strong``, where a game offers it, carries the strength the benchmark stored."""
    for entry in api.get("/api/v1/catalog").body:
        game = games.load(entry["game"])
        assert [level["bot"] for level in entry["levels"]] == list(game.BOTS)
        for level in entry["levels"]:
            assert set(level["names"]) == set(level["descriptions"]) == LANGUAGES, level
            assert all(level["names"].values()) and all(level["descriptions"].values()), level
        offered = [level for level in entry["levels"] if level["bot"] == "strong"]
        if not offered:
            continue
        against = {match["against"]: match for match in offered[0]["strength"]}
        assert "default" in against, entry["game"]
        measured = against["default"]
        assert measured["games"] > 0 and 0 <= measured["low"] <= measured["share"] <= measured["high"] <= 1


def test_the_list_fits_its_document_levels_and_strength_included(api: Client) -> None:
    """A generated client reads the levels only if the document describes them: it does, each
    match's figures required (but ``wins``, absent from older records), and the answer fits."""
    document = api.get("/api/v1/openapi.json").body
    answer = document["paths"]["/api/v1/catalog"]["get"]["responses"]["200"]["content"]["application/json"]
    level = answer["schema"]["items"]["properties"]["levels"]["items"]
    assert set(level["required"]) == {"bot", "names", "descriptions", "strength"}
    match = level["properties"]["strength"]["items"]
    assert set(match["properties"]) - set(match["required"]) == {"wins"}
    seen: list[Any] = []
    Client(api.base, seen=seen).get("/api/v1/catalog")
    assert Contract(document).errors(*seen[0]) == []
