"""Tally, a test-only game: each seat rolls a die on its turn; the higher total wins.

Not a real game (``tests/platform/test_rules_versions.py`` puts it on ``games.__path__``): it
stands for any game whose rules change after games were stored under the old ones. This is
rules version 1, as shipped before the change; ``after/tally/v1.py`` keeps it verbatim.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.interface import Command, Event, GameInfo, IllegalMove, NotYourTurn
from games.rng import Rng

INFO = GameInfo(id="tally", name="Tally (test only)", min_seats=2, max_seats=2, rules_version=1)
ROUNDS = 3


def setup(options: Mapping[str, Any], seats: int, rng: Rng) -> list[Event]:
    return [
        {
            "type": "TallyStarted",
            "seats": seats,
            "options": options,
            "arranged": False,
            "start": rng.randbelow(2),
        }
    ]


def decide(state: Any, seat: int, command: Command, rng: Rng) -> list[Event]:
    if seat not in to_move(state):
        raise NotYourTurn("it is the other seat's turn")
    if command.get("type") != "roll":
        raise IllegalMove("the only command is roll")
    return [{"type": "Rolled", "seat": seat, "pips": 1 + rng.randbelow(6)}]


def evolve(state: Any, event: Event) -> Any:
    if event["type"] == "TallyStarted":
        return {"totals": [0] * event["seats"], "turn": event["start"], "rolls": 0}
    totals = list(state["totals"])
    totals[event["seat"]] += event["pips"]
    return {"totals": totals, "turn": 1 - state["turn"], "rolls": state["rolls"] + 1}


def legal_actions(state: Any, seat: int) -> list[Command]:
    return [{"type": "roll"}] if seat in to_move(state) else []


def view(state: Any, seat: int | None) -> dict[str, Any]:
    return dict(state)


def redact(state: Any, event: Event, seat: int | None) -> Event:
    return event


def to_move(state: Any) -> list[int]:
    return [] if is_over(state) else [state["turn"]]


def is_over(state: Any) -> bool:
    return bool(state["rolls"] >= ROUNDS * len(state["totals"]))


def score(state: Any) -> dict[str, Any]:
    totals = state["totals"]
    seats = [{"seat": i, "total": t, "breakdown": {"pips": t}} for i, t in enumerate(totals)]
    return {"seats": seats, "winners": [i for i, t in enumerate(totals) if t == max(totals)]}


def catalog() -> dict[str, Any]:
    return {}


def _first(view: Any, actions: list[Command], rng: Rng) -> Command:
    return actions[0]


BOTS = {"default": _first, "random": _first}


def recall(now: Any, then: Any, seat: int | None) -> dict[str, Any]:
    return view(then, seat)


#: The interface's optional parts (``games.interface.Rules``): Tally has none of them.
SCHEMAS = None
redact_command = None
check_seats = None
