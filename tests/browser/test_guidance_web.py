"""What a player is told (issue 50): every game page says in words what to do now, from the legal
moves the seat has (Carcassonne in its board's own hint), in the reader's language; each game's
rules in brief are one click (or Tab and Enter) away, in a dialog axe-core passes; a problem the
API answers is said in the registry's words for the reader's language (/problems/index.json).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from browserui import MIDGAME, invite, midgame
from test_legible_web import _axe, _serious

SEEDS = Path(__file__).resolve().parents[2] / "seeds"

#: How the line starts on the turn of the reader's seat, by language.
NOW = {"en": "Now:", "cs": "Teď:", "pl": "Teraz:"}


def _mover(web: Any, game: dict[str, Any]) -> int:
    """The person's seat to move, once the bots have answered."""
    deadline = time.monotonic() + 20
    while True:
        to_move = web.api.get(f"/api/v1/games/{game['id']}").body["to_move"]
        people = [s for s in to_move if game["seats"][s].get("token")]
        if people:
            return int(people[0])
        assert time.monotonic() < deadline, f"no person to move in {game['id']}: {to_move}"
        time.sleep(0.1)


def _said(page: Any, expected: str) -> str:
    """The "what to do now" line once it shows and says ``expected`` (a redraw may come first)."""
    page.wait_for_function(
        "w => { const el = document.querySelector('[data-testid=now]');"
        " return el && !el.hidden && el.textContent.includes(w); }",
        arg=expected,
    )
    return str(page.inner_text("[data-testid=now]"))


def test_every_game_says_what_to_do_now_in_the_readers_language(web: Any, new_page: Any) -> None:
    for kind in MIDGAME:
        game = midgame(web.api, kind)
        seat = _mover(web, game)
        page = new_page(1280, 900)
        page.goto(invite(web.url, game, seat))
        page.wait_for_selector("[data-testid=board][data-version]")
        for lang in ("en", "cs", "pl"):
            page.select_option("[data-testid=lang]", lang)
            page.wait_for_selector(f"html[lang={lang}] [data-testid=board][data-version]")
            if kind == "carcassonne":  # the board's hint says it, the page adds no second line
                assert page.locator("[data-testid=now]").is_hidden()
                assert page.inner_text("[data-testid=carcassonne-hint]").strip(), lang
                continue
            said = _said(page, NOW[lang])
            assert said.startswith(NOW[lang]) and len(said) > len(NOW[lang]) + 5, (kind, lang, said)
        # the seat that waits is told who moves, not what to do
        other = next((s["seat"] for s in game["seats"] if s["seat"] != seat and s.get("token")), None)
        if kind != "carcassonne" and other is not None:
            waiting = new_page(1280, 900)
            waiting.goto(invite(web.url, game, other))
            said = _said(waiting, game["seats"][seat]["name"])
            assert not said.startswith("Now:") and game["seats"][seat]["name"] in said, said


def test_the_rules_open_by_keyboard_in_an_accessible_dialog(web: Any, new_page: Any) -> None:
    axe = _axe()
    found: list[str] = []
    for kind in MIDGAME:
        game = midgame(web.api, kind)
        page = new_page(390, 800)
        page.goto(invite(web.url, game, 0))
        page.wait_for_selector("[data-testid=board][data-version]")
        for lang in ("en", "cs", "pl"):
            page.select_option("[data-testid=lang]", lang)
            page.wait_for_selector(f"html[lang={lang}] [data-testid=rules-open]")
            page.focus("[data-testid=lang]")
            for _ in range(40):  # Tab from the header's language switch to the "Rules" button
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.dataset.testid") == "rules-open":
                    break
            else:
                raise AssertionError(f"{kind}: Tab never reached the rules button")
            page.keyboard.press("Enter")
            page.wait_for_selector("[data-testid=rules-dialog][open]")
            title = (SEEDS / kind / f"rules.{lang}.md").read_text(encoding="utf-8").splitlines()[0][2:]
            assert page.inner_text("[data-testid=rules-dialog][open] h2") == title
            assert page.locator("[data-testid=rules-dialog][open] li").count() >= 5
            inside = page.evaluate("document.activeElement.closest('dialog') !== null")
            assert inside, "the focus left the dialog"
            found += _serious(page, axe, f"{kind} rules {lang}")
            page.keyboard.press("Escape")
            page.wait_for_selector("[data-testid=rules-dialog]:not([open])", state="attached")
            assert page.evaluate("document.activeElement.dataset.testid") == "rules-open"
    assert not found, "\n".join(found)
    missing = web.api.get("/rules/kupferkessel/de.md")
    assert missing.status == 404 and web.api.get("/rules/nosuchgame/en.md").status == 404


def test_a_problem_is_said_in_the_registrys_words(web: Any, browser: Any) -> None:
    """(A page of its own: the shell logs the refused page to the console, which ``new_page`` fails.)"""
    words = web.api.get("/problems/index.json").body["game-not-found"]["say"]
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{web.url}/")
    page.wait_for_selector("[data-testid=lang]")
    for lang in ("cs", "pl"):
        page.select_option("[data-testid=lang]", lang)
        page.goto(f"{web.url}/#/game/00000000-0000-0000-0000-000000000000")
        page.wait_for_selector("[role=alert]")
        assert words[lang] in page.inner_text("[role=alert]"), (lang, page.inner_text("main"))
    context.close()
