"""The shell and Kupferkessel's board in a real Chromium: two people play to the end by clicking,
the replay slider, the language switch, a phone-width page, and no token in the server's log."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserui import (
    BOARD,
    board_version,
    click_something,
    create,
    create_in_form,
    invite,
    open_seat,
    replay_steps,
    status,
    totals,
    wait_for_exact_version,
    wait_for_version,
)
from conftest import Web, no_final_question


@pytest.fixture(scope="module")
def played(web: Web, browser: Any, screenshots: Path) -> Iterator[dict[str, Any]]:
    """A Kupferkessel game made in the form and played to the end by two browser contexts."""
    contexts = [browser.new_context(viewport={"width": 1200, "height": 950}) for _ in range(2)]
    for context in contexts:
        no_final_question(context)
    pages = [c.new_page() for c in contexts]
    links = create_in_form(pages[0], web.url, "kupferkessel", humans=2)
    for page, link in zip(pages, links, strict=True):
        open_seat(page, link)
    game_id = pages[0].url.rsplit("/", 1)[1]
    # the first move by keyboard: the pawn is focusable and Enter plays it
    pawn = pages[0].locator(f"{BOARD} [data-action]").first
    pawn.focus()
    before = board_version(pages[0])
    pages[0].keyboard.press("Enter")
    wait_for_version(pages[0], before)
    rng = random.Random(9)
    deadline = time.monotonic() + 120
    shot = False
    while not all(status(p) == "finished" for p in pages):
        assert time.monotonic() < deadline, "the game did not end within 120 s of clicking"
        moved = [click_something(p, rng) for p in pages if status(p) == "active"]
        if not shot and board_version(pages[0]) > 30:
            pages[0].locator(BOARD).screenshot(path=str(screenshots / "kupferkessel.png"))
            shot = True
        if not any(moved):
            pages[0].wait_for_timeout(50)
    yield {"id": game_id, "pages": pages, "totals": [totals(p) for p in pages]}
    for context in contexts:
        context.close()


def test_two_people_play_to_the_end_and_both_see_the_final_score(played: dict[str, Any], web: Web) -> None:
    score = web.api.get(f"/api/v1/games/{played['id']}/score").body
    expected = {s["seat"]: s["total"] for s in score["seats"]}
    assert played["totals"] == [expected, expected]
    page = played["pages"][0]
    assert page.locator("[data-testid=score-chart] rect").count() >= 2
    assert page.locator("[data-testid=log] li").count() > 20  # the log in words
    page.goto(f"{web.url}/#/")
    page.wait_for_selector(f"[data-testid=my-games] [data-game-id='{played['id']}']")


def test_the_replay_slider_shows_the_state_at(played: dict[str, Any], web: Web, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{web.url}/#/game/{played['id']}")  # a spectator of the finished game
    page.wait_for_selector(f"{BOARD}[data-version]")
    slider = page.locator("[data-testid=replay]")
    steps = replay_steps(page)  # one a move: each changes the table
    assert len(steps) > 10
    slider.focus()
    page.keyboard.press("Home")
    position = 0
    for index in (0, len(steps) // 2, len(steps) - 3):
        for _ in range(index - position):
            page.keyboard.press("ArrowRight")
        position = index
        target = steps[index]
        wait_for_exact_version(page, target)
        current = page.locator("[data-testid=log] li[aria-current]")
        assert current.count() == 0 or int(str(current.last.get_attribute("data-version"))) == target
        assert page.get_attribute(BOARD, "data-replay") == "true"
        expected = web.api.get(f"/api/v1/games/{played['id']}/state?at={target}").body["view"]
        shown = json.loads(page.locator("[data-testid=view-json]").text_content() or "null")
        assert shown == expected
        square = page.locator(f"{BOARD} .kk-square [data-card]")
        cards = square.evaluate_all("els => els.map(e => e.dataset.card)")
        assert sorted(cards) == sorted(c for row in expected["grid"] for c in row if c)


def test_the_language_switch_names_games_in_polish_and_is_remembered(
    played: dict[str, Any], web: Web, new_page: Any
) -> None:
    page = new_page()
    page.goto(f"{web.url}/")
    page.wait_for_selector("[data-testid=hosted-game]")
    page.select_option("[data-testid=lang]", "pl")
    page.wait_for_selector("[data-testid=hosted-game][data-game=kupferkessel]")
    catalog = {g["game"]: g["names"]["pl"] for g in web.api.get("/api/v1/catalog").body}
    names = page.locator("[data-testid=hosted-game] .game-name").all_inner_texts()
    assert sorted(names) == sorted(catalog.values())
    assert "Czarodziejski kociołek" in names
    page.reload()
    page.wait_for_selector("[data-testid=hosted-game]")
    assert page.locator("html").get_attribute("lang") == "pl"
    assert "Czarodziejski kociołek" in page.locator("[data-testid=hosted-game] .game-name").all_inner_texts()
    page.goto(f"{web.url}/#/game/{played['id']}")  # the board and the log speak Polish too
    page.wait_for_selector(f"{BOARD}[data-version]")
    cards = {c["id"]: c["names"]["pl"] for c in web.api.get("/api/v1/catalog/kupferkessel").body["cards"]}
    shown = page.locator(f"{BOARD} .kk-cauldron > [data-card]").first
    assert shown.get_attribute("title") == cards[str(shown.get_attribute("data-card"))]
    assert page.locator("h2").first.inner_text() == "Czarodziejski kociołek"
    assert any("wziął" in line for line in page.locator("[data-testid=log] li").all_inner_texts())


def test_a_phone_width_page_has_no_horizontal_scroll(
    played: dict[str, Any], web: Web, new_page: Any, screenshots: Path
) -> None:
    page = new_page(390, 844)
    duel = create(web.api, "skodakouzla", [{"name": "Phone"}, {"name": "Bot", "bot": "default"}])
    for where, ready in (
        ("/", "[data-testid=hosted-game]"),
        ("/#/new/skodakouzla", "[data-testid=create-form]"),
        (f"/#/game/{played['id']}", f"{BOARD}[data-version]"),
        (invite(web.url, duel, 0).removeprefix(web.url), f"{BOARD}[data-version]"),
    ):
        page.goto(web.url + where)
        page.wait_for_selector(ready)
        page.wait_for_timeout(200)
        width = page.locator("html").evaluate("e => e.scrollWidth")
        assert width <= 390, f"{where} scrolls sideways: {width} px"
    hand = page.locator(f"{BOARD} [data-testid=hand-0] [data-card]")
    assert hand.count() == 3, "the seat's own hand is not shown"
    page.screenshot(path=str(screenshots / "skodakouzla-phone.png"), full_page=True)
    page.goto(f"{web.url}/#/")  # the duel is among this browser's games, the seat to move
    page.wait_for_selector(f"[data-testid=my-games] [data-game-id='{duel['id']}'] [data-testid=your-turn]")


def test_no_seat_token_reaches_the_server_log(played: dict[str, Any], web: Web) -> None:
    log = web.log.read_text()
    assert f"/api/v1/games/{played['id']}/state" in log  # the access log is on
    stored = played["pages"][0].evaluate("() => localStorage.getItem('kotlik.seats')")
    token = json.loads(stored)[played["id"]]["token"]
    assert token and token not in log
    assert "#/play" not in log and "token=" not in log


def _move(web: Web, game: dict[str, Any]) -> None:
    """The seat to move plays its first legal command, through the API."""
    path = f"/api/v1/games/{game['id']}"
    seat = web.api.get(path).body["to_move"][0]
    player = web.api.seat(game["seats"][seat]["token"])
    reply = player.post(f"{path}/commands", player.get(f"{path}/actions").body[0])
    assert reply.status == 201, reply


def test_a_move_while_the_slider_waits_keeps_it_where_it_was_put(web: Web, new_page: Any) -> None:
    """The slider replays a moment after it stops; a move that arrives in that moment leaves it
    where it was put (it snapped back to the live table, and the press was lost)."""
    game = create(web.api, "kupferkessel", [{"name": "Ann"}, {"name": "Bob"}])
    for _ in range(4):
        _move(web, game)
    page = new_page()
    page.goto(f"{web.url}/#/game/{game['id']}")
    page.wait_for_selector(f"{BOARD}[data-version]")
    slider = page.locator("[data-testid=replay]")
    low = replay_steps(page)[0]
    for _ in range(3):
        slider.focus()
        page.keyboard.press("Home")
        _move(web, game)  # its frame reaches the page well within the slider's wait
        wait_for_exact_version(page, low)
        assert page.get_attribute(BOARD, "data-replay") == "true"
        page.keyboard.press("End")
        deadline = time.monotonic() + 10
        while page.get_attribute(BOARD, "data-replay") != "false":
            assert time.monotonic() < deadline, "the slider's end did not come back to the live table"
            page.wait_for_timeout(40)
