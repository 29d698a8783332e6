"""Undo and the question before a final move, clicked in Chromium against a real ``kotlik web``.

Carcassonne: a tile placed is taken back by the page's undo button (the board shows the table as
before, the log says who took a move back, the other seat's page sees it too); passing draws the
next tile, so the page asks first, sends nothing when the player says no, and asks no more once the
player turned the question off, which the browser remembers.
"""

from __future__ import annotations

from typing import Any

from browserui import BOARD, board_version, create, invite, open_seat, wait_for_version
from conftest import Web
from httpclient import game_path


def _state(web: Web, game: dict[str, Any], seat: int) -> dict[str, Any]:
    return dict(web.api.seat(game["seats"][seat]["token"]).get(game_path(game, "/state")).body)


def _click_action(page: Any, web: Web, game: dict[str, Any], seat: int, kind: str) -> None:
    """Click the first move of ``kind`` in the page's list of moves (the list is ``/actions``'s)."""
    actions = web.api.seat(game["seats"][seat]["token"]).get(game_path(game, "/actions")).body
    index = next(i for i, a in enumerate(actions) if a["type"] == kind)
    if page.locator("[data-testid=actions] details[open]").count() == 0:
        page.click("[data-testid=actions] summary")
    page.click(f"[data-testid=action-button][data-index='{index}']")


def _next_is(web: Web, game: dict[str, Any], seat: int, kind: str) -> bool:
    actions = web.api.seat(game["seats"][seat]["token"]).get(game_path(game, "/actions")).body
    return bool(actions) and actions[0]["type"] == kind


def test_a_move_is_taken_back_and_a_final_one_is_asked_about(web: Web, new_page: Any) -> None:
    game = create(web.api, "carcassonne", [{"name": "Alena"}, {"name": "Boris"}])
    seat = web.api.get(game_path(game)).body["to_move"][0]
    page, other = new_page(ask_final=True), new_page(ask_final=True)
    open_seat(page, invite(web.url, game, seat))
    open_seat(other, invite(web.url, game, 1 - seat))
    assert page.locator("[data-testid=undo]").is_disabled(), "nothing to take back yet"
    before = _state(web, game, seat)

    start = board_version(page)
    _click_action(page, web, game, seat, "place_tile")
    placed = wait_for_version(page, start)
    page.wait_for_selector("[data-testid=undo]:not([disabled])")
    page.click("[data-testid=undo]")
    back = wait_for_version(page, placed)
    assert _state(web, game, seat)["view"] == before["view"], "the table is as before the tile"
    log = page.locator("[data-testid=log] li").last.text_content() or ""
    assert ("Alena" if seat == 0 else "Boris") in log
    wait_for_version(other, back - 1)
    assert other.locator(f"[data-testid=log] li[data-version='{back}']").count() == 1
    page.wait_for_selector("[data-testid=undo][disabled]")

    # a final move: the page asks; "no" sends nothing
    start = board_version(page)
    _click_action(page, web, game, seat, "place_tile")
    placed = wait_for_version(page, start)
    if _next_is(web, game, seat, "place_magic"):  # the tile bore the mage symbol: the figure first
        _click_action(page, web, game, seat, "place_magic")
        placed = wait_for_version(page, placed)
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    _click_action(page, web, game, seat, "pass")
    page.wait_for_timeout(500)
    assert len(asked) == 1 and any(word in asked[0] for word in ("back", "zpět", "cofnąć")), asked
    assert web.api.get(game_path(game)).body["version"] == placed, "a declined move is not sent"

    # the question turned off is remembered by the browser: no dialog, the move goes out
    page.uncheck("[data-testid=ask-final]")
    page.reload()
    page.wait_for_selector(f"{BOARD}[data-version]")
    assert not page.is_checked("[data-testid=ask-final]")
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    _click_action(page, web, game, seat, "pass")
    wait_for_version(page, placed)
    assert not dialogs
    assert web.api.get(game_path(game)).body["to_move"] == [1 - seat]
