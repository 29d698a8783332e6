"""A game of each kind to the end by keyboard alone (issue 50): no click, no ``focus()`` from the
test — only Tab and Shift+Tab to reach a move on the board, and Enter or Space to make it (R turns a
Carcassonne tile). The focus stays where the player is after each move (on the next choice), so most
moves need few keys; a wait for the other seat leaves it on the board.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from browserui import BOARD, board_version, create, invite, totals

#: What a keyboard player may act on: a move, a card that narrows among several, a tile's spot, the
#: magic figure to move (when both may).
TARGET = "[data-action], [data-select], .cc-spot, .cc-figure-choice"

#: Where the focus is: -1 before the board (the header, the title), 0 on one of its targets, 1 on
#: the board but no target (or after it: the moves list, the replay, the log), None when nothing
#: on the page has it.
_WHERE = f"""() => {{
  const board = document.querySelector("{BOARD}");
  const el = document.activeElement;
  if (!board || !el || el === document.body) return null;
  if (board.contains(el) && el !== board && el.matches("{TARGET}")) return 0;
  if (board.contains(el)) return 1;
  return board.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING ? -1 : 1;
}}"""

#: Each kind: its seats (the people play by keyboard), its options, and how long the test waits.
GAMES: dict[str, tuple[list[dict[str, Any]], dict[str, Any], float]] = {
    "kupferkessel": ([{"name": "Ada"}, {"name": "Ben"}], {}, 240),
    "skodakouzla": ([{"name": "Ada"}, {"name": "Bot", "bot": "default"}], {"income": 3}, 300),
    "carodeni": ([{"name": "Ada"}, {"name": "Ostara", "bot": "ostara"}], {"solo": True}, 300),
    "carcassonne": ([{"name": "Ada"}, {"name": "Ben"}], {"mage_witch": True}, 600),
}


def _reach_a_move(page: Any, rng: random.Random) -> bool:
    """Tab (or Shift+Tab, from below the board) to one of the board's moves: False when the board
    offers none now. A few extra Tabs now and then pick another move than the first."""
    for _ in range(rng.choice((0, 0, 1, 2))):
        page.keyboard.press("Tab")
    for _ in range(120):
        where = page.evaluate(_WHERE)
        if where == 0:
            return True
        if where == 1 and not page.locator(f"{BOARD} :is({TARGET})").count():
            return False  # nothing to do on the board now
        page.keyboard.press("Shift+Tab" if where == 1 and rng.random() < 0.9 else "Tab")
    return False


def _key_move(page: Any, rng: random.Random) -> bool:
    """One key press on a move (Enter or Space; now and then R first on a tile's spot)."""
    if not _reach_a_move(page, rng):
        return False
    before = board_version(page)
    if page.evaluate("document.activeElement.classList.contains('cc-spot')") and rng.random() < 0.3:
        page.keyboard.press("r")
    figure = page.evaluate("document.activeElement.matches('.cc-figure-choice')")
    page.keyboard.press(rng.choice(("Enter", "Enter", " ")))
    deadline = time.monotonic() + 5
    while board_version(page) == before and time.monotonic() < deadline:
        if page.locator(f"{BOARD} .sk-selected, {BOARD} .cc-rotation").count():
            break  # a narrowing step or a spot's rotations: nothing played yet
        if figure and page.evaluate("document.activeElement.matches('.cc-target')"):
            break  # the magic figure picked: the focus went on to its first feature
        page.wait_for_timeout(30)
    return True


@pytest.mark.parametrize("kind", list(GAMES))
def test_a_game_to_the_end_by_keyboard_alone(web: Any, new_page: Any, kind: str) -> None:
    seats, options, seconds = GAMES[kind]
    game = create(web.api, kind, seats, options)
    people = [s for s in range(len(seats)) if "bot" not in seats[s]]
    pages = {}
    for seat in people:
        page = new_page(1280, 900)
        page.goto(invite(web.url, game, seat))
        page.wait_for_selector(f"{BOARD}[data-version]")
        pages[seat] = page
    first = pages[people[0]]
    rng = random.Random(50)
    keys = 0
    deadline = time.monotonic() + seconds
    while True:
        summary = web.api.get(f"/api/v1/games/{game['id']}").body
        if summary["status"] != "active":
            break
        assert time.monotonic() < deadline, f"{kind}: not over after {seconds} s ({keys} moves by keys)"
        # the person to move takes their turn at their own keyboard (the others' pages only watch)
        movers = [pages[s] for s in summary["to_move"] if s in pages]
        if movers and _key_move(movers[0], rng):
            keys += 1
        else:
            first.wait_for_timeout(50)
    first.wait_for_selector("[data-testid=turn][data-status=finished]", timeout=30_000)
    summary = web.api.get(f"/api/v1/games/{game['id']}").body
    assert summary["status"] == "finished"
    events = web.api.get(f"/api/v1/games/{game['id']}/events").body
    by_people = [e for e in events if e.get("command") is not None and e.get("seat") in people]
    assert by_people and keys >= 5, f"{kind}: {keys} moves by keys"
    score = web.api.get(f"/api/v1/games/{game['id']}/score").body
    assert totals(first) == {s["seat"]: s["total"] for s in score["seats"]}
    print(f"{kind}: {keys} moves by keys, {len(events)} events")
