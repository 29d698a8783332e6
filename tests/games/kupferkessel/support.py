"""Building Kupferkessel tables for tests: a real setup, then the cards where a test wants them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import games.kupferkessel as kk
from games.interface import Event
from games.kupferkessel.content import card_order, card_spots, cards
from games.rng import Rng
from games.simulate import fold

ALL_CARDS = frozenset(card_order())


class NoRandom(Rng):
    """An rng that fails the test if a decision draws from it: only setup may."""

    def __init__(self) -> None:
        super().__init__(b"", "none")

    def randbelow(self, n: int) -> int:
        raise AssertionError("decide drew a random number")


def started(options: dict[str, Any] | None = None, seed: bytes = b"seed") -> Any:
    """The state right after setup."""
    return fold(kk, kk.setup(options or {}, 2, Rng(seed, "setup")))


def table(
    grid: Mapping[int, str | None] | None = None,
    cauldrons: tuple[list[str], list[str]] = (["grey-roots-3"], ["blue-moss-2"]),
    pawns: tuple[int, int] = (0, 10),
    deck: list[str] | None = None,
    turn: int = 0,
    **extra: Any,
) -> dict[str, Any]:
    """A state in the move phase with exactly these cards: ``grid`` overrides spots of a full square
    laid from the unused cards, in reading order; the rest of the unused cards form the deck unless
    ``deck`` is given (and then the remainder is out of the game)."""
    state = dict(started(extra.pop("options", None)))
    used = {c for c in (grid or {}).values() if c} | {c for cauldron in cauldrons for c in cauldron}
    used |= set(deck or []) | ({extra["pending"]} if extra.get("pending") else set())
    free = [c for c in card_order() if c not in used]
    squares: list[str | None] = [None] * 36
    for spot in card_spots():
        if grid is not None and spot in grid:
            squares[spot] = grid[spot]
        else:
            squares[spot] = free.pop(0)
    state.update(
        grid=squares,
        cauldrons=[list(c) for c in cauldrons],
        pawns=list(pawns),
        deck=list(free) if deck is None else list(deck),
        removed=[] if deck is None else list(free),
        turn=turn,
        phase="move",
        extra=False,
        pending=None,
        spot=None,
        set_aside=[],
        ended_by=None,
    )
    state.update(extra)
    return state


def spot(row: int, col: int) -> int:
    return row * 6 + col


def apply(state: Any, seat: int, command: dict[str, Any]) -> tuple[Any, list[Event]]:
    """Decide and fold one command; checks it was listed as legal."""
    assert command in kk.legal_actions(state, seat), (command, kk.legal_actions(state, seat))
    events = kk.decide(state, seat, command, NoRandom())
    return fold(kk, events, state), events


def all_cards_of(state: Any) -> list[str]:
    """Every card wherever it is: the square, the cauldrons, the deck, set aside, out of the game,
    and the last card awaiting the end decision."""
    out = [c for c in state["grid"] if c]
    for cauldron in state["cauldrons"]:
        out += cauldron
    out += state["deck"] + state["set_aside"] + state["removed"]
    if state["phase"] == "end" and state["pending"] is not None:
        out.append(state["pending"])
    return out


def hidden_from_table(state: Any) -> set[str]:
    """Cards no one may see during play: below a cauldron's top, in the deck, out of the game."""
    hidden = set(state["deck"]) | set(state["removed"])
    for cauldron in state["cauldrons"]:
        hidden |= set(cauldron[:-1])
    return hidden


def leaked(data: Any, secret: set[str]) -> set[str]:
    """The ids of ``secret`` that appear as strings anywhere in ``data``."""
    text = json.dumps(data)
    return {s for s in secret if f'"{s}"' in text}


def card(card_id: str) -> dict[str, Any]:
    return cards()[card_id]
