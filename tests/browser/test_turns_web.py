""" "Your turn" with the game page closed, and the create form's clock and seats (issue 50).

Two players: one waits on the lobby, the other moves through the API with its own seat token; the
waiting tab's title and favicon say it within a second, its lobby row gets its badge without a
reload, and the browser notification the player switched on (permission granted by the context, the
request made by the click) is shown. The form sets the turn clock, seats Ostara for solo Čarodění,
and says an API problem in Czech.
"""

from __future__ import annotations

import time
from typing import Any

from browserui import create, invite
from httpclient import Client

#: Records each Notification the page makes, then makes it as the browser would.
_NOTICES = """
const Real = window.Notification;
window.__notices = [];
window.Notification = class extends Real {
  constructor(title, options) { super(title, options); window.__notices.push(title); }
};
window.Notification.requestPermission = () => Real.requestPermission();
Object.defineProperty(window.Notification, "permission", { get: () => Real.permission });
"""


def _to_move(api: Client, game_id: str) -> list[int]:
    return list(api.get(f"/api/v1/games/{game_id}").body["to_move"])


def _play_until(api: Client, game: dict[str, Any], seat: int) -> None:
    """The other seats' first legal moves until ``seat`` is to move."""
    for _ in range(40):
        moving = _to_move(api, game["id"])
        if seat in moving:
            return
        mover = api.seat(game["seats"][moving[0]]["token"])
        action = mover.get(f"/api/v1/games/{game['id']}/actions").body[0]
        assert mover.post(f"/api/v1/games/{game['id']}/commands", action).status == 201
    raise AssertionError(f"seat {seat} never came to move")


def _title_within(page: Any, wanted: str, seconds: float) -> float:
    start = time.monotonic()
    page.wait_for_function("t => document.title === t", arg=wanted, timeout=seconds * 1000)
    return time.monotonic() - start


def test_your_turn_reaches_the_lobby_tab(web: Any, browser: Any) -> None:
    game = create(web.api, "kupferkessel", [{"name": "Ada"}, {"name": "Ben"}])
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.grant_permissions(["notifications"], origin=web.url)
        context.add_init_script(_NOTICES)
        page = context.new_page()
        page.goto(invite(web.url, game, 0))
        page.wait_for_selector("[data-testid=board][data-version]")
        page.goto(f"{web.url}/#/")  # the game page closed: the lobby is what is open
        page.click("[data-testid=notify-toggle]")
        page.wait_for_selector("[data-testid=notify-toggle][aria-pressed=true]")
        row = f"[data-testid=my-games] [data-testid=lobby-row][data-game-id='{game['id']}']"
        page.wait_for_selector(row)

        # Ada's own moves until Ben is to move: the title says nothing is waiting on her
        _play_until(web.api, game, 1)
        _title_within(page, "Kotlík", 2)
        page.wait_for_selector(f"{row}:not(.my-turn)")
        assert page.get_attribute("link[rel=icon]", "data-turns") == "0"

        # Ben moves (his own token, real HTTP): Ada's tab says it within a second, no reload
        page.evaluate("window.__reloaded = false")
        _play_until(web.api, game, 0)
        took = _title_within(page, "(1) Your turn — Kotlík", 1.0)
        print(f"the waiting tab's title changed {took * 1000:.0f} ms after the move")
        page.wait_for_selector(f"{row} [data-testid=your-turn]", timeout=2000)
        assert page.evaluate("window.__reloaded") is False, "the lobby was reloaded"
        assert page.get_attribute("link[rel=icon]", "data-turns") == "1"
        assert str(page.get_attribute("link[rel=icon]", "href")).startswith("data:image/svg+xml")
        page.wait_for_function("window.__notices.length > 0", timeout=2000)
        assert page.evaluate("window.__notices")[0].startswith("Your turn")
    finally:
        context.close()


def test_create_form_sets_the_clock_and_seats_ostara(web: Any, new_page: Any) -> None:
    page = new_page(390, 800)
    page.goto(f"{web.url}/#/new/kupferkessel")
    page.select_option("[data-testid=clock-per-move]", "24h")
    page.select_option("[data-testid=clock-on-timeout]", "forfeit")
    page.click("[data-testid=create-submit]")
    link = page.input_value("[data-testid=invite-link][data-seat='0']")
    game_id = link.split("/play/")[1].split("?")[0]
    clock = web.api.get(f"/api/v1/games/{game_id}").body["clock"]
    assert clock["per_move"] == "24h" and clock["on_timeout"] == "forfeit", clock

    # solo Čarodění: the tick seats Ostara, and the game starts (no problem shown)
    page.goto(f"{web.url}/#/new/carodeni")
    page.check("[data-testid=option-solo]")
    assert page.input_value("[data-testid=seat-count]") == "2"
    assert page.input_value("[data-testid=seat-kind-1]") == "ostara"
    assert page.input_value("[data-testid=seat-kind-0]") == ""
    page.click("[data-testid=create-submit]")
    link = page.input_value("[data-testid=invite-link][data-seat='0']")
    assert page.inner_text("[data-testid=create-problem]") == ""
    game_id = link.split("/play/")[1].split("?")[0]
    seats = web.api.get(f"/api/v1/games/{game_id}").body["seats"]
    assert seats[1].get("bot") == "ostara", seats

    # a problem the client knows the type of, in the reader's language
    page.goto(f"{web.url}/#/")
    page.select_option("[data-testid=lang]", "cs")
    page.goto(f"{web.url}/#/new/carodeni")
    page.check("[data-testid=option-solo]")
    page.select_option("[data-testid=seat-count]", "3")
    page.click("[data-testid=create-submit]")
    problem = page.locator("[data-testid=create-problem]")
    problem.filter(has_text="nepasují").wait_for()
    assert "seat" not in problem.inner_text()
