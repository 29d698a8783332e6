"""Undo within a turn, on the engines alone: every game's ``IRREVERSIBLE`` against its rules, and the
walk of :mod:`projections.undo` with the fold of :mod:`projections.fold` over logs built in memory
as the platform builds them.

- Every command whose ``decide`` draws from its ``Rng`` records an event its game calls final, so a
  seat can never take back a move that showed it a random outcome (seeded random games of each).
- In each game a seat's reversible move is taken back: the state after the undo is the state before
  the move, the same legal actions are offered again, and a chain of undos walks back move by move.
- An undo is refused after a final move and after another seat's move.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import games
from games.rng import Rng
from projections import undo
from projections.fold import fold_log

GAMES = ["carcassonne", "carodeni", "kupferkessel", "skodakouzla"]


class CountingRng(Rng):
    """An ``Rng`` that counts the bytes drawn from it."""

    def __init__(self, seed: bytes, label: str) -> None:
        super().__init__(seed, label)
        self.drawn = 0

    def _bytes(self, n: int) -> bytes:
        self.drawn += n
        return super()._bytes(n)


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


class Log:
    """A game's log in memory, as the platform writes it: setup, then each command's events."""

    def __init__(self, game_id: str, seed: int) -> None:
        self.rules = games.load(game_id)
        self.key = f"undo-{game_id}-{seed}".encode()
        self.events: list[dict[str, Any]] = [
            {"version": 1, "type": "kotlik.GameCreated", "data": {}, "meta": {}}
        ]
        for event in _plain(self.rules.setup({}, 2, Rng(self.key, "setup"))):
            self._append(event, {})
        self.state = self.fold()

    @property
    def version(self) -> int:
        return len(self.events)

    def _append(self, event: dict[str, Any], meta: dict[str, Any]) -> None:
        data = {k: v for k, v in event.items() if k != "type"}
        self.events.append({"version": self.version + 1, "type": event["type"], "data": data, "meta": meta})

    def fold(self) -> Any:
        return fold_log(self.rules, ((e["version"], {"type": e["type"], **e["data"]}) for e in self.events))

    def play(self, seat: int, command: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
        """Decide and log ``command``; its events and how many bytes its decision drew."""
        rng = CountingRng(self.key, f"v{self.version}")
        decided = _plain(self.rules.decide(self.state, seat, command, rng))
        meta = {"seat": seat, "command": command, "at": self.version}
        for event in decided:
            self._append(event, meta)
        self.state = self.fold()
        return decided, rng.drawn

    def undo(self, seat: int) -> undo.Target:
        """Take back ``seat``'s newest move as the platform does; :class:`undo.Refused` if it may not."""
        undo.check_turn(self.rules, self.state, seat)
        taken = undo.target(undo.entries(self.events), self.version, seat, self.rules)
        meta = {"seat": seat, "command": {"type": "undo"}, "at": self.version}
        self.events.append(
            {"version": self.version + 1, "type": undo.UNDONE, "data": taken.event(), "meta": meta}
        )
        self.state = self.fold()
        return taken

    def choose(self, seat: int, step: int) -> dict[str, Any]:
        view = self.rules.view(self.state, seat)
        actions = self.rules.legal_actions(self.state, seat)
        return dict(self.rules.BOTS["random"](view, actions, Rng(self.key, f"choose{step}")))


@pytest.mark.parametrize("game_id", GAMES)
def test_a_command_that_draws_randomness_is_final(game_id: str) -> None:
    rules = games.load(game_id)
    for seed in range(3):
        log = Log(game_id, seed)
        for step in range(300):
            if rules.is_over(log.state):
                break
            seat = rules.to_move(log.state)[0]
            decided, drawn = log.play(seat, log.choose(seat, step))
            if drawn:
                types = [e["type"] for e in decided]
                assert rules.IRREVERSIBLE & set(types), (game_id, seed, step, types)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_seat_takes_back_its_moves_of_the_turn_one_by_one(game_id: str) -> None:
    rules = games.load(game_id)
    undone = chains = 0
    for seed in range(4):
        log = Log(game_id, seed)
        run: list[tuple[Any, dict[str, Any], list[dict[str, Any]]]] = []  # the seat's reversible moves
        for step in range(150):
            if rules.is_over(log.state):
                break
            seat = rules.to_move(log.state)[0]
            before, actions_before = log.state, rules.legal_actions(log.state, seat)
            command = log.choose(seat, step)
            decided, _ = log.play(seat, command)
            final = bool(rules.IRREVERSIBLE & {e["type"] for e in decided})
            still = not rules.is_over(log.state) and seat in rules.to_move(log.state)
            if final or not still:
                run = []
                with pytest.raises(undo.Refused) as refused:
                    log.undo(seat)
                assert refused.value.code in ("revealed", "not_to_move")
                continue
            run.append((before, command, decided))
            if len(run) >= 2 and step % 2 == 0:  # two moves back, then both played again
                first_before = run[-2][0]
                taken = [log.undo(seat), log.undo(seat)]
                assert taken[1].to < taken[0].to
                assert log.state == first_before
                for _, again, logged in run[-2:]:
                    assert log.play(seat, again)[0] == logged  # a reversible move drew nothing
                chains += 1
            elif step % 3 == 0:
                at = log.version - len(decided)
                taken1 = log.undo(seat)
                assert (taken1.to, taken1.versions) == (at, list(range(at + 1, at + 1 + len(decided))))
                assert taken1.command == command["type"]
                assert log.state == before
                assert rules.legal_actions(log.state, seat) == actions_before
                assert log.play(seat, command)[0] == decided
                undone += 1
            assert log.fold() == log.state
    assert undone > 0, f"no reversible move in {game_id}'s seeded games"
    print(game_id, "undos", undone, "chains", chains)


@pytest.mark.parametrize("game_id", GAMES)
def test_another_seats_move_ends_what_can_be_taken_back(game_id: str) -> None:
    rules = games.load(game_id)
    log = Log(game_id, 1)
    first = rules.to_move(log.state)[0]
    other = None
    for step in range(300):
        seat = rules.to_move(log.state)[0]
        if seat != first:
            other = seat
            break
        log.play(seat, log.choose(seat, step))
    assert other is not None
    with pytest.raises(undo.Refused) as refused:  # the seat whose turn ended is not to move
        log.undo(first)
    assert refused.value.code == "not_to_move"
    with pytest.raises(undo.Refused) as refused:  # the new seat has nothing of its own yet
        log.undo(other)
    assert refused.value.code in ("other_seat", "revealed")


def test_a_fold_without_the_earlier_states_refuses_an_undo() -> None:
    from projections.fold import Unrestorable, fold

    rules = games.load("kupferkessel")
    with pytest.raises(Unrestorable):
        fold(rules, [{"type": undo.UNDONE, "to": 3}], None)
