"""The game page's clock, resign and rematch (issue 10), clicked in Chromium against a real
``kotlik web`` and worker."""

from __future__ import annotations

import re
from typing import Any

from browserui import BOARD, create, invite, open_seat, status
from conftest import Web


def test_a_seat_sees_its_clock_resigns_and_starts_the_rematch(web: Web, new_page: Any) -> None:
    game = create(
        web.api,
        "kupferkessel",
        [{"name": "Anna"}, {"name": "Bohdan"}],
        {"clock": {"per_move": "1d", "on_timeout": "bot"}},
    )
    page = new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # "Resign this game?"
    open_seat(page, invite(web.url, game, 0))
    assert page.get_attribute("[data-testid=deadline]", "data-deadline") == game["deadline"]
    page.click("[data-testid=resign]")
    page.wait_for_selector("[data-testid=turn][data-status=finished]")
    assert page.locator("[data-testid=deadline]").count() == 0
    summary = web.api.get(f"/api/v1/games/{game['id']}").body
    assert summary["result"]["ended"] == [{"seat": 0, "reason": "resigned"}]
    assert "Anna" in (page.locator("[data-testid=log]").text_content() or "")
    page.click("[data-testid=rematch]")
    page.wait_for_url(lambda url: "#/game/" in url and game["id"] not in url)
    page.wait_for_selector(f"{BOARD}[data-version]")
    rematch = web.api.get(f"/api/v1/games/{game['id']}").body["rematch"]
    assert rematch and page.url.endswith(f"#/game/{rematch}")
    assert status(page) == "active" and page.locator("[data-testid=resign]").count() == 1
    new = web.api.get(f"/api/v1/games/{rematch}").body
    assert new["clock"] == game["clock"] and [s["name"] for s in new["seats"]] == ["Anna", "Bohdan"]
    # Anna's browser gave the rematch her entropy (64 lowercase hex digits of its own), Bohdan none.
    given = [s["entropy"] for s in new["seats"]]
    assert re.fullmatch("[0-9a-f]{64}", given[0] or "") and given[1] is None, given
    page.wait_for_selector("[data-testid=invite-link]")  # Bohdan's link to the rematch
    assert "token=" in page.input_value("[data-testid=invite-link]")


def test_a_player_key_lists_the_players_games_and_plays_their_seat(web: Web, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{web.url}/")
    page.fill("[data-testid=player-name]", "Cyril")
    page.click("[data-testid=player-create]")
    page.wait_for_selector("[data-testid=player-key]", state="attached")  # folded away
    key = page.input_value("[data-testid=player-key]")
    me = web.api.seat(key).get("/api/v1/players/me").body
    assert me["name"] == "Cyril"
    games = [create(web.api, "kupferkessel", [{"player": me["id"]}, {"name": "Dana"}]) for _ in range(2)]
    page.reload()
    page.wait_for_selector("[data-testid=player-games] [data-testid=lobby-row]")
    listed = web.api.seat(key).get("/api/v1/players/me/games").body
    rows = page.locator("[data-testid=player-games] [data-testid=lobby-row]")
    assert sorted(rows.evaluate_all("els => els.map(e => e.dataset.gameId)")) == sorted(
        g["id"] for g in games
    )
    turns = page.locator("[data-testid=player-games] [data-testid=your-turn]").count()
    assert turns == sum(g["your_turn"] for g in listed)
    page.click(f"[data-testid=player-games] [data-game-id='{games[0]['id']}'] a")
    page.wait_for_selector(f"{BOARD}[data-version]")
    assert page.locator("[data-testid=resign]").count() == 1  # the key holds seat 0 here
    assert page.locator(".players li.me").inner_text().startswith("Cyril")
