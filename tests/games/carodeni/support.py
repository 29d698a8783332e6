"""Builders and drivers for the Čarodění tests: ``new_game`` (a real setup), ``apply`` (decide and fold
one command), and edits that put cards and ingredients where an example needs them."""

from __future__ import annotations

from typing import Any

from games import carodeni as game
from games.carodeni import content
from games.carodeni.state import clone
from games.rng import Rng

SEED = b"carodeni-tests"


def new_game(seats: int = 2, **options: Any) -> dict[str, Any]:
    state = None
    for event in game.setup(options, seats, Rng(SEED, "setup")):
        state = game.evolve(state, event)
    assert state is not None
    return state


def apply(
    state: dict[str, Any], seat: int, command: dict[str, Any], label: str = "t"
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``decide`` then fold, as the platform does; returns the new state and the events."""
    events = game.decide(state, seat, command, Rng(SEED, label))
    for event in events:
        state = game.evolve(state, event)
    return state, events


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def edit(state: dict[str, Any]) -> dict[str, Any]:
    return clone(state)


def set_board(
    s: dict[str, Any],
    location: str,
    ingredients: list[str | None] | None = None,
    potion: str | None = "keep",
    witch: str | None = "keep",
) -> None:
    """Lay cards and ingredients at a location, taking them out of decks and the bag."""
    b = s["board"][content.LOCATIONS.index(location)]
    if ingredients is not None:
        for k in b["ingredients"]:
            if k is not None:
                s["bag"][k] += 1
        for k in ingredients:
            if k is not None:
                s["bag"][k] -= 1
        b["ingredients"] = list(ingredients)
    for item, card in (("potion", potion), ("witch", witch)):
        if card == "keep":
            continue
        deck = s[f"{item}_deck"]
        if b[item] is not None:
            deck.append(b[item])
        if card is not None and card in deck:
            deck.remove(card)
        b[item] = card


def give(s: dict[str, Any], seat: int, **kinds: int) -> None:
    """Ingredients from the bag to a seat."""
    for k, n in kinds.items():
        s["bag"][k] -= n
        s["players"][seat]["ingredients"][k] += n


def stack_deck(s: dict[str, Any], item: str, cards: list[str]) -> None:
    """Put ``cards`` on top of the witch or potion deck (removing them wherever they are)."""
    deck = [c for c in s[f"{item}_deck"] if c not in cards]
    s[f"{item}_deck"] = list(cards) + deck


def stack_bag(s: dict[str, Any], kinds: list[str]) -> None:
    s["bag_plan"] = list(kinds)


def only_player_lists(s: dict[str, Any], seat: int, **lists: list[str]) -> None:
    for name, cards in lists.items():
        s["players"][seat][name] = list(cards)
