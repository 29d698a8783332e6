"""Seeded games whose logs must not change: a refactoring of an engine keeps every event byte for byte.

For every game in ``games.known()`` a few games are played by the bots through ``games.simulate``
at fixed seeds (solo Čarodění against Ostara and Carcassonne with and without Mage & Witch among
them), and the sha256 of their canonical JSON is compared with ``event_logs.json``: the events,
the final score, and what the platform reads along the way (each seat's and a spectator's view,
the legal actions of the seat to move, the log as each seat may read it). The same file records
which error a set of bad commands raises in each game (``IllegalMove`` or ``NotYourTurn``), so a
change of answer shows up as a diff of that file.

A rules change that is meant to change a log (with its ``rules_version`` bump) re-records it:
``python -m tests.games.test_event_logs --record`` (or ``KOTLIK_RECORD_EVENT_LOGS=1 pytest
tests/games/test_event_logs.py``), then review the diff of ``tests/games/event_logs.json``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import games
from games.interface import GameError
from games.rng import Rng
from games.simulate import Match, play

RECORDED = Path(__file__).with_name("event_logs.json")
RECORD = os.environ.get("KOTLIK_RECORD_EVENT_LOGS") == "1"
#: Every how many settled states the reads are sampled.
READ_EVERY = 9

#: (bots by seat, options, seed) per game; a game not listed gets :func:`_default_cases`.
CASES: dict[str, dict[str, tuple[list[str], dict[str, Any], str]]] = {
    "kupferkessel": {
        "base, random against default": (["random", "default"], {}, "kk-1"),
        "recipes, counterclockwise": (
            ["default", "default"],
            {"recipes": True, "direction": "counterclockwise"},
            "kk-2",
        ),
        "arranged": (
            ["default", "random"],
            {"arranged": {"deck": ["white-hair-1", "white-newt-eyes-1"], "cauldrons": []}},
            "kk-3",
        ),
    },
    "carodeni": {
        "two seats": (["default", "random"], {}, "cd-1"),
        "four seats, animals": (
            ["default", "random", "default", "default"],
            {"animals": True, "animal_goals": 2},
            "cd-2",
        ),
        "five seats, extra hard goal": (["random"] * 5, {"extra_hard_goal": True}, "cd-3"),
        "solo novice against Ostara": (["default", "ostara"], {"solo": True}, "cd-4"),
        "solo grandmaster with animals": (
            ["random", "ostara"],
            {"solo": True, "difficulty": "grandmaster", "animals": True, "animal_goals": 1},
            "cd-5",
        ),
    },
    "skodakouzla": {
        "standard": (["default", "random"], {}, "sk-1"),
        "masters and the shop top-deck": (
            ["random", "default"],
            {"masters": ["fire", "dark"], "shop_topdeck": True},
            "sk-2",
        ),
        "two colours, other freeze, income 2": (
            ["default", "default"],
            {"two_colours": True, "other_freeze": True, "income": 2},
            "sk-3",
        ),
    },
    "carcassonne": {
        "Mage & Witch, three seats": (["default", "random", "default"], {}, "cc-1"),
        "base game, two seats": (["random", "default"], {"mage_witch": False}, "cc-2"),
        "Mage & Witch, five seats, arranged": (["random"] * 5, {"arranged": ["U.3", "V.1"]}, "cc-3"),
    },
}


def _default_cases(game: ModuleType) -> dict[str, tuple[list[str], dict[str, Any], str]]:
    """A new game gets random bots at its fewest seats until it lists cases of its own."""
    return {"random bots": (["random"] * game.INFO.min_seats, {}, f"{game.INFO.id}-1")}


def cases() -> list[tuple[str, str]]:
    return [(gid, name) for gid in games.known() for name in CASES.get(gid, _default_cases(games.load(gid)))]


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _sha(value: Any) -> str:
    return hashlib.sha256(_canonical(value)).hexdigest()


def _case(gid: str, name: str) -> tuple[ModuleType, list[str], dict[str, Any], bytes]:
    game = games.load(gid)
    bots, options, seed = CASES.get(gid, _default_cases(game))[name]
    return game, bots, options, seed.encode()


def _reads(game: ModuleType, match: Match, seats: int) -> list[Any]:
    """What the platform reads of the game at every ``READ_EVERY``-th settled state and the last."""
    out: list[Any] = []
    points = match.settled[::READ_EVERY] + match.settled[-1:]
    state, folded = None, 0
    for point in points:
        for event in match.events[folded:point]:
            state = game.evolve(state, event)
        folded = point
        log = match.events[:point]
        for seat in [*range(seats), None]:
            out.append(game.view(state, seat))
            out.append([game.redact(state, e, seat) for e in log])
        out.append([game.legal_actions(state, s) for s in game.to_move(state)])
    return out


def record_case(gid: str, name: str) -> dict[str, Any]:
    game, bots, options, seed = _case(gid, name)
    match = play(game, bots, seed, options)
    return {
        "events": len(match.events),
        "log_sha256": _sha(match.events),
        "score_sha256": _sha(game.score(match.state)),
        "reads_sha256": _sha(_reads(game, match, len(bots))),
    }


#: Bad commands and who sends them: ``mover`` (a seat to move) or ``waiting`` (a seat that is not).
PROBES: dict[str, tuple[str, Any]] = {
    "waiting seat, the mover's legal command": ("waiting", "legal"),
    "waiting seat, unknown command type": ("waiting", {"type": "no_such_command"}),
    "waiting seat, legal command with an extra field": ("waiting", "legal+extra"),
    "waiting seat, not an object": ("waiting", ["type"]),
    "waiting seat, no type": ("waiting", {}),
    "mover, unknown command type": ("mover", {"type": "no_such_command"}),
    "mover, legal command with an extra field": ("mover", "legal+extra"),
    "mover, not an object": ("mover", "move"),
    "mover, no type": ("mover", {}),
    "mover, type not a string": ("mover", {"type": 5}),
}


def _answer(game: ModuleType, state: Any, seat: int, command: Any) -> str:
    try:
        game.decide(state, seat, command, Rng(b"probe", "v0"))
    except GameError as refused:
        return type(refused).__name__
    return "accepted"


def _command(probe: Any, legal: dict[str, Any]) -> Any:
    if probe == "legal":
        return dict(legal)
    if probe == "legal+extra":
        return {**legal, "no_such_field": 1}
    return probe


def record_errors(gid: str) -> dict[str, str]:
    """Which error each probe gets at the start of the first case's game, and after its end."""
    game, bots, options, seed = _case(gid, next(iter(CASES.get(gid, _default_cases(games.load(gid))))))
    state = None
    for event in game.setup(dict(options), len(bots), Rng(seed, "setup")):
        state = game.evolve(state, event)
    mover = game.to_move(state)[0]
    waiting = next(s for s in range(len(bots)) if s not in game.to_move(state))
    legal = game.legal_actions(state, mover)[0]
    out = {}
    for label, (who, probe) in PROBES.items():
        out[label] = _answer(game, state, mover if who == "mover" else waiting, _command(probe, legal))
    over = play(game, bots, seed, options).state
    for seat in range(len(bots)):
        out[f"game over, seat {seat}, the first legal command at the start"] = _answer(
            game, over, seat, legal
        )
        out[f"game over, seat {seat}, unknown command type"] = _answer(
            game, over, seat, {"type": "no_such_command"}
        )
    return out


def record() -> dict[str, Any]:
    return {
        "logs": {
            gid: {name: record_case(gid, name) for g, name in cases() if g == gid} for gid in games.known()
        },
        "errors": {gid: record_errors(gid) for gid in games.known()},
    }


def _recorded() -> dict[str, Any]:
    return (
        json.loads(RECORDED.read_text(encoding="utf-8")) if RECORDED.exists() else {"logs": {}, "errors": {}}
    )


def _write(data: dict[str, Any]) -> None:
    RECORDED.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


HOW_TO_RECORD = "python -m tests.games.test_event_logs --record"


@pytest.mark.parametrize("gid, name", cases())
def test_seeded_game_logs_are_unchanged(gid: str, name: str) -> None:
    got = record_case(gid, name)
    if RECORD:
        data = _recorded()
        data["logs"].setdefault(gid, {})[name] = got
        _write(data)
        return
    expected = _recorded()["logs"].get(gid, {}).get(name)
    assert expected is not None, f"no recorded log for {gid} / {name}: run {HOW_TO_RECORD}"
    assert got == expected, f"{gid} / {name} plays differently than recorded"


@pytest.mark.parametrize("gid", games.known())
def test_bad_commands_get_the_recorded_errors(gid: str) -> None:
    got = record_errors(gid)
    if RECORD:
        data = _recorded()
        data["errors"][gid] = got
        _write(data)
        return
    expected = _recorded()["errors"].get(gid)
    assert expected is not None, f"no recorded errors for {gid}: run {HOW_TO_RECORD}"
    assert got == expected


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit(f"usage: {HOW_TO_RECORD}")
    _write(record())
    print(f"recorded {RECORDED}")
