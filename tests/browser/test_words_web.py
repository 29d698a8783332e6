"""Every word in the reader's language (issue 50): after a seeded game of each kind, every page — the
lobby, the opponents page, each "new game" form, each game page mid-game with its rules dialog open,
and each finished game with its score — is read in Czech, Polish and English; the test fails on any
key-shaped string (snake_case, a dotted event type such as ``kotlik.X``, an event's CamelCase name)
in any language, and on any word of :data:`ENGLISH` on a Czech or Polish page.

What is read is what a person meets: the visible text, and the names and tooltips the page gives
(``aria-label``, ``title``, ``alt``, ``placeholder``); the raw JSON view (folded away under "JSON",
deliberately raw) and the player names the test chose are left out.
"""

from __future__ import annotations

import re
from typing import Any

from browserui import MIDGAME, invite, midgame

LANGS = ("cs", "pl", "en")

#: English words that never belong on a Czech or Polish page: the words the client once leaked
#: (log lines, reasons, headers, controls) and the common words any English sentence carries.
ENGLISH = (
    "the",
    "and",
    "your",
    "you",
    "took",
    "moved",
    "played",
    "gains",
    "against",
    "fewer",
    "round",
    "seat",
    "turn",
    "score",
    "points",
    "player",
    "players",
    "waiting",
    "rules",
    "close",
    "now",
    "hand",
    "row",
    "shop",
    "deck",
    "card",
    "cards",
    "level",
    "life",
    "magic",
    "witch",
    "witches",
    "potion",
    "potions",
    "tile",
    "follower",
    "road",
    "city",
    "game",
    "games",
    "move",
    "moves",
    "new",
    "open",
    "watch",
    "play",
    "resign",
    "rematch",
    "replay",
    "event",
    "log",
    "total",
    "winner",
    "won",
    "ones",
    "roads",
    "cities",
    "fields",
    "monastery",
    "notifications",
    "sound",
    "language",
    "loading",
    "error",
    "nothing",
    "choose",
    "pass",
    "end",
    "phase",
    "any",
)
_ENGLISH = re.compile(r"\b(" + "|".join(ENGLISH) + r")\b")

#: A raw key or event type: snake_case, kotlik.X (or any dotted.identifier), or CamelCase.
RAW = re.compile(
    r"\b[a-z]+_[a-z_]+\b|\bkotlik\.\w+|\b[a-z]+\.[a-z][A-Za-z]+\b|\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b"
)

#: Names the test gave (people and bots) and product names: said as they are in every language.
GIVEN = ("Ada", "Ben", "Ostara", "Kotlík", "Kupferkessel", "Carcassonne", "JSON")

#: Everything a reader meets on the page: its text, then the names and tooltips of its elements.
_READ = """() => {
  const raw = document.querySelector("[data-testid=view-json]");
  const parts = [];
  const walk = (node) => {
    if (node === raw) return;
    if (node.nodeType === 3) { parts.push(node.textContent); return; }
    if (node.nodeType !== 1) return;
    const style = getComputedStyle(node);
    if (style.display === "none" || style.visibility === "hidden") return;
    if (node.tagName === "SCRIPT" || node.tagName === "STYLE" || node.tagName === "NOSCRIPT") return;
    if (node.tagName === "DIALOG" && !node.open) return;
    if (node.tagName === "DETAILS" && !node.open) { walk(node.querySelector("summary")); return; }
    if (node.tagName === "OPTION" || node.tagName === "SELECT") {
      for (const o of node.tagName === "SELECT" ? node.options : [node]) parts.push(o.textContent);
      return;
    }
    for (const name of ["aria-label", "title", "alt", "placeholder"]) {
      if (node.getAttribute(name)) parts.push(node.getAttribute(name));
    }
    for (const child of node.childNodes) walk(child);
  };
  walk(document.body);
  parts.push(document.title);
  return parts.join("\\n");
}"""


#: Seat names the server's games carry (other tests' games share the lobby: "Player 1" is a name a
#: person gave, not a word of the page), filled by :func:`_learn_names`.
_NAMES: set[str] = set()


def _learn_names(api: Any) -> None:
    """Every seat name of every game the server lists: what people typed is said as they typed it."""
    page = 1
    while True:
        reply = api.get(f"/api/v1/games?page={page}&page_size=100")
        listed = reply.body if isinstance(reply.body, list) else []
        _NAMES.update(seat["name"] for game in listed for seat in game.get("seats", []) if seat.get("name"))
        if len(listed) < 100:
            return
        page += 1


def _read(page: Any) -> str:
    text = str(page.evaluate(_READ))
    for name in sorted({*GIVEN, *_NAMES}, key=len, reverse=True):
        text = text.replace(name, "·")
    return text


def _findings(page: Any, lang: str, where: str) -> list[str]:
    text = _read(page)
    hits = {f"key-shaped {m.group()!r} in {_around(text, m)!r}" for m in RAW.finditer(text)}
    if lang != "en":
        hits |= {f"English {m.group()!r} in {_around(text, m)!r}" for m in _ENGLISH.finditer(text.lower())}
    return [f"{where} [{lang}]: {hit}" for hit in sorted(hits)]


def _around(text: str, match: re.Match[str]) -> str:
    return text[max(0, match.start() - 25) : match.end() + 25].replace("\n", " / ")


def _each_language(page: Any, where: str, ready: str) -> list[str]:
    found: list[str] = []
    for lang in LANGS:
        page.select_option("[data-testid=lang]", lang)
        page.wait_for_selector(f"html[lang={lang}] {ready}")
        page.wait_for_timeout(150)
        found += _findings(page, lang, where)
    return found


def test_no_page_shows_a_key_or_english_in_czech_or_polish(web: Any, new_page: Any) -> None:
    page = new_page(1280, 900)
    games = {kind: midgame(web.api, kind) for kind in MIDGAME}
    found: list[str] = []

    _learn_names(web.api)
    page.goto(f"{web.url}/")
    page.wait_for_selector("[data-testid=hosted-game]")
    found += _each_language(page, "lobby", "[data-testid=hosted-game]")
    page.goto(f"{web.url}/#/opponents")
    page.wait_for_timeout(300)
    found += _each_language(page, "opponents", "main")
    for kind in MIDGAME:
        page.goto(f"{web.url}/#/new/{kind}")
        page.wait_for_selector("[data-testid=create-form]")
        found += _each_language(page, f"new {kind}", "[data-testid=create-form]")

    for kind, game in games.items():
        page.goto("about:blank")  # a new document: a fragment-only goto raced the form's page now and then
        page.goto(invite(web.url, game, 0))
        page.wait_for_selector("[data-testid=board][data-version]")
        page.wait_for_selector("[data-testid=log] li")
        found += _each_language(page, f"{kind} mid-game", "[data-testid=board][data-version]")
        for lang in LANGS:
            page.select_option("[data-testid=lang]", lang)
            page.wait_for_selector(f"html[lang={lang}] [data-testid=rules-open]")
            page.click("[data-testid=rules-open]")
            page.wait_for_selector("[data-testid=rules-dialog][open] h2")
            found += _findings(page, lang, f"{kind} rules")
            page.keyboard.press("Escape")
            page.wait_for_selector("[data-testid=rules-dialog]:not([open])", state="attached")
        page.select_option("[data-testid=lang]", "en")
        web.api.seat(game["seats"][0]["token"]).post(f"/api/v1/games/{game['id']}/resign", {})
        page.wait_for_selector("[data-testid=score-table]", timeout=30_000)
        found += _each_language(page, f"{kind} finished", "[data-testid=score-table]")
        page.select_option("[data-testid=lang]", "en")

    page.goto(f"{web.url}/")
    page.wait_for_selector("[data-testid=hosted-game]")
    found += _each_language(page, "lobby after the games", "[data-testid=hosted-game]")
    assert not found, "words not in the reader's language:\n" + "\n".join(found)
