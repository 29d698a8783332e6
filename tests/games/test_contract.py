"""The rules interface, checked the same way for every game the server hosts.

The platform relies on these properties without knowing any game: ``decide`` refuses bad input
only with the game's own errors and never changes the state it is given; ``legal_actions`` lists
only commands ``decide`` accepts; state, views and events survive JSON; bots answer with a legal
command; and the same seed gives the same game. Its state cache relies on two more: no interface
function (nor a bot) changes what it is given, and a state back from a jsonb snapshot reads, decides
and folds on exactly like the one kept in memory.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import random
from types import ModuleType
from typing import Any

import pytest

import games
from games.interface import GameError, InvalidOptions
from games.rng import Rng
from games.simulate import play

EXPORTS = [
    "INFO",
    "setup",
    "decide",
    "evolve",
    "legal_actions",
    "view",
    "redact",
    "recall",
    "to_move",
    "is_over",
    "score",
    "catalog",
    "BOTS",
]


@pytest.fixture(params=games.known())
def game(request: pytest.FixtureRequest) -> ModuleType:
    return games.load(request.param)


def _seats(game: ModuleType) -> list[str]:
    return ["random"] * max(2, game.INFO.min_seats)


def _started(game: ModuleType, seed: bytes) -> Any:
    state = None
    for event in game.setup({}, len(_seats(game)), Rng(seed, "setup")):
        state = game.evolve(state, event)
    return state


def test_exports_the_whole_interface(game: ModuleType) -> None:
    missing = [name for name in EXPORTS if not hasattr(game, name)]
    assert not missing
    assert {"random", "default"} <= set(game.BOTS)
    assert game.INFO.id == game.__name__.split(".")[-1]
    json.dumps(game.catalog())


@pytest.mark.parametrize("options", [{"no-such-option": True}, {"arranged": "not an arrangement"}])
def test_bad_options_are_refused_as_invalid_options(game: ModuleType, options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        game.setup(options, game.INFO.max_seats, Rng(b"seed", "setup"))


def _mutations(command: dict[str, Any], rng: random.Random) -> list[Any]:
    garbage: list[Any] = [None, -1, 10**9, "", "nonsense", [], {}, [None], {"x": 1}, 3.5, True]
    out: list[Any] = [{}, {"type": None}, {"type": 7}, {"type": "no-such-command"}, [command], "take"]
    for key in command:
        out.append({k: v for k, v in command.items() if k != key})
        out.extend({**command, key: rng.choice(garbage)} for _ in range(3))
    out.append({**command, "unexpected": 1})
    return out


def test_decide_refuses_garbage_cleanly_and_never_mutates_state(game: ModuleType) -> None:
    rng = random.Random(5)
    for n in range(3):
        seed = f"contract-{n}".encode()
        match = play(game, _seats(game), seed)
        settled = set(match.settled[::7])
        state = None
        for i, event in enumerate(match.events, start=1):
            state = game.evolve(state, event)
            if i not in settled or game.is_over(state):
                continue
            frozen = copy.deepcopy(state)
            seat = game.to_move(state)[0]
            for legal in game.legal_actions(state, seat)[:3]:
                for command in _mutations(legal, rng):
                    with contextlib.suppress(GameError):
                        game.decide(state, seat, command, Rng(b"x", "v"))
            assert state == frozen, "decide changed the state it was given"


def test_every_listed_action_is_accepted_and_state_survives_json(game: ModuleType) -> None:
    match = play(game, _seats(game), b"contract")
    settled = set(match.settled[::5])
    state = None
    for i, event in enumerate(match.events, start=1):
        state = game.evolve(state, event)
        assert json.loads(json.dumps(state)) == state, f"state after event {i} is not plain JSON"
        for seat in [None, *range(len(_seats(game)))]:
            json.dumps(game.view(state, seat))
            json.dumps(game.redact(state, event, seat))
        if i in settled and not game.is_over(state):
            seat = game.to_move(state)[0]
            for action in game.legal_actions(state, seat):
                assert game.decide(state, seat, action, Rng(b"x", f"v{i}")), action


def test_the_same_seed_plays_the_same_game(game: ModuleType) -> None:
    seats = ["default", "random"] + ["random"] * (max(2, game.INFO.min_seats) - 2)
    first, again = play(game, seats, b"same"), play(game, seats, b"same")
    assert first.events == again.events
    assert play(game, seats, b"other").events != first.events
    totals = game.score(first.state)
    for seat in totals["seats"]:
        assert seat["total"] == sum(seat["breakdown"].values())


def test_no_seat_may_act_out_of_turn(game: ModuleType) -> None:
    state = _started(game, b"turns")
    movers = game.to_move(state)
    for seat in range(len(_seats(game))):
        if seat not in movers:
            assert game.legal_actions(state, seat) == []


# --- purity and snapshots: what the platform's state cache relies on ---------------------------------

#: The option sets worth covering per game: (label, bot per seat, options). A game missing here plays
#: its smallest table without options.
CASES: dict[str, list[tuple[str, list[str], dict[str, Any]]]] = {
    "carcassonne": [
        ("2p", ["default", "random"], {}),
        ("5p", ["random"] * 5, {"mage_witch": True}),
        ("3p base", ["random"] * 3, {"mage_witch": False}),
    ],
    "carodeni": [
        ("solo", ["random", "ostara"], {"solo": True, "difficulty": "grandmaster", "animals": True}),
        ("2p", ["default", "random"], {}),
        ("3p animals", ["random"] * 3, {"animals": True, "animal_goals": 1}),
        (
            "5p animals",
            ["random"] * 4 + ["default"],
            {"animals": True, "animal_goals": 2, "extra_hard_goal": True},
        ),
    ],
    "kupferkessel": [
        ("plain", ["default", "random"], {}),
        ("recipes", ["random", "random"], {"recipes": True, "direction": "counterclockwise"}),
    ],
    "skodakouzla": [
        ("standard", ["default", "random"], {}),
        ("two colours, masters", ["random", "random"], {"two_colours": True, "masters": ["fire", "ice"]}),
        ("topdeck, freeze", ["random", "default"], {"shop_topdeck": True, "other_freeze": True, "income": 2}),
    ],
}
#: Every how many events the parallel fold restarts from a fresh snapshot, as the platform's do.
RESNAPSHOT = 50


def _cases() -> list[Any]:
    out = []
    for game_id in games.known():
        smallest = ["random"] * max(2, games.load(game_id).INFO.min_seats)
        for label, bots, options in CASES.get(game_id, [("default", smallest, {})]):
            out.append(pytest.param(game_id, bots, options, id=f"{game_id}-{label}"))
    return out


def _jsonb(value: Any) -> Any:
    """``value`` as a jsonb column gives it back: through JSON, every object's keys in jsonb's order
    (shorter first, then bytewise), so nothing may hang on the order in which a state was built."""

    def ordered(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        return dict(sorted(pairs, key=lambda kv: (len(kv[0].encode()), kv[0].encode())))

    return json.loads(json.dumps(value), object_pairs_hook=ordered)


class _Pure:
    """Calls into a game on one state, failing as soon as a call changes its input (the state, an
    event, a command). One deep copy per state, compared after every call, names the culprit."""

    def __init__(self, game: ModuleType, state: Any) -> None:
        self.game = game
        self.state = state
        self.frozen = copy.deepcopy(state)

    def __call__(self, name: str, *args: Any) -> Any:
        kept = copy.deepcopy(args)
        result = getattr(self.game, name)(self.state, *args)
        assert self.state == self.frozen, f"{name} changed the state it was given"
        assert args == kept, f"{name} changed its arguments"
        return result

    def decide(self, seat: int, command: Any, rng: Rng) -> list[Any] | GameError:
        kept = copy.deepcopy(command)
        try:
            events: list[Any] = self.game.decide(self.state, seat, command, rng)
            return events
        except GameError as e:
            return e
        finally:
            assert self.state == self.frozen, f"decide changed the state it was given ({command})"
            assert command == kept, "decide changed the command it was given"


def _reads(game: ModuleType, state: Any, event: Any, seats: int, settled: bool, pure: bool) -> dict[str, Any]:
    """Everything the platform reads from a state (each call checked by :class:`_Pure` if ``pure``);
    the legal actions only once a command's events are all in (``?at=`` may show a state between)."""
    call = _Pure(game, state) if pure else lambda name, *args: getattr(game, name)(state, *args)
    everyone = [None, *range(seats)]
    return {
        "to_move": call("to_move"),
        "is_over": call("is_over"),
        "score": call("score"),
        "legal_actions": [call("legal_actions", seat) for seat in range(seats)] if settled else None,
        "views": [call("view", seat) for seat in everyone],
        # What a seat may recall of the present is all it sees of it (recall(now, now) == view(now)).
        "recalled": [call("recall", state, seat) for seat in everyone],
        "redacted": [call("redact", event, seat) for seat in everyone],
    }


def _play_pure(game: ModuleType, bots: list[str], seed: bytes, options: dict[str, Any]) -> int:
    """Play one seeded game as ``simulate.play`` does, checking at every event that no interface
    function (nor a bot) changes what it is given, and that a state back from jsonb reads the same,
    decides the same and folds on the same: one event on from every state, and up to ``RESNAPSHOT``
    events on from the newest snapshot. Returns how many events were played."""
    seats = len(bots)
    pending = game.setup(dict(options), seats, Rng(seed, "setup"))
    state = snapshot = previous = None
    played = 0
    rng = random.Random(seed)
    while True:
        for n, event in enumerate(pending, start=1):
            stored = _jsonb(event)
            state = game.evolve(None, event) if state is None else _Pure(game, state)("evolve", event)
            settled = n == len(pending)
            reads = _reads(game, state, event, seats, settled, pure=True)
            assert reads["recalled"] == reads["views"], f"{played}: recall(now, now) is not view(now)"
            snapshot = _jsonb(state) if played % RESNAPSHOT == 0 else game.evolve(snapshot, stored)
            step = None if previous is None else game.evolve(_jsonb(previous), stored)
            others = {
                "after a jsonb round trip": _jsonb(state),
                "one event on from jsonb": step,
                "folded on from a snapshot": snapshot,
            }
            for what, other in others.items():
                if other is not None:
                    assert _reads(game, other, event, seats, settled, pure=False) == reads, (played, what)
            previous = state
            played += 1
        if game.is_over(state):
            return played
        seat = game.to_move(state)[0]
        label = f"v{played}"
        pure = _Pure(game, state)
        actions = pure("legal_actions", seat)
        command = game.BOTS[bots[seat]](pure("view", seat), actions, Rng(seed, f"bot:{label}"))
        assert state == pure.frozen, f"the {bots[seat]} bot changed the state through its view"
        loaded = _jsonb(state)
        again = game.BOTS[bots[seat]](
            game.view(loaded, seat), game.legal_actions(loaded, seat), Rng(seed, f"bot:{label}")
        )
        assert again == command, f"{label}: the {bots[seat]} bot chose otherwise on the state from jsonb"
        for probe in [*rng.sample(actions, min(3, len(actions))), {"type": None}]:
            pure.decide(seat, probe, Rng(seed, "probe"))
        for other in range(seats):
            if other != seat:
                pure.decide(other, command, Rng(seed, "probe"))
        pending = pure.decide(seat, command, Rng(seed, label))
        assert not isinstance(pending, GameError), pending
        from_jsonb = game.decide(loaded, seat, command, Rng(seed, label))
        assert from_jsonb == pending, f"{label}: decide gave other events on the state from jsonb"


@pytest.mark.parametrize(("game_id", "bots", "options"), _cases())
def test_no_call_changes_its_input_and_snapshots_read_and_fold_the_same(
    game_id: str, bots: list[str], options: dict[str, Any]
) -> None:
    assert _play_pure(games.load(game_id), bots, f"pure-{game_id}".encode(), options) > 0


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "bots", "options"), _cases())
def test_many_games_change_no_input_and_snapshots_agree(
    game_id: str, bots: list[str], options: dict[str, Any]
) -> None:
    game = games.load(game_id)
    for i in range(int(os.environ.get("KOTLIK_CONTRACT_GAMES", "40"))):
        _play_pure(game, bots, f"pure-{game_id}-{i}".encode(), options)
