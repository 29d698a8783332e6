"""The opponents page (issue 49) in Chromium against a real ``kotlik web`` and worker: two
browsers seek the same game, are paired live and play a move; an open seat is taken in one click;
the waiting page hears of a pairing or a taken seat by the server's push, with no request of its
own between the other player's 201 and its change (the time between printed); and the profile page."""

from __future__ import annotations

import re
import time
from typing import Any
from uuid import uuid4

from browserui import BOARD, CLICKABLE, board_version, wait_for_version
from conftest import Web
from test_legible_web import RAW, _axe, _check

#: Notes, in the waiting page, when its address changes and which API requests it sends from then.
WATCH = """() => {
  window.__changed = null;
  const now = () => performance.timeOrigin + performance.now();
  window.addEventListener("hashchange", () => { window.__changed ??= now(); });
}"""
#: When (epoch ms, as WATCH's) the page's last request to a path ending so was answered in full.
ANSWERED = """(tail) => {
  const done = performance.getEntriesByType("resource").filter((e) => e.name.split("?")[0].endsWith(tail));
  const last = done[done.length - 1];
  return last ? performance.timeOrigin + last.responseEnd : null;
}"""


def _requests(page: Any) -> list[tuple[float, str, str]]:
    """The API requests the page sends from now on: when (epoch ms), method and URL."""
    asked: list[tuple[float, str, str]] = []

    def note(r: Any) -> None:
        if "/api/" in r.url:
            asked.append((time.time() * 1000, r.method, r.url))

    page.on("request", note)
    return asked


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
    asked = _requests(first)
    first.click("[data-testid=seek-go]")
    first.wait_for_selector("[data-testid=seek-waiting]", timeout=60_000)  # a loaded CI machine
    first.evaluate(WATCH)
    first.wait_for_timeout(800)  # longer than the old poll's 700 ms: a poll would show here
    before = len(asked)
    second.click("[data-testid=seek-go]")
    for which, (page, _) in enumerate(pages):  # the waiting page hears of the pairing by itself
        try:
            page.wait_for_url(lambda url: "#/game/" in url)
        except Exception as e:  # what each page shows says which one stayed, and why
            shown = [(p.url, p.inner_text("main")[:300]) for p, _ in pages]
            raise AssertionError(f"page {which} did not open the game: {shown}") from e
        page.wait_for_selector(f"{BOARD}[data-version]")
    paired_at = second.evaluate(ANSWERED, "/api/v1/seeks")
    seen_at = first.evaluate("() => window.__changed")
    seeks = [url for at, method, url in asked if "/seeks/" in url]
    assert len(seeks) == 1 and "wait=" in seeks[0], f"one long-poll, no polling: {seeks}"
    assert not [a for a in asked[before:] if a[0] < seen_at], f"nothing asked until the page changed: {asked}"
    print(f"pairing 201 → the waiting page opens the game: {seen_at - paired_at:.0f} ms")
    assert 0 <= seen_at - paired_at < 2000, "live, not by a timeout"
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


def test_a_page_still_loading_when_the_reader_moves_on_leaves_the_newer_page_alone(
    web: Web, new_page: Any
) -> None:
    """The language switched while the page's leaderboards are still on their way: when they come,
    the older page must not take the newer one's place: its seek form's wait ended with it, so a
    seek sent from there, once paired, would never open its game."""
    page, _ = _player_page(web, new_page)
    boards = (
        "() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/ratings/')).length"
    )
    before = page.evaluate(boards)
    kinds = len(web.api.get("/api/v1/catalog").body)  # a leaderboard each
    held: list[Any] = []  # the older page's leaderboard requests, held until the newer one shows

    def hold(route: Any) -> None:
        if len(held) < kinds:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/v1/ratings/**", hold)
    page.select_option("[data-testid=lang]", "pl")  # the older page
    deadline = time.monotonic() + 15
    while len(held) < kinds and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert len(held) == kinds, f"the page asked for each leaderboard: {[r.request.url for r in held]}"
    page.select_option("[data-testid=lang]", "cs")  # the newer page, which loads in full
    page.wait_for_selector("h1:text-is('Najít soupeře')")
    for route in held:
        route.continue_()
    page.wait_for_function(f"() => ({boards})() >= {before + 2 * kinds}")
    page.wait_for_timeout(300)  # the older page's last step, had it one: drawing itself over
    page.select_option("[data-testid=seek-game]", "kupferkessel")
    page.fill("[data-testid=seek-clock]", "35h")  # a bucket of this test's own
    page.click("[data-testid=seek-go]")
    page.wait_for_selector("[data-testid=seek-waiting]")  # the form's wait lives
    page.click("[data-testid=seek-cancel]")
    page.wait_for_selector("[data-testid=seek-status]:text-is('Zrušeno.')")


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
    asked = _requests(page)
    page.evaluate(WATCH)
    page.wait_for_timeout(800)
    guest, _ = _player_page(web, new_page)  # a second browser takes the seat in one click
    guest.click(f"[data-testid=join-{game_id}]")
    page.wait_for_url(lambda url: url.endswith(f"#/game/{game_id}"))  # the waiting page hears of it
    page.wait_for_selector(f"{BOARD}[data-version]")
    joined_at = guest.evaluate(ANSWERED, f"/games/{game_id}/join")
    seen_at = page.evaluate("() => window.__changed")
    polls = [a for a in asked if a[0] < seen_at and not a[2].split("?")[0].endswith("/stream")]
    assert not polls, f"nothing asked but the event stream until the page changed: {polls}"
    print(f"seat taken 201 → the waiting page opens the game: {seen_at - joined_at:.0f} ms")
    assert 0 <= seen_at - joined_at < 2000, "live, not by a timeout"
    assert web.api.get(f"/api/v1/games/{game_id}").body["seats"][0]["player"] == made["id"]


def test_a_seat_taken_at_a_larger_table_shows_live(web: Web, new_page: Any) -> None:
    """Three seats: the first guest's name appears on the waiting page as they sit (no request
    of the page's own), the second guest starts the game."""
    page, _ = _player_page(web, new_page)
    page.select_option("[data-testid=seek-game]", "carcassonne")
    page.fill("[data-testid=seek-seats]", "3")
    page.click("[data-testid=seek-open]")
    page.wait_for_selector("[data-testid=table-waiting][data-seats='1']")
    game_id = page.get_attribute("[data-testid=table-waiting]", "data-game")
    asked = _requests(page)
    guests = [web.api.post("/api/v1/players", {"name": f"g{i}-{uuid4().hex[:8]}"}).body for i in range(2)]
    assert web.api.seat(guests[0]["key"]).post(f"/api/v1/games/{game_id}/join", {}).status == 201
    page.wait_for_selector("[data-testid=table-waiting][data-seats='2']")
    assert guests[0]["name"] in page.inner_text("[data-testid=table-seats]")
    polls = [a for a in asked if not a[2].split("?")[0].endswith("/stream")]
    assert not polls, f"the taken seat came by the event stream: {polls}"
    assert web.api.seat(guests[1]["key"]).post(f"/api/v1/games/{game_id}/join", {}).status == 201
    page.wait_for_url(lambda url: url.endswith(f"#/game/{game_id}"))


def _rated_game(web: Web, winner: dict[str, Any], loser: dict[str, Any]) -> str:
    """A rated Kupferkessel game between the two, the loser resigning; once it is scored."""
    host = web.api.seat(loser["key"])
    game = host.post(
        "/api/v1/games",
        {"game": "kupferkessel", "seats": [{"player": loser["id"]}, {"open": True}], "rated": True},
    ).body
    assert web.api.seat(winner["key"]).post(f"/api/v1/games/{game['id']}/join", {}).status == 201
    assert host.post(f"/api/v1/games/{game['id']}/resign", {}).status in (200, 201)
    for _ in range(100):
        if web.api.get(f"/api/v1/games/{game['id']}").body["status"] == "finished":
            break
        web.api.get(f"/api/v1/games/{game['id']}/state?wait=1", headers={"If-None-Match": '"0"'})
    return str(game["id"])


#: The rename's 409 (a taken name) in each language, as the page says it.
TAKEN = {
    "en": "Another player has this name already; pick another.",
    "cs": "Toto jméno už má jiný hráč; zvolte jiné.",
    "pl": "To imię ma już inny gracz; wybierz inne.",
}


def test_a_profile_shows_ratings_and_results_and_renames_its_owner(web: Web, new_page: Any) -> None:
    page, me = _player_page(web, new_page)
    rival = web.api.post("/api/v1/players", {"name": f"rival-{uuid4().hex[:8]}"}).body
    game_id = _rated_game(web, rival, me)
    page.reload()
    # From the leaderboard: every player's name there is a link to their profile.
    board = page.locator("[data-testid=leaderboard-kupferkessel]")
    board.wait_for()
    found = _check(page, _axe(), "opponents")
    names = board.locator("a[href^='#/players/']")
    assert names.count() >= 1
    first_name = names.first.inner_text()
    names.first.click()
    page.wait_for_selector("[data-testid=profile-name]")
    assert page.inner_text("[data-testid=profile-name]") == first_name

    page.goto(f"{web.url}/#/players/{rival['id']}")
    page.wait_for_selector(f"[data-testid=recent-{game_id}]")
    assert page.inner_text("[data-testid=profile-name]") == rival["name"]
    assert page.get_attribute(f"[data-testid=recent-{game_id}]", "data-outcome") == "won"
    row = page.inner_text("[data-testid=profile-rating-kupferkessel]")
    public = web.api.get(f"/api/v1/players/{rival['id']}").body
    assert f"{public['ratings'][0]['sigma']:.1f}" in row, "the rating's uncertainty is shown"
    assert "1" in page.inner_text("[data-testid=games-played]")
    assert not page.locator("[data-testid=rename-form]").count(), "another's profile has no rename"
    found += _check(page, _axe(), "profile")
    page.set_viewport_size({"width": 390, "height": 900})
    fits = "el => el.scrollWidth <= el.clientWidth"
    assert page.eval_on_selector(".table-scroll", fits), "the ratings fit a phone's width"
    # From the result to the game, and from its seat's name back to a profile: one's own.
    page.click(f"[data-testid=recent-{game_id}] a")
    page.wait_for_url(lambda url: url.endswith(f"#/game/{game_id}"))
    page.click("[data-testid=seat-player-0]")
    page.wait_for_selector("[data-testid=rename-form]")
    assert page.inner_text("[data-testid=profile-name]") == me["name"]
    found += _check(page, _axe(), "own profile")
    for lang, words in TAKEN.items():
        page.evaluate("code => localStorage.setItem('kotlik.lang', code)", lang)
        page.reload()
        page.fill("[data-testid=rename-name]", rival["name"].upper())  # names differ in more than case
        page.click("[data-testid=rename-go]")
        assert page.inner_text("[data-testid=rename-problem]") == words
        if lang != "en":
            text = page.inner_text("main")
            assert not RAW.findall(text.replace(me["name"], "")), RAW.findall(text)
    found += _check(page, _axe(), "own profile, a refused rename")
    assert not found, "\n".join(found)
    fresh = f"renamed-{uuid4().hex[:8]}"
    page.fill("[data-testid=rename-name]", fresh)
    page.click("[data-testid=rename-go]")
    page.wait_for_selector(f"[data-testid=profile-name]:text-is({fresh!r})")
    assert web.api.seat(me["key"]).get("/api/v1/players/me").body["name"] == fresh
    assert re.search(r"\d", page.inner_text("[data-testid=games-played]"))


def test_refusals_are_said_in_the_readers_words_and_a_cancelled_table_says_so_live(
    web: Web, new_page: Any
) -> None:
    """In Czech: a seat taken by someone else meanwhile (409), a fourth waiting seek (429); the
    player's own table, cancelled, says so through its event stream."""
    creator = web.api.post("/api/v1/players", {"name": f"host-{uuid4().hex[:8]}"}).body
    game = (
        web.api.seat(creator["key"])
        .post("/api/v1/games", {"game": "kupferkessel", "seats": [{"player": creator["id"]}, {"open": True}]})
        .body
    )
    page, made = _player_page(web, new_page)
    page.evaluate("() => localStorage.setItem('kotlik.lang', 'cs')")
    page.reload()
    page.wait_for_selector(f"[data-testid=join-{game['id']}]")
    page.select_option("[data-testid=seek-game]", "kupferkessel")
    assert "Běžný" in page.locator("[data-testid=seek-bot] option").all_inner_texts(), "bot levels by name"
    assert not RAW.findall(page.inner_text("main")), RAW.findall(page.inner_text("main"))
    rival = web.api.post("/api/v1/players", {"name": f"quick-{uuid4().hex[:8]}"}).body
    assert web.api.seat(rival["key"]).post(f"/api/v1/games/{game['id']}/join", {}).status == 201
    page.click(f"[data-testid=join-{game['id']}]")
    said = page.locator(f"[data-testid=open-{game['id']}] [role=alert]")
    assert said.inner_text().startswith("Toto místo už není volné"), said.inner_text()

    page.select_option("[data-testid=seek-game]", "kupferkessel")
    page.fill("[data-testid=seek-clock]", "31h")
    page.click("[data-testid=seek-go]")
    page.wait_for_selector("[data-testid=seek-waiting]")
    assert page.is_disabled("[data-testid=seek-go]"), "one wait at a time from the page"
    page.click("[data-testid=seek-cancel]")
    page.wait_for_selector("[data-testid=seek-status]:text-is('Zrušeno.')")
    for clock in ("32h", "33h", "34h"):  # three waiting from elsewhere (another tab, a bot's script)
        seek = {"game": "kupferkessel", "seats": 2, "clock": {"per_move": clock}}
        assert web.api.seat(made["key"]).post("/api/v1/seeks", seek).body["status"] == "waiting"
    page.click("[data-testid=seek-go]")
    alert = page.locator("[data-testid=seek-status] [role=alert]")
    assert alert.inner_text() == "Už čekají tři vaše hledání: nejdřív jedno zrušte."

    page.click("[data-testid=seek-open]")
    page.wait_for_selector("[data-testid=table-waiting]")
    page.click("[data-testid=table-cancel]")
    page.wait_for_selector("[data-testid=seek-status]:text-is('Zrušeno.')")
