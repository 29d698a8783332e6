"""Builders and drivers for the Kupferkessel tests: ``new_game`` (a real setup), ``table`` (a move-phase
state with the cards where a test wants them), ``apply`` (decide and fold one command), ``NoRandom``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import games.kupferkessel as kk
from games.interface import Event
from games.kupferkessel.content import card_order, card_spots, cards
from games.rng import Rng
from games.simulate import fold


class NoRandom(Rng):
    """An rng that fails the test if a decision draws from it: only setup may."""

    def __init__(self) -> None:
        super().__init__(b"", "none")

    def randbelow(self, n: int) -> int:
        raise AssertionError("decide drew a random number")


def new_game(options: dict[str, Any] | None = None, seed: bytes = b"seed") -> Any:
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
    state = dict(new_game(extra.pop("options", None)))
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


def card(card_id: str) -> dict[str, Any]:
    return cards()[card_id]
