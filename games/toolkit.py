"""What every engine needs alike: the event recorder, the checks of options and of seats, the opening
of ``decide`` and the one answer to "not your turn" against "illegal".

**Not your turn or illegal.** A seat that may not act now at all (the game is over, or other seats
are to move) gets :class:`~games.interface.NotYourTurn` (HTTP 409), whatever it sends: nothing it
could send would be accepted now, so what it sent is not looked at. A seat that may act gets
:class:`~games.interface.IllegalMove` (HTTP 422) for a command the rules refuse: not an object
with a string ``type``, an unknown type, a field too many or missing, or a move the rules forbid.
:func:`open_command` makes these checks in this order for every game, so one mistake gets one
answer whatever the game.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from games.interface import Command, Event, IllegalMove, InvalidOptions, NotYourTurn, Rules, State

#: ``fold(state, event) -> state``: a game's ``evolve``, or an in-place apply on a private copy.
Fold = Callable[[State, Event], State]


class Recorder:
    """The events of one command (or of setup), each folded into :attr:`state` as it is recorded,
    so every next step (a refill, a draw, the end of a turn) is decided on the state it follows.

    ``fold`` may change the state in place if the recorder was handed a private copy; a game whose
    commands set off automatic steps subclasses it with those steps (Čarodění's and Škoda kouzla's
    ``flow.Flow``).
    """

    def __init__(self, state: State, fold: Fold) -> None:
        self.state = state
        self.events: list[Event] = []
        self._fold = fold

    def emit(self, event: Event) -> None:
        """Record ``event`` and fold it in."""
        self.events.append(event)
        self.state = self._fold(self.state, event)


def open_command(
    command: Any,
    seat: int,
    *,
    over: bool,
    to_move: Sequence[int],
    commands: Collection[str],
    mover: str | None = None,
) -> str:
    """The checks every ``decide`` makes first, in this order, and the command's type.

    The game is over, then whose turn it is (:class:`NotYourTurn`: the seat may not act at all),
    then the shape and the type of the command (:class:`IllegalMove`). ``commands`` lists the
    game's command types in the order a refusal names them; ``mover`` names the seat to move as
    the game says it (``"seat 0, white"``), by default ``"seat 0"``.
    """
    if over:
        raise NotYourTurn("the game is over")
    if seat not in to_move:
        if not to_move:
            raise NotYourTurn("no seat is to move now")
        raise NotYourTurn(f"it is the turn of {mover or _seats(to_move)}")
    if not isinstance(command, Mapping) or not isinstance(command.get("type"), str):
        example = next(iter(commands))
        raise IllegalMove(f'a command is an object with a string type, e.g. {{"type": "{example}"}}')
    kind = str(command["type"])
    if kind not in commands:
        raise IllegalMove(f"unknown command {kind!r}; the commands are {', '.join(commands)}")
    return kind


def _seats(seats: Sequence[int]) -> str:
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(map(str, seats))


def check_fields(command: Command, allowed: Iterable[str], required: Iterable[str] = ()) -> None:
    """Refuse a command with a field besides ``type`` and ``allowed``, or without one of ``required``."""
    names = list(allowed)
    extra = sorted(str(k) for k in command if k != "type" and k not in names)
    if extra:
        shape = ", ".join(["type", *names])
        raise IllegalMove(f"the {command['type']} command has only the fields {shape}; not {extra}")
    missing = [name for name in required if name not in command]
    if missing:
        raise IllegalMove(f"the {command['type']} command needs the fields {', '.join(missing)}")


def check_option_keys(options: Any, known: Collection[str]) -> Mapping[str, Any]:
    """``options`` if it is an object whose keys are all ``known``, else :class:`InvalidOptions`."""
    if not isinstance(options, Mapping):
        raise InvalidOptions("options must be an object")
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise InvalidOptions(f"unknown options {unknown}; known: {sorted(known)}")
    return options


def option(options: Mapping[str, Any], key: str, default: Any, kind: type, rule: str) -> Any:
    """``options[key]`` (``default`` when left out) if it is a ``kind``, else :class:`InvalidOptions`
    saying ``rule``; JSON's ``true`` is no integer here, though Python's ``bool`` is an ``int``."""
    value = options.get(key, default)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidOptions(rule)
    return value


def check_seats(game: Rules, bots: Sequence[str | None], options: Mapping[str, Any]) -> None:
    """Refuse (:class:`InvalidOptions`) a seating the game cannot be played with: a seat count outside
    ``INFO``'s range, a bot the game does not have, or what the game's own ``check_seats(bots,
    options)`` forbids (which bot may sit where, how many people a mode takes) unless that is
    ``None``. ``bots`` is each seat's bot name in turn order, ``None`` for a person."""
    info = game.INFO
    if not info.min_seats <= len(bots) <= info.max_seats:
        raise InvalidOptions(f"{info.id} takes {info.min_seats} to {info.max_seats} seats, not {len(bots)}")
    for bot in bots:
        if bot is not None and bot not in game.BOTS:
            raise InvalidOptions(f"no bot {bot!r} for {info.id}; bots: {sorted(game.BOTS)}")
    if game.check_seats is not None:
        game.check_seats(list(bots), options)
