"""The game's components, read once from ``seeds/carodeni/`` (see its README for what is reconstructed)."""

from __future__ import annotations

from functools import cache
from typing import Any

from games.content import load_content
from games.interface import GameInfo

INFO = GameInfo(
    id="carodeni",
    name="Čarodění",
    min_seats=2,
    max_seats=5,
    rules_version=1,
    names={"cs": "Čarodění", "pl": "Wiedźmy", "en": "Witchdom"},
)
GAME = INFO.id
#: The board's locations, top to bottom; collecting always walks them in this order.
LOCATIONS: tuple[str, ...] = ("mountains", "forest", "lake")
COLOURS: tuple[str, ...] = ("red", "blue", "green", "gold")
PALE = "pale"
#: Every requirement that a pair of identical ingredients may replace.
ANY_TOOL = "any"


def _content(name: str) -> Any:
    return load_content(GAME, name)


@cache
def kinds() -> tuple[str, ...]:
    """The five ingredient kinds, in the order used for every tie-break "from the left"."""
    return tuple(i["id"] for i in _content("ingredients"))


@cache
def tools() -> tuple[str, ...]:
    return tuple(t["id"] for t in _content("tools"))


@cache
def animals() -> tuple[str, ...]:
    return tuple(a["id"] for a in _content("animals"))


@cache
def animal_price() -> dict[str, str]:
    """Each animal is paid with one ingredient kind (the rulebook's snake costs herbs)."""
    return {a["id"]: a["price"] for a in _content("animals")}


@cache
def ingredient_counts() -> dict[str, int]:
    return {i["id"]: i["count"] for i in _content("ingredients")}


@cache
def tracks() -> dict[str, Any]:
    return dict(_content("tracks"))


@cache
def witches() -> dict[str, dict[str, Any]]:
    return {w["id"]: w for w in _content("witches")}


@cache
def potions() -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in _content("potions")}


@cache
def starting_potions() -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in _content("starting_potions")}


@cache
def novices() -> dict[str, dict[str, Any]]:
    return {n["id"]: n for n in _content("novices")}


@cache
def goals() -> dict[str, dict[str, Any]]:
    return {g["id"]: g for g in _content("goals")}


@cache
def ostara_tokens() -> dict[str, dict[str, Any]]:
    return {t["id"]: t for t in _content("ostara_tokens")}


@cache
def witch_card(card: str) -> dict[str, Any]:
    """A witch or a novice (novices have no colour, points or animal and never brew)."""
    if card in witches():
        return witches()[card]
    return novices()[card]


def potion_card(card: str) -> dict[str, Any]:
    """A potion card or a starting potion."""
    found = potions().get(card)
    return found if found is not None else starting_potions()[card]


def is_novice(card: str) -> bool:
    return card in novices()


def banners(card: str) -> tuple[str, ...]:
    """The colours a witch can brew: her main and, on some, a secondary banner; none for novices."""
    if is_novice(card):
        return ()
    w = witches()[card]
    return (w["colour"],) if w["secondary"] is None else (w["colour"], w["secondary"])


def requirements(potion: str) -> list[str]:
    """What a potion asks for, in payment order: its ingredients, then its tool (if any)."""
    p = potion_card(potion)
    reqs = list(p["ingredients"])
    if p.get("tool"):
        reqs.append(p["tool"])
    return reqs


def catalog() -> dict[str, Any]:
    """Every component with its ``names`` in cs/pl/en, for ``GET /catalog/carodeni``."""
    return {
        "game": INFO.id,
        "names": dict(INFO.names),
        "colours": _content("names")["colours"],
        "locations": _content("names")["locations"],
        "ingredients": _content("ingredients"),
        "tools": _content("tools"),
        "animals": _content("animals"),
        "tracks": _content("tracks"),
        "witches": _content("witches"),
        "potions": _content("potions"),
        "starting_potions": _content("starting_potions"),
        "novices": _content("novices"),
        "goals": _content("goals"),
        "ostara_tokens": _content("ostara_tokens"),
    }
