"""Carcassonne in the browser: a person plays against two bots by clicking the map (tiles, a
follower, a magic figure), and a spectator's page shows the same map.

The tile order is arranged so the person's first tile bears the mage symbol (the magic step comes
at once) and the map grows quickly; after that the seeded draw goes on.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from browserui import board_version, create, invite, wait_for_version
from httpclient import game_path

#: Seat 0 draws the 1st, 4th, 7th … tile: the mage-symbol tiles come to the person.
ARRANGED = ["MW1.1", "U.1", "V.1", "MW7.1", "U.2", "V.2", "E.1"]
TILES = 10


def _map(page: Any) -> list[tuple[str, ...]]:
    """What a page shows of the map: every tile, follower and magic figure by its data attributes."""
    return sorted(
        tuple(row)
        for row in page.eval_on_selector_all(
            "[data-testid=board] :is(.cc-tile, [data-follower], .cc-figures [data-figure])",
            """nodes => nodes.map(n => [n.getAttribute('data-tile') || '', n.getAttribute('data-x') || '',
                n.getAttribute('data-y') || '', n.getAttribute('data-rotation') || '',
                n.getAttribute('data-follower') || '', n.getAttribute('data-figure') || '',
                n.getAttribute('data-at') || ''])""",
        )
    )


def _my_turn(page: Any, deadline: float) -> bool:
    """Wait until the board offers something to click (True) or the game is over (False)."""
    while time.monotonic() < deadline:
        if page.locator("[data-testid=board] :is([data-action], .cc-spot, .cc-figure-choice)").count():
            return True
        if page.get_attribute("[data-testid=turn]", "data-status") == "finished":
            return False
        page.wait_for_timeout(40)
    raise AssertionError("the board offered nothing to click in time")


def _click_and_wait(page: Any, locator: Any) -> None:
    before = board_version(page)
    locator.click()
    wait_for_version(page, before)


def _take_turn(page: Any, placed: dict[str, int]) -> None:
    """One step of the person's turn, by clicking the board the way the hint says."""
    board = page.locator("[data-testid=board]")
    spots = board.locator(".cc-spot")
    if spots.count():
        spot = spots.nth(placed["tiles"] % spots.count())
        if spot.get_attribute("data-action") is not None:
            _click_and_wait(page, spot)
        else:
            spot.click()  # several rotations fit: the square is picked, its rotations are offered
            rotations = board.locator(".cc-rotation[data-action]")
            assert rotations.count() >= 2, "a square with several rotations offers each of them"
            _click_and_wait(page, rotations.last)
        placed["tiles"] += 1
        return
    magic = board.locator(".cc-target-mage, .cc-target-witch")
    if not magic.count() and board.locator(".cc-figure-choice").count():
        board.locator(".cc-figure-choice").first.click()  # both figures may move: pick one first
        magic = board.locator(".cc-target-mage, .cc-target-witch")
    if magic.count():
        _click_and_wait(page, magic.first)
        placed["magic"] += 1
        return
    followers = board.locator(".cc-target[data-action]")
    if followers.count() and placed["followers"] < 2:
        _click_and_wait(page, followers.first)
        placed["followers"] += 1
        return
    _click_and_wait(page, board.locator(".cc-choice[data-action]").first)  # no follower / set aside


def test_carcassonne_against_two_bots_by_clicking(web: Any, new_page: Any, screenshots: Path) -> None:
    game = create(
        web.api,
        "carcassonne",
        [{"name": "Anna"}, {"name": "Bot B", "bot": "default"}, {"name": "Bot C", "bot": "default"}],
        {"mage_witch": True, "arranged": ARRANGED},
    )
    player = new_page(1280, 900)
    player.goto(invite(web.url, game, 0))
    spectator = new_page(1280, 900)
    spectator.goto(f"{web.url}/#/game/{game['id']}")

    placed = {"tiles": 0, "followers": 0, "magic": 0}
    deadline = time.monotonic() + 60
    while placed["tiles"] < TILES or placed["magic"] < 1 or placed["followers"] < 1:
        assert _my_turn(player, deadline), f"the game ended early: {placed}"
        _take_turn(player, placed)
    print(f"played {placed} in {time.monotonic() - deadline + 60:.1f} s")
    assert _my_turn(player, deadline)  # the bots have moved; the game waits for the person again

    events = web.api.get(game_path(game, "/events")).body
    mine = [e for e in events if e["data"].get("seat") == 0]
    assert sum(e["type"] == "TilePlaced" for e in mine) >= TILES
    assert any(e["type"] == "FollowerPlaced" for e in mine)
    assert any(e["type"] == "MagicFigurePlaced" for e in mine)

    state = web.api.get(game_path(game, "/state")).body
    wait_for_version(spectator, state["version"] - 1)
    assert board_version(spectator) == board_version(player) == state["version"]
    shown = _map(player)
    assert shown == _map(spectator)
    tiles = sorted((t["tile"], str(t["x"]), str(t["y"]), str(t["rotation"])) for t in state["view"]["board"])
    assert sorted(s[:4] for s in shown if s[0]) == tiles
    assert sum(1 for s in shown if s[4]) == len(state["view"]["followers"]) >= 1
    assert spectator.locator("[data-testid=board] .cc-spot, [data-testid=board] [data-action]").count() == 0

    player.locator("[data-testid=board]").screenshot(path=str(screenshots / "carcassonne.png"))
    spectator.screenshot(path=str(screenshots / "carcassonne-spectator.png"), full_page=True)
