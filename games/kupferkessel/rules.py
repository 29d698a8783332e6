"""Deciding commands: the turn of Kupferkessel Co. as the rulebook orders it.

A turn is: move the pawn exactly as many steps as the value of the top card of your cauldron
(``move``); beside a row or column take one of its cards onto your cauldron (``take``), beside a
corner card the turn ends; use or decline the card's special symbol (``explode``, ``play_again``,
``decline``); the emptied spot is refilled from the deck. Taking the last card of the row or column
taken from ends the game, and that player keeps the card or sets it aside (``end``) without a
special action. A crossing line emptied by a take stays in play: beside it, as beside a corner
card, the turn ends without a card; and once no pawn can ever stop beside a card again, the game
ends with nobody having taken a last card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.interface import Command, Event, IllegalMove, State
from games.kupferkessel.content import LINES, POSITIONS, SEAT_COLOURS, cards, has_cards, line_at, line_spots
from games.kupferkessel.state import evolve
from games.rng import Rng
from games.toolkit import Recorder, check_fields, open_command

#: What makes a command final for ``undo`` (``games.interface.Rules.IRREVERSIBLE``):
#: a spot refilled from the deck, the turn handed on (an extra turn too), the end.
IRREVERSIBLE: frozenset[str] = frozenset({"SpotRefilled", "TurnEnded", "GameEnded"})


def to_move(state: State) -> list[int]:
    return [] if state["phase"] == "over" else [state["turn"]]


def is_over(state: State) -> bool:
    return bool(state["phase"] == "over")


def top_value(state: State, seat: int) -> int:
    """The steps a pawn must walk: the value of the top card of its owner's cauldron."""
    return int(cards()[state["cauldrons"][seat][-1]]["value"])


def walk(position: int, other: int, steps: int, direction: str) -> tuple[int, bool]:
    """Where a pawn walking ``steps`` from ``position`` ends and whether it jumped: no step may end
    on the other pawn (at ``other``), which is jumped without counting the step."""
    delta = 1 if direction == "clockwise" else -1
    jumped = False
    for _ in range(steps):
        position = (position + delta) % POSITIONS
        if position == other:
            position = (position + delta) % POSITIONS
            jumped = True
    return position, jumped


def destination(state: State, seat: int, steps: int) -> tuple[int, bool]:
    return walk(state["pawns"][seat], state["pawns"][1 - seat], steps, state["direction"])


def current_line(state: State) -> str | None:
    return line_at(state["pawns"][state["turn"]])


def usable_special(state: State, seat: int, card: str) -> str | None:
    """The special action a taken card offers now: the exploding cauldron needs an opponent with at
    least two cards; the wand and hat lose their power on a turn they already granted."""
    symbol = cards()[card]["symbol"]
    if symbol == "explode" and len(state["cauldrons"][1 - seat]) >= 2:
        return "explode"
    if symbol == "hat" and not state["extra"]:
        return "hat"
    return None


def empties_its_line(grid: list[str | None], line: str, spot: int) -> bool:
    """Whether taking the card at ``spot`` leaves ``line``, the line taken from, without cards; only
    that ends the game, not a crossing line emptied along with it."""
    return all(grid[s] is None or s == spot for s in line_spots(line))


def out_of_reach(state: State) -> bool:
    """Whether no pawn will ever again stop beside a line with cards. Until someone takes a card the
    tops of the cauldrons, and so the walk, stay the same; it repeats within 20 × 19 × 2 turns."""
    if state["deck"] or all(has_cards(state["grid"], line) for line in LINES):
        return False
    steps = [top_value(state, seat) for seat in (0, 1)]
    pawns, turn = list(state["pawns"]), state["turn"]
    seen: set[tuple[int, int, int]] = set()
    while (pawns[0], pawns[1], turn) not in seen:
        seen.add((pawns[0], pawns[1], turn))
        pawns[turn], _ = walk(pawns[turn], pawns[1 - turn], steps[turn], state["direction"])
        line = line_at(pawns[turn])
        if line is not None and has_cards(state["grid"], line):
            return False
        turn = 1 - turn
    return True


def legal_actions(state: State, seat: int) -> list[Command]:
    """Exactly the commands ``decide`` accepts from ``seat`` now; the move is always forced."""
    if state["phase"] == "over" or seat != state["turn"]:
        return []
    phase = state["phase"]
    if phase == "move":
        return [{"type": "move", "steps": top_value(state, seat)}]
    if phase == "take":
        line = current_line(state)
        assert line is not None
        return [{"type": "take", "card": state["grid"][s]} for s in line_spots(line) if state["grid"][s]]
    if phase == "special":
        use = "explode" if cards()[state["pending"]]["symbol"] == "explode" else "play_again"
        return [{"type": use}, {"type": "decline"}]
    if phase == "end":
        return [{"type": "end", "keep": True}, {"type": "end", "keep": False}]
    return []


def _phase(state: State, *phases: str) -> None:
    if state["phase"] in phases:
        return
    raise IllegalMove(
        {
            "move": "first move your pawn (move)",
            "take": "take a card from the row or column beside your pawn (take)",
            "special": "use the special symbol of the card you took, or decline it",
            "end": "you took the last card of a line: keep it or set it aside (end)",
        }.get(state["phase"], "that is not possible now")
    )


def _finish_turn(batch: Recorder, seat: int, again: bool = False) -> list[Event]:
    """Refill the emptied spot from the deck (it stays a hole once the deck is gone), then pass the
    turn, or keep it once after a wand and hat; end the game if no card can be reached."""
    spot, deck = batch.state["spot"], batch.state["deck"]
    if spot is not None and deck:
        batch.emit({"type": "SpotRefilled", "row": spot // 6, "col": spot % 6, "card": deck[0]})
    batch.emit({"type": "TurnEnded", "seat": seat, "next": seat if again else 1 - seat, "extra": again})
    if out_of_reach(batch.state):
        batch.emit({"type": "GameEnded", "by": None})
    return batch.events


def _move(state: State, seat: int, command: Command) -> list[Event]:
    _phase(state, "move")
    check_fields(command, ("steps",))
    steps, need = command.get("steps"), top_value(state, seat)
    if type(steps) is not int or steps != need:
        raise IllegalMove(f"your pawn moves exactly {need} steps, the value of the top card of your cauldron")
    to, jumped = destination(state, seat, steps)
    line = line_at(to)
    batch = Recorder(state, evolve)
    batch.emit(
        {
            "type": "PawnMoved",
            "seat": seat,
            "card": state["cauldrons"][seat][-1],
            "steps": steps,
            "from": state["pawns"][seat],
            "to": to,
            "jumped": jumped,
            "line": line,
        }
    )
    if line is not None and has_cards(state["grid"], line):
        return batch.events
    return _finish_turn(batch, seat)


def _take(state: State, seat: int, command: Command) -> list[Event]:
    _phase(state, "take")
    check_fields(command, ("card",))
    card, line = command.get("card"), current_line(state)
    assert line is not None
    spots = [s for s in line_spots(line) if state["grid"][s] == card]
    if not isinstance(card, str) or not spots:
        raise IllegalMove(f"take a card from {_line_name(line)}, the line beside your pawn")
    spot = spots[0]
    last = empties_its_line(state["grid"], line, spot)
    special = None if last else usable_special(state, seat, card)
    batch = Recorder(state, evolve)
    batch.emit(
        {
            "type": "CardTaken",
            "seat": seat,
            "card": card,
            "line": line,
            "row": spot // 6,
            "col": spot % 6,
            "last": last,
            "special": special,
        }
    )
    if last or special is not None:
        return batch.events
    return _finish_turn(batch, seat)


def _special(state: State, seat: int, command: Command, symbol: str) -> list[Event]:
    _phase(state, "special")
    check_fields(command, ())
    if cards()[state["pending"]]["symbol"] != symbol:
        raise IllegalMove(f"the card you took does not carry that symbol; {command['type']} is not possible")
    batch = Recorder(state, evolve)
    if symbol == "explode":
        victim = 1 - seat
        top = state["cauldrons"][victim][-1]
        batch.emit(
            {
                "type": "CauldronExploded",
                "seat": seat,
                "victim": victim,
                "card": top,
                "to": "deck" if state["deck"] else "removed",
            }
        )
        return _finish_turn(batch, seat)
    batch.emit({"type": "ExtraTurnGranted", "seat": seat})
    return _finish_turn(batch, seat, again=True)


def _decline(state: State, seat: int, command: Command) -> list[Event]:
    _phase(state, "special")
    check_fields(command, ())
    batch = Recorder(state, evolve)
    card = state["pending"]
    batch.emit({"type": "SpecialDeclined", "seat": seat, "card": card, "special": cards()[card]["symbol"]})
    return _finish_turn(batch, seat)


def _end(state: State, seat: int, command: Command) -> list[Event]:
    _phase(state, "end")
    check_fields(command, ("keep",))
    keep = command.get("keep")
    if not isinstance(keep, bool):
        raise IllegalMove("say whether you keep the last card (keep: true) or set it aside (keep: false)")
    card = state["pending"]
    kept: Event = {"type": "CardKept" if keep else "CardSetAside", "seat": seat, "card": card}
    return [kept, {"type": "GameEnded", "by": seat}]


def _line_name(line: str) -> str:
    return f"{'row' if line.startswith('row') else 'column'} {line[3:]}"


HANDLERS: dict[str, Callable[[State, int, Command], list[Event]]] = {
    "move": _move,
    "take": _take,
    "explode": lambda s, seat, c: _special(s, seat, c, "explode"),
    "play_again": lambda s, seat, c: _special(s, seat, c, "hat"),
    "decline": _decline,
    "end": _end,
}


def decide(state: State, seat: int, command: Any, rng: Rng) -> list[Event]:
    """The events of ``command`` by ``seat``; Kupferkessel draws no random number after setup."""
    turn = state["turn"]
    kind = open_command(
        command,
        seat,
        over=is_over(state),
        to_move=to_move(state),
        commands=HANDLERS,
        mover=f"seat {turn}, {SEAT_COLOURS[turn]}",
    )
    return HANDLERS[kind](state, seat, command)
