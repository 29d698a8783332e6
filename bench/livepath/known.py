"""Kupferkessel games whose every move the client knows before it plays: the post-only client.

Kupferkessel draws random numbers only in setup, so with the whole deck arranged
(``options.arranged.deck``) a game is fixed by its commands. The client plays it through the rules
engine first, outside any timed window, and then needs nothing from the server but the POSTs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import games
from games.kupferkessel.content import card_order
from games.rng import Rng

#: The platform's undo, offered in ``/actions`` beside the rules' moves: the load's players and
#: bots only move on.
UNDO = {"type": "undo"}

GAME = "kupferkessel"
_ANY_SEED = bytes(32)  # nothing is left to shuffle once the whole deck is arranged


@dataclass(frozen=True)
class Move:
    seat: int
    body: dict[str, Any]
    #: The game's version once the server has appended this move's events.
    version: int


@dataclass(frozen=True)
class Script:
    options: dict[str, Any]
    moves: list[Move]


def script(seed: int) -> Script:
    """A whole random game on a deck arranged by ``seed``, as the server will play it."""
    game = games.load(GAME)
    rng = random.Random(seed)
    deck = list(card_order())
    rng.shuffle(deck)
    options = {"arranged": {"deck": deck}}
    state: Any = None
    version = 1  # the platform's GameCreated comes first
    for event in game.setup(options, 2, Rng(_ANY_SEED, "setup")):
        state, version = game.evolve(state, event), version + 1
    moves = []
    while not game.is_over(state):
        seat = game.to_move(state)[0]
        body = rng.choice(game.legal_actions(state, seat))
        for event in game.decide(state, seat, body, Rng(_ANY_SEED, f"v{version}")):
            state, version = game.evolve(state, event), version + 1
        moves.append(Move(seat, body, version))
    return Script(options, moves)


def scripts(count: int, seed: int) -> list[Script]:
    return [script(seed * 100_003 + i) for i in range(count)]
