"""The game page's clock, resign and rematch (issue 10), clicked in Chromium against a real
``kotlik web`` and worker."""

from __future__ import annotations

import re
import time
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


#: The lobby's requests for the player: what the test holds back or cuts off.
_PLAYER = re.compile(r"/api/v1/players/me(/games)?(\?.*)?$")


def test_a_player_key_is_forgotten_only_when_the_server_says_it_is_unknown(web: Web, browser: Any) -> None:
    """The key is shown once, so the lobby keeps it through every failure but the server's 401:
    the page left while it asks for the player, and no network at all (then it says so and offers
    to try again). A key the server does not know is forgotten."""
    key = web.api.post("/api/v1/players", {"name": "Ema"}).body["key"]
    held = "localStorage.getItem('kotlik.player')"
    context = browser.new_context()  # not new_page: the page logs the failure it shows, on purpose
    try:
        page = context.new_page()
        page.goto(f"{web.url}/")
        asked: list[str] = []  # the lobby's requests for the player, held: the page is left mid-request
        page.route(_PLAYER, lambda route: asked.append(route.request.url))
        page.evaluate("k => localStorage.setItem('kotlik.player', k)", key)
        for pages in (1, 2):
            page.reload()
            deadline = time.monotonic() + 15
            while asked.count(f"{web.url}/api/v1/players/me") < pages and time.monotonic() < deadline:
                page.wait_for_timeout(50)
            assert asked.count(f"{web.url}/api/v1/players/me") == pages, "the page asked for the player"
        assert page.evaluate(held) == key
        page.unroute(_PLAYER)
        page.route(_PLAYER, lambda route: route.abort("internetdisconnected"))
        page.reload()
        page.wait_for_selector("main [role=alert]")
        assert page.evaluate(held) == key
        page.unroute(_PLAYER)
        page.click("main [role=alert] + button")  # "Try again"
        page.wait_for_selector("[data-testid=player] h2")
        assert page.inner_text("[data-testid=player] h2").endswith("Ema")
        page.evaluate("() => localStorage.setItem('kotlik.player', 'no-such-key')")
        page.reload()
        page.wait_for_selector("[data-testid=player] .problem")
        assert page.evaluate(held) is None
    finally:
        context.close()
