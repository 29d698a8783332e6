"""The cards, wizards and level card of Škoda kouzla, read once from ``seeds/skodakouzla/``.

Cards are data: their behaviour is the effect list the effect engine (:mod:`.effects`)
interprets, never a class per card.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.content import load_content
from games.interface import GameInfo

INFO = GameInfo(
    id="skodakouzla",
    name="Škoda kouzla",
    min_seats=2,
    max_seats=2,
    rules_version=1,
    names={"cs": "Škoda kouzla", "pl": "Szkoda zaklęć", "en": "A Waste of Spells"},
)
GAME = INFO.id
#: The four colours of magic that can be mastered; neutral (grey) cards never count.
COLOURS = ("fire", "ice", "forest", "dark")
ALL_COLOURS = (*COLOURS, "neutral")
TYPES = ("spell", "creature", "defence")
ATTACK_KINDS = ("basic", "targeted", "two", "area")

Card = dict[str, Any]


@cache
def cards() -> dict[str, Card]:
    """Every card by id, starter and shop alike."""
    data = load_content(GAME, "cards")
    out: dict[str, Card] = {}
    for card in data["starter"]:
        out[card["id"]] = {**card, "set": "starter"}
    for card in data["shop"]:
        out[card["id"]] = {**card, "set": "shop"}
    return out


def card(card_id: str) -> Card:
    return cards()[card_id]


@cache
def starter_deck() -> tuple[str, ...]:
    """The 13 starter cards (black star), one of each, in the rulebook's order."""
    return tuple(c["id"] for c in load_content(GAME, "cards")["starter"])


@cache
def shop_cards() -> tuple[str, ...]:
    """The 67 shop cards, one id per physical card."""
    out: list[str] = []
    for c in load_content(GAME, "cards")["shop"]:
        out.extend([c["id"]] * c["copies"])
    return tuple(out)


@cache
def levels() -> dict[int, dict[str, Any]]:
    """The level card: life and the curse table per level."""
    return {int(k): v for k, v in load_content(GAME, "levels").items()}


@cache
def wizards() -> list[dict[str, Any]]:
    return list(load_content(GAME, "wizards"))


def curse_loss(level: int, curses: int) -> int:
    """Lives lost at the curse check: the highest threshold of the level card reached."""
    lose = 0
    for row in levels()[level]["curses"]:
        if curses >= row["from"]:
            lose = row["lose"]
    return lose


def is_attack_spell(c: Card) -> bool:
    """A spell with the sword symbol: any attack among its effects."""
    return c["type"] == "spell" and any(e["do"] == "attack" for e in c.get("effects", ()))


def choice_effect(effects: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The one effect of a list that needs the player's choice (a direction or a target)."""
    for e in effects:
        if e["do"] == "attack" and e["kind"] != "area":
            return e
        if e["do"] in ("heal", "add_life") and e.get("target") == "choice":
            return e
    return None


def catalog() -> dict[str, Any]:
    """Every card, wizard and the level card, each with ``names`` in cs/pl/en."""
    return {
        "game": INFO.id,
        "names": dict(INFO.names),
        "cards": list(cards().values()),
        "wizards": wizards(),
        "levels": {str(k): v for k, v in levels().items()},
    }
