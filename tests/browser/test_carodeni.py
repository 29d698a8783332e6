"""Čarodění in the browser: a solo game against Ostara played to the end by clicking the board
(witches from the hand, ingredients and cards at the locations, potions to brew), then the final
score the page shows is the one ``GET /score`` gives. (The clicking strategy is simple, so whether
it brews depends on the draw; the test asserts what every game has: 15 turns of played witches
and taken items.)"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from browserui import board_version, create, invite, wait_for_version
from httpclient import game_path

#: What the person clicks first when the board offers it: brewing, then playing a witch, then
#: taking things; anything else the board offers (rest, end of turn, a refresh) comes last.
PREFERENCE = (
    ".cd-payment[data-action]",
    "[data-potion][data-action]",
    "[data-brew]",
    "[data-hand][data-action]",
    ".cd-ing[data-action]",
    "[data-offer][data-action]",
    "[data-animal][data-action]",
    "[data-action]",
)


def _step(page: Any) -> str | None:
    """Click the first thing the board offers by :data:`PREFERENCE`; None when there is nothing."""
    board = page.locator("[data-testid=board]")
    held = board.locator("[data-seat='0'] [data-potion]")
    needs = " ".join(held.evaluate_all("nodes => nodes.map(n => n.dataset.needs)"))
    wanted = [f".cd-ing[data-action][data-kind={kind}]" for kind in needs.split()]
    for selector in (*PREFERENCE[:4], *wanted, *PREFERENCE[4:]):
        found = board.locator(selector)
        if not found.count():
            continue
        if selector == "[data-brew]":
            found.first.click()  # several payments: the potion is picked, its payments are offered
            assert board.locator(".cd-payment[data-action]").count() >= 2
            return "pick"
        before = board_version(page)
        found.first.click()
        wait_for_version(page, before)
        return selector
    return None


def _offered(page: Any) -> tuple[int, int]:
    """The board's click targets and the listed actions, counted in one look: asked one after
    the other, a redraw between them (Ostara's turn ending) would pair an old board with new
    actions."""
    counts = page.locator("[data-testid=board]").evaluate(
        """board => [
            board.querySelectorAll("[data-action], [data-brew]").length,
            document.querySelectorAll("[data-testid=action-button]").length,
        ]"""
    )
    return counts[0], counts[1]


def test_solo_against_ostara_to_the_end_by_clicking(web: Any, new_page: Any, screenshots: Path) -> None:
    seats = [{"name": "Anna"}, {"name": "Ostara", "bot": "ostara"}]
    game = create(web.api, "carodeni", seats, {"solo": True})
    page = new_page(1280, 1000)
    page.goto(invite(web.url, game, 0))
    page.wait_for_selector("[data-testid=ostara-track]")

    clicked: dict[str, int] = {}
    deadline = time.monotonic() + 75
    while page.get_attribute("[data-testid=turn]", "data-status") != "finished":
        assert time.monotonic() < deadline, f"the game did not end in time; clicked {clicked}"
        if (what := _step(page)) is None:
            targets, listed = _offered(page)
            assert targets or not listed, "the board lacks a target"
            page.wait_for_timeout(40)
            continue
        clicked[what] = clicked.get(what, 0) + 1
        if clicked.get("[data-hand][data-action]", 0) == 3 and "shot" not in clicked:
            clicked["shot"] = 1
            page.locator("[data-testid=board]").screenshot(path=str(screenshots / "carodeni.png"))
    print(f"clicked {clicked}")

    summary = web.api.get(game_path(game)).body
    assert summary["status"] == "finished"
    events = web.api.get(game_path(game, "/events")).body
    assert sum(e["type"] == "TurnEnded" and e["data"]["seat"] == 0 for e in events) == 15
    assert sum(e["type"] == "ItemTaken" and e["data"]["seat"] == 0 for e in events) >= 15
    assert clicked.get("[data-hand][data-action]", 0) >= 5  # witches played from the hand

    score = web.api.get(game_path(game, "/score")).body
    page.locator("[data-testid=score-table]").wait_for()
    for seat in score["seats"]:
        shown = page.locator(f"[data-testid=score-total][data-seat='{seat['seat']}']").inner_text()
        assert shown == str(seat["total"])
    board = page.locator("[data-testid=board]")
    assert board.locator("[data-step].cd-past").count() >= 14  # the track shows every round played
    page.screenshot(path=str(screenshots / "carodeni-final.png"), full_page=True)
