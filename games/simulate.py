"""Playing a game through its rules interface alone, as the platform does but without storage.

Used by the engines' random-game tests, the bots' tournaments and the benchmarks, so every game is
exercised through exactly the calls the platform makes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.interface import Event, Rules, State
from games.rng import Rng


def fold(game: Rules, events: Iterable[Event], state: State = None) -> State:
    """The state after ``events``, starting from ``state`` (``None``: before the first event)."""
    for event in events:
        state = game.evolve(state, event)
    return state


@dataclass
class Match:
    """A game played to its end: the log and the final state."""

    events: list[Event] = field(default_factory=list)
    state: State = None
    commands: int = 0
    #: How many events there were after setup and after each command: the states a client sees.
    settled: list[int] = field(default_factory=list)


def play(
    game: Rules,
    bots: Sequence[str],
    seed: bytes,
    options: Mapping[str, Any] | None = None,
    max_commands: int = 100_000,
) -> Match:
    """Play one seeded game with the named bot at each seat; every command goes through ``decide``.

    The rng labels match the platform's: ``setup``, ``v<version>`` for a command decided at that
    version, ``bot:v<version>`` for a bot's choice.
    """
    match = Match()
    for event in game.setup(dict(options or {}), len(bots), Rng(seed, "setup")):
        match.events.append(event)
        match.state = game.evolve(match.state, event)
    match.settled.append(len(match.events))
    while not game.is_over(match.state):
        if match.commands >= max_commands:
            raise RuntimeError(f"no end after {max_commands} commands")
        seat = game.to_move(match.state)[0]
        version = len(match.events)
        actions = game.legal_actions(match.state, seat)
        if not actions:
            raise RuntimeError(f"seat {seat} to move with no legal action at v{version}")
        view = game.view(match.state, seat)
        command = game.BOTS[bots[seat]](view, actions, Rng(seed, f"bot:v{version}"))
        for event in game.decide(match.state, seat, command, Rng(seed, f"v{version}")):
            match.events.append(event)
            match.state = game.evolve(match.state, event)
        match.commands += 1
        match.settled.append(len(match.events))
    return match
