"""Tally after a rule change: every pip now counts double (rules version 2).

Stored games keep the rules they started with: version 1 is kept verbatim in ``v1.py`` and
``games.load("tally", 1)`` returns it, so their folds, decisions and scores do not change.
"""

from __future__ import annotations

from typing import Any

from games.tally.v1 import (
    ROUNDS,
    SCHEMAS,
    catalog,
    check_seats,
    is_over,
    legal_actions,
    recall,
    redact,
    redact_command,
    score,
    setup,
    to_move,
    view,
)

from games.interface import Command, Event, GameInfo, IllegalMove, NotYourTurn
from games.rng import Rng

INFO = GameInfo(id="tally", name="Tally (test only)", min_seats=2, max_seats=2, rules_version=2)


def decide(state: Any, seat: int, command: Command, rng: Rng) -> list[Event]:
    if seat not in to_move(state):
        raise NotYourTurn("it is the other seat's turn")
    if command.get("type") != "roll":
        raise IllegalMove("the only command is roll")
    return [{"type": "Rolled", "seat": seat, "pips": 1 + rng.randbelow(6), "double": True}]


def evolve(state: Any, event: Event) -> Any:
    if event["type"] == "TallyStarted":
        return {"totals": [0] * event["seats"], "turn": event["start"], "rolls": 0}
    totals = list(state["totals"])
    totals[event["seat"]] += 2 * event["pips"]
    return {"totals": totals, "turn": 1 - state["turn"], "rolls": state["rolls"] + 1}


def _first(view: Any, actions: list[Command], rng: Rng) -> Command:
    return actions[0]


BOTS = {"default": _first, "random": _first}
__all__ = [
    "INFO",
    "ROUNDS",
    "BOTS",
    "catalog",
    "decide",
    "evolve",
    "is_over",
    "legal_actions",
    "recall",
    "redact",
    "redact_command",
    "SCHEMAS",
    "check_seats",
    "score",
    "setup",
    "to_move",
    "view",
]
