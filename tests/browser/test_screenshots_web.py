"""The README's pictures (issue 50): each game mid-game, as its seat to move sees it, at 1280 px (a
desktop) and 390 px (a phone), and at 390 px nothing scrolls sideways.

``KOTLIK_SCREENSHOTS=docs/screenshots KOTLIK_REQUIRE_BROWSER=1 pytest tests/browser/test_screenshots_web.py``
remakes ``docs/screenshots/<game>-1280.png`` and ``<game>-390.png``; without the variable they go to
a temporary folder (the run's summary says where).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from browserui import MIDGAME, invite, midgame

#: The widths and the heights of the window pictured; a picture is at most ``TALLEST`` px high.
SIZES = ((1280, 900), (390, 844))
TALLEST = 2200


def _person_to_move(web: Any, game: dict[str, Any]) -> int:
    deadline = time.monotonic() + 20
    while True:
        to_move = web.api.get(f"/api/v1/games/{game['id']}").body["to_move"]
        people = [s for s in to_move if game["seats"][s].get("token")]
        if people:
            return int(people[0])
        assert time.monotonic() < deadline, to_move
        time.sleep(0.1)


def test_every_game_pictured_at_a_desktop_and_a_phone_width(
    web: Any, new_page: Any, screenshots: Path
) -> None:
    for kind in MIDGAME:
        game = midgame(web.api, kind)
        seat = _person_to_move(web, game)
        for width, height in SIZES:
            page = new_page(width, height)
            page.goto(invite(web.url, game, seat))
            page.wait_for_selector("[data-testid=board][data-version]")
            page.wait_for_selector("[data-testid=log] li")
            page.wait_for_timeout(300)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{kind} at {width} px scrolls sideways ({wide} px)"
            tall = page.evaluate("document.documentElement.scrollHeight")
            path = screenshots / f"{kind}-{width}.png"
            page.screenshot(
                path=str(path),
                full_page=True,
                clip={"x": 0, "y": 0, "width": width, "height": min(tall, TALLEST)},
            )
            assert path.stat().st_size > 10_000, path
