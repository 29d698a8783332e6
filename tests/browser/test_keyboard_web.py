"""The keyboard keeps its place (issue 50): a choice that opens several options (a Carcassonne spot
with several rotations, a Škoda card with several moves) leaves the focus on the chosen thing, not
on ``<body>``; a spot turns with R and is laid with Enter, all on the spot itself.
"""

from __future__ import annotations

from typing import Any

from browserui import BOARD, board_version, create, invite, wait_for_version

FOCUSED = "() => Boolean(document.activeElement && document.activeElement !== document.body)"


def _focused(page: Any, attribute: str) -> str | None:
    if not page.evaluate(FOCUSED):
        return None
    return page.evaluate("a => document.activeElement.getAttribute(a)", attribute)


def test_a_carcassonne_spot_turns_and_is_laid_by_keys(web: Any, new_page: Any) -> None:
    seats = [{"name": "Ada"}, {"name": "Bot", "bot": "default"}]
    for _attempt in range(6):  # a tile with a spot of several rotations (most tiles have one)
        game = create(web.api, "carcassonne", seats)  # each game draws its own first tile
        page = new_page(1280, 900)
        page.goto(invite(web.url, game, 0))
        page.wait_for_selector(f"{BOARD} .cc-spot")
        several = page.locator(f"{BOARD} .cc-spot:not([data-action])")
        if several.count():
            break
    else:
        raise AssertionError("no spot with several rotations in six games")
    spot = str(several.first.get_attribute("data-spot"))
    rotations = str(several.first.get_attribute("data-rotations")).split()
    several.first.focus()
    page.keyboard.press("Enter")  # picks the spot: its rotations are offered
    page.wait_for_selector(f"{BOARD} .cc-rotation")
    page.wait_for_function(FOCUSED)
    assert _focused(page, "data-spot") == spot, "the focus left the picked spot"
    page.keyboard.press("r")  # turns it, on the spot itself
    page.wait_for_timeout(50)
    assert _focused(page, "data-spot") == spot, "the focus left the spot as it turned"
    before = board_version(page)
    page.keyboard.press("Enter")  # lays the rotation shown
    wait_for_version(page, before)
    placed = web.api.get(f"/api/v1/games/{game['id']}/events").body
    laid = [e for e in placed if e["type"] == "TilePlaced" and e["data"].get("seat") == 0]
    assert laid and f"{laid[-1]['data']['x']},{laid[-1]['data']['y']}" == spot
    assert str(laid[-1]["data"]["rotation"]) == rotations[1], "not the rotation R turned to"


def test_a_skoda_card_of_several_moves_keeps_the_focus(web: Any, new_page: Any) -> None:
    seats = [{"name": "Ada"}, {"name": "Bot", "bot": "default"}]
    game = create(web.api, "skodakouzla", seats)
    page = new_page(1280, 900)
    page.goto(invite(web.url, game, 0))
    page.wait_for_selector(f"{BOARD}[data-version]")
    for _ in range(40):  # the first card that opens several moves, played round by round
        cards = page.locator(f"{BOARD} [data-select]")
        if cards.count():
            break
        target = page.locator(f"{BOARD} [data-action]")
        if target.count():
            before = board_version(page)
            target.first.click()
            wait_for_version(page, before)
        else:
            page.wait_for_timeout(100)
    else:
        raise AssertionError("no card with several moves came up")
    uid = str(cards.first.get_attribute("data-select"))
    cards.first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{BOARD} .sk-selected")
    page.wait_for_function(FOCUSED)
    assert _focused(page, "data-uid") == uid or _focused(page, "data-action") is not None
