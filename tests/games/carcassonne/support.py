"""Builders and drivers for the Carcassonne tests: ``new_game`` (an arranged tile pack), ``apply``
(decide and fold one command), ``turn`` (a whole turn), and lookups of features and scores."""

from __future__ import annotations

from typing import Any

import games.carcassonne as game
from games.interface import Command, Event
from games.rng import Rng

SEED = b"carcassonne-tests"


def new_game(arranged: list[str], seats: int = 2, mage_witch: bool = True) -> dict[str, Any]:
    state: Any = None
    for e in game.setup({"arranged": arranged, "mage_witch": mage_witch}, seats, Rng(SEED, "setup")):
        state = game.evolve(state, e)
    return state


def apply(state: dict[str, Any], seat: int, command: Command) -> tuple[dict[str, Any], list[Event]]:
    """Decide and fold ``command`` for ``seat`` (the seat to move); it must be listed by ``legal_actions``."""
    assert command in game.legal_actions(state, seat), (command, state["phase"])
    events = game.decide(state, seat, command, Rng(SEED, f"v{len(state['tiles'])}-{state['phase']}"))
    for e in events:
        state = game.evolve(state, e)
    return state, events


def turn(
    state: dict[str, Any],
    x: int,
    y: int,
    rotation: int,
    follower: int | None = None,
    magic: tuple[str, int, int, int] | str | None = None,
) -> tuple[dict[str, Any], list[Event]]:
    """One whole turn: the tile, the magic figure if asked for (``(figure, x, y, feature)`` or a
    figure name to remove), then a follower on feature ``follower`` or a pass."""
    events: list[Event] = []
    state, ev = apply(state, state["turn"], {"type": "place_tile", "x": x, "y": y, "rotation": rotation})
    events += ev
    if magic is not None:
        if isinstance(magic, str):
            cmd: Command = {"type": "remove_magic", "figure": magic}
        else:
            fig, mx, my, mf = magic
            cmd = {"type": "place_magic", "figure": fig, "x": mx, "y": my, "feature": mf}
        state, ev = apply(state, state["turn"], cmd)
        events += ev
    assert state["phase"] == "follower", state["phase"]
    cmd = {"type": "pass"} if follower is None else {"type": "place_follower", "feature": follower}
    state, ev = apply(state, state["turn"], cmd)
    return state, events + ev


def seg(state: dict[str, Any], x: int, y: int, feature: int) -> str:
    return f"{state['grid'][f'{x},{y}']}:{feature}"


def fid(state: dict[str, Any], x: int, y: int, feature: int) -> str:
    fid: str = state["owner"][seg(state, x, y, feature)]
    return fid


def scored(events: list[Event]) -> list[Event]:
    return [e for e in events if e["type"] == "FeatureScored"]


def total(state: dict[str, Any], seat: int) -> int:
    return sum(state["scores"][seat].values())
