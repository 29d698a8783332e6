"""The opponents page (issue 49) in Chromium against a real ``kotlik web`` and worker: two
browsers seek the same game, are paired live and play a move; an open seat is taken in one click."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from browserui import BOARD, CLICKABLE, board_version, wait_for_version
from conftest import Web


def _player_page(web: Web, new_page: Any) -> tuple[Any, dict[str, Any]]:
    made = web.api.post("/api/v1/players", {"name": f"web-{uuid4().hex[:8]}"}).body
    page = new_page()
    page.goto(f"{web.url}/")
    page.evaluate("key => localStorage.setItem('kotlik.player', key)", made["key"])
    page.goto(f"{web.url}/#/opponents")
    page.wait_for_selector("[data-testid=seek-form]")
    return page, made


def test_two_browsers_seek_the_same_game_are_paired_and_play_a_move(web: Web, new_page: Any) -> None:
    pages = [_player_page(web, new_page) for _ in range(2)]
    for page, _ in pages:
        page.select_option("[data-testid=seek-game]", "kupferkessel")
        page.fill("[data-testid=seek-clock]", "17h")  # a bucket of this test's own
    first, second = pages[0][0], pages[1][0]
    first.click("[data-testid=seek-go]")
    first.wait_for_selector("[data-testid=seek-waiting]")
    second.click("[data-testid=seek-go]")
    for page, _ in pages:  # the waiting page hears of the pairing by itself
        page.wait_for_url(lambda url: "#/game/" in url)
        page.wait_for_selector(f"{BOARD}[data-version]")
    game_id = first.url.rsplit("/", 1)[1]
    assert second.url.endswith(game_id)
    summary = web.api.get(f"/api/v1/games/{game_id}").body
    assert [s["player"] for s in summary["seats"]] == [pages[0][1]["id"], pages[1][1]["id"]]
    mover = pages[summary["to_move"][0]][0]
    before = board_version(mover)
    mover.locator(CLICKABLE).first.click()
    if mover.locator(f"{BOARD} [data-action]").count() and board_version(mover) == before:
        mover.locator(f"{BOARD} [data-action]").first.click()
    wait_for_version(mover, before)
    other = pages[1 - summary["to_move"][0]][0]
    wait_for_version(other, before)


def test_an_open_seat_is_taken_in_one_click(web: Web, new_page: Any) -> None:
    creator = web.api.post("/api/v1/players", {"name": f"host-{uuid4().hex[:8]}"}).body
    host = web.api.seat(creator["key"])
    game = host.post(
        "/api/v1/games",
        {"game": "kupferkessel", "seats": [{"player": creator["id"]}, {"open": True}], "rated": True},
    ).body
    page, made = _player_page(web, new_page)
    page.click(f"[data-testid=join-{game['id']}]")
    page.wait_for_url(lambda url: url.endswith(f"#/game/{game['id']}"))
    page.wait_for_selector(f"{BOARD}[data-version]")
    summary = web.api.get(f"/api/v1/games/{game['id']}").body
    assert summary["status"] == "active" and summary["seats"][1]["player"] == made["id"]


def test_a_table_opened_in_the_browser_starts_live_when_its_seat_is_taken(web: Web, new_page: Any) -> None:
    page, made = _player_page(web, new_page)
    page.select_option("[data-testid=seek-game]", "kupferkessel")
    page.click("[data-testid=seek-open]")
    page.wait_for_selector("[data-testid=table-waiting]")
    game_id = page.get_attribute("[data-testid=table-waiting]", "data-game")
    guest = web.api.post("/api/v1/players", {"name": f"guest-{uuid4().hex[:8]}"}).body
    assert web.api.seat(guest["key"]).post(f"/api/v1/games/{game_id}/join", {}).status == 201
    page.wait_for_url(lambda url: url.endswith(f"#/game/{game_id}"))  # the waiting page hears of it
    page.wait_for_selector(f"{BOARD}[data-version]")
    assert web.api.get(f"/api/v1/games/{game_id}").body["seats"][0]["player"] == made["id"]
