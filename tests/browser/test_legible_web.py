"""Every page legible to everyone (issue 50): axe-core finds no serious or critical violation on the
lobby, the "new game" forms and each game's page mid-game and finished, at 1280 and 390 px; no text
is under 11 px; every page has an h1; and the words on a game page in Czech and Polish carry no raw
key, event type or English phrase from the list below.

axe-core ships inside the PyPI package ``axe-playwright-python`` (its ``axe.min.js``), injected by
Playwright: nothing is fetched from a CDN.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browserui import create, invite
from httpclient import Client

#: The widths every page is checked at: a desktop and a phone.
WIDTHS = (1280, 390)

#: Four games mid-way: seats, options, and how many of the first legal moves are made first.
GAMES: dict[str, tuple[list[dict[str, Any]], dict[str, Any], int]] = {
    "kupferkessel": ([{"name": "Ada"}, {"name": "Ben"}], {}, 12),
    "skodakouzla": ([{"name": "Ada"}, {"name": "Ben"}], {}, 10),
    "carcassonne": ([{"name": "Ada"}, {"name": "Ben"}], {}, 8),
    "carodeni": ([{"name": "Ada"}, {"name": "Ostara", "bot": "ostara"}], {"solo": True}, 10),
}

#: What never belongs in the words of a Czech or Polish page (the English the client once leaked).
ENGLISH = (" took ", " moved", "fewer ", " against ", "Round ", " seat ", "the turn", " played ", " gains ")
#: A raw key or event type: snake_case, kotlik.X, or an event's CamelCase name.
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|kotlik\.|\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b")


def _axe() -> Any:
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        pytest.fail("the legibility test needs axe-core: pip install -e '.[dev]' (axe-playwright-python)")
    return Axe()


def _serious(page: Any, axe: Any, where: str) -> list[str]:
    """The serious and critical violations on the page now, one line each."""
    results = axe.run(page).response
    return [
        f"{where}: {v['id']} ({v['impact']}) on {[n['target'] for n in v['nodes']][:3]}"
        for v in results["violations"]
        if v["impact"] in ("serious", "critical")
    ]


#: The smallest text shown (HTML text; an SVG's text scales with its picture): its size and where.
_SMALLEST = """() => {
  let least = [99, ""];
  for (const el of document.querySelectorAll("body *:not(svg *)")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    const what = `${el.className || el.tagName}: ${el.textContent.trim().slice(0, 20)}`;
    if (size < least[0]) least = [size, what];
  }
  return least;
}"""


def _check(page: Any, axe: Any, where: str) -> list[str]:
    found = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(50)
        assert page.locator("h1").count() >= 1, f"{where} at {width} px has no h1"
        found += _serious(page, axe, f"{where} @{width}")
        size, what = page.evaluate(_SMALLEST)
        if size < 11:
            found.append(f"{where} @{width}: text of {size} px ({what})")
    return found


def _advance(api: Client, game: dict[str, Any], moves: int) -> None:
    """The first legal move of whichever human seat is to move, ``moves`` times (bots answer)."""
    for _ in range(moves):
        summary = api.get(f"/api/v1/games/{game['id']}").body
        humans = [s for s in summary["to_move"] if game["seats"][s].get("token")]
        if summary["status"] != "active" or not humans:
            return
        mover = api.seat(game["seats"][humans[0]]["token"])
        actions = mover.get(f"/api/v1/games/{game['id']}/actions").body
        if actions:
            mover.post(f"/api/v1/games/{game['id']}/commands", actions[0])


def _words(page: Any, where: str) -> list[str]:
    text = page.inner_text("main")
    bad = [f"{where}: raw {m!r}" for m in RAW.findall(text)]
    return bad + [f"{where}: English {e!r}" for e in ENGLISH if e in text]


def test_every_page_passes_axe_and_speaks_the_readers_language(web: Any, new_page: Any) -> None:
    axe = _axe()
    page = new_page(1280, 900)
    found: list[str] = []
    page.goto(f"{web.url}/")
    page.wait_for_selector("[data-testid=hosted-game]")
    found += _check(page, axe, "lobby")
    for game in ("kupferkessel", "carodeni"):
        page.goto(f"{web.url}/#/new/{game}")
        page.wait_for_selector("[data-testid=create-form]")
        found += _check(page, axe, f"new {game}")

    words: list[str] = []
    for kind, (seats, options, moves) in GAMES.items():
        game = create(web.api, kind, seats, options)
        _advance(web.api, game, moves)
        page.goto(invite(web.url, game, 0))
        page.wait_for_selector("[data-testid=board][data-version]")
        page.wait_for_selector("[data-testid=log] li")
        found += _check(page, axe, f"{kind} mid-game")
        for lang in ("cs", "pl"):
            page.select_option("[data-testid=lang]", lang)
            page.wait_for_selector(f"html[lang={lang}] [data-testid=board][data-version]")
            page.wait_for_timeout(100)
            words += _words(page, f"{kind} {lang}")
        page.select_option("[data-testid=lang]", "en")
        web.api.seat(game["seats"][0]["token"]).post(f"/api/v1/games/{game['id']}/resign", {})
        page.wait_for_selector("[data-testid=score-table]", timeout=30_000)
        found += _check(page, axe, f"{kind} finished")
        page.select_option("[data-testid=lang]", "cs")
        page.wait_for_selector("html[lang=cs] [data-testid=score-table]")
        words += _words(page, f"{kind} finished cs")
        page.select_option("[data-testid=lang]", "en")
    assert not found, "serious or critical axe-core violations, or text under 11 px:\n" + "\n".join(found)
    assert not words, "words not in the reader's language:\n" + "\n".join(words)


#: The page's own background, to tell that the dark mode is on: the relative luminance (0–1).
_BACKGROUND = """() => {
  const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}"""


def test_the_dark_mode_passes_axe_too(web: Any, new_page: Any) -> None:
    """With the system in dark mode (``prefers-color-scheme: dark``) the page turns dark, and the lobby
    and each game mid-game (its rules dialog open too) keep contrast AA at 1280 and 390 px."""
    from browserui import MIDGAME, midgame

    axe = _axe()
    page = new_page(1280, 900, color_scheme="dark")
    found: list[str] = []
    page.goto(f"{web.url}/")
    page.wait_for_selector("[data-testid=hosted-game]")
    assert page.evaluate(_BACKGROUND) < 0.05, "the lobby did not turn dark"
    found += _check(page, axe, "dark lobby")
    for kind in MIDGAME:
        game = midgame(web.api, kind)
        page.goto(invite(web.url, game, 0))
        page.wait_for_selector("[data-testid=board][data-version]")
        page.wait_for_selector("[data-testid=log] li")
        assert page.evaluate(_BACKGROUND) < 0.05, f"{kind}: the page did not turn dark"
        found += _check(page, axe, f"dark {kind} mid-game")
        page.click("[data-testid=rules-open]")
        page.wait_for_selector("[data-testid=rules-dialog][open]")
        found += _serious(page, axe, f"dark {kind} rules")
        page.keyboard.press("Escape")
    assert not found, "serious or critical axe-core violations in the dark mode:\n" + "\n".join(found)
