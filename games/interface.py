"""The rules interface every game module implements, and the errors it raises.

A game is a package ``games/<id>/`` whose ``__init__`` exports the names of :class:`Rules`: the
interface is that :class:`typing.Protocol`, one member per part, each with its contract. It is a
pure, deterministic decider: plain JSON-compatible data in, plain data out, no I/O, no clock, and no
randomness but the :class:`games.rng.Rng` it is handed. The platform (``projections``, ``service``,
``workers``) talks to every game through these names only and never branches on a game id.

No function below changes the state, event or command it is given, so the platform may keep one
folded state in memory and hand it to any number of readers, ``decide`` and ``evolve`` alike; and a
state back from a jsonb snapshot (keys reordered) behaves exactly like the one kept in memory
(``tests/games/test_contract.py`` checks both). What they return may share structure with that state
(a view with its board, say), so callers treat results as read-only too.

**Optional parts are explicit.** A part a game may lack (``SCHEMAS``, ``redact_command``,
``check_seats``) is still a name every engine exports, set to ``None`` where the game has none
(``redact_command = None  # a seat recalls its own commands whole``), so the platform reads
``rules.redact_command`` and tests it for ``None``, and never probes a module with ``getattr``.

**mypy checks every engine against** :class:`Rules`: each engine package (and each kept rules
version) ends by assigning itself to a ``Rules`` name under ``if TYPE_CHECKING:``, so a part
missing, or a signature that drifted from the one below, fails ``mypy games``. The check sits in
the engine itself, not in a module that imports them all, because mypy's cache rechecks a module
when what it imports changes: a drift in ``games/<id>/views.py`` rechecks ``games/<id>/__init__``,
but not a module that only imports ``games.<id>``, which would go on passing (or failing) stale.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from games.rng import Rng

#: A stored event: ``{"type": "CardTaken", ...fields}``; JSON-compatible.
Event = dict[str, Any]
#: A command body as a client POSTs it: ``{"type": "take", ...fields}``.
Command = dict[str, Any]
#: Whatever a game folds its events into; JSON-compatible so it can be snapshotted.
State = Any
#: The final result: per-seat totals with their breakdowns, and the winning seats.
Score = dict[str, Any]
#: ``bot(view, legal_actions, rng) -> command``: chooses from what its seat may see and do.
Bot = Callable[[Mapping[str, Any], list[Command], Rng], Command]


@dataclass(frozen=True)
class GameInfo:
    """Static facts of a game, the same for every match of it."""

    id: str
    name: str
    min_seats: int
    max_seats: int
    #: Bumped when a rule change would fold stored events differently; snapshots carry it.
    rules_version: int = 1
    #: The game's title in Czech, Polish and English (``{"cs", "pl", "en"}``), as every named
    #: thing in a catalog; ``name`` stays the one title the API has always shown.
    names: Mapping[str, str] = field(default_factory=dict)


#: ``redact_command(state, command, seat) -> command``: see :attr:`Rules.redact_command`.
RedactCommand = Callable[[State, Command, int | None], Command]
#: ``check_seats(bots, options) -> None``: see :attr:`Rules.check_seats`.
CheckSeats = Callable[[list[str | None], Mapping[str, Any]], None]


class Rules(Protocol):
    """A rules engine: what a game package (or a kept rules version) exports.

    A module is its implementation (mypy accepts a module as a value of a protocol type): the
    methods below are the module's functions, without ``self``; the properties its constants.
    """

    @property
    def INFO(self) -> GameInfo:
        """Static facts: id, names, seat range, rules version."""

    def setup(self, options: Mapping[str, Any], seats: int, rng: Rng) -> list[Event]:
        """The opening events. ``seats`` is the number of seats. Raises :class:`InvalidOptions`."""

    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> list[Event]:
        """Validates ``command`` (a dict with ``type``) for ``seat``: :class:`NotYourTurn` when the seat
        may not act now at all (the game is over, other seats are to move), whatever it sent;
        :class:`IllegalMove` when it may act but not this (not an object with a string ``type``, an
        unknown type or field, a move the rules forbid). Every game opens ``decide`` with
        :func:`games.toolkit.open_command`, which makes these checks in this order. Returns the events
        that record its effect, every random outcome included."""

    def evolve(self, state: State, event: Event) -> State:
        """Applies one event to a state (``None`` before the first event); never mutates its input,
        never draws a random number, never fails on an event that ``setup``/``decide`` produced."""

    def legal_actions(self, state: State, seat: int) -> list[Command]:
        """Exactly the command bodies that ``decide`` accepts from ``seat`` now (empty when not its
        turn)."""

    def to_move(self, state: State) -> list[int]:
        """The seats that may act now (empty once the game is over)."""

    def is_over(self, state: State) -> bool:
        """Whether the game has ended (it is then scored)."""

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see now. JSON-compatible."""

    def redact(self, state: State, event: Event, seat: int | None) -> Event:
        """``event`` as ``seat`` may see it while the game, now in ``state``, is running."""

    def recall(self, now: State, then: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may recall of the past state ``then`` while the game,
        now in ``now``, is running: a ``view`` of ``then`` with whatever the seat may no longer know
        taken out (Kupferkessel: nothing below a cauldron's top); most games return
        ``view(then, seat)``, the seat's own past view. ``recall(s, s, seat) == view(s, seat)``. The
        platform replays a running game (``?at=``) through it and shows ``view`` once the game is
        over."""

    def score(self, state: State) -> Score:
        """``{"seats": [{"seat": 0, "total": 26, "breakdown": {"part": points, ...}}, ...],
        "winners": [0]}`` where every ``total`` equals the sum of its ``breakdown``."""

    def catalog(self) -> dict[str, Any]:
        """The game's content (cards, tiles...) with localized names, for ``GET /catalog/{game}``."""

    @property
    def BOTS(self) -> dict[str, Bot]:
        """Named bots, ``default`` and ``random`` among them. A bot sees only its own seat's view and
        legal actions."""

    @property
    def SCHEMAS(self) -> Mapping[str, Any] | None:
        """JSON Schemas (pure data, ``games/<id>/schemas.py``) of the game's ``options``, its
        ``commands`` and ``events`` by type, and its ``view``; the format is in ``games/README.md``.
        ``None``: the game has none yet, and the platform checks its bodies by its rules alone."""

    @property
    def IRREVERSIBLE(self) -> frozenset[str]:
        """The event types that make the command causing them final: a random outcome, something
        no seat could see before brought to light (a card drawn, a slot refilled from a deck), or a
        turn handed on. The platform's ``undo`` (:mod:`projections.undo`) takes a seat's own
        commands back one by one, newest first, and stops at the first whose events include one of
        these, so a seat never learns something, takes back what led to it and plays on knowing it.
        Every command whose ``decide`` draws from its ``Rng`` must record one of these
        (``tests/games/test_undo_rules.py`` plays seeded games to check it)."""

    @property
    def redact_command(self) -> RedactCommand | None:
        """``redact_command(state, command, seat) -> command``: ``seat``'s own ``command`` as it may
        still recall it while the game, now in ``state``, runs (the platform shows other seats only a
        command's ``type``); Kupferkessel hides a taken card once covered and a move's steps.
        ``None``: a seat sees its own commands whole."""

    @property
    def check_seats(self) -> CheckSeats | None:
        """``check_seats(bots, options) -> None``: refuses with :class:`InvalidOptions` a seating the
        game's rules forbid: ``bots`` is each seat's bot name in turn order, ``None`` for a person.
        The platform calls it through :func:`games.toolkit.check_seats` (as ``games.check_seats``),
        after that has checked the seat count against ``INFO`` and that every bot is in ``BOTS``, and
        before ``setup``; a refusal is a 422 and no game is created. Čarodění's: the solo game seats
        the player (a person or a player's bot) at seat 0 and the ``ostara`` bot at seat 1, and
        ``ostara`` plays in no other game. ``None``: the game's bots may sit anywhere."""


#: The names of every part of :class:`Rules`: every engine exports each one (an optional part it lacks
#: as ``None``).
PARTS: tuple[str, ...] = tuple(sorted(name for name in vars(Rules) if not name.startswith("_")))


class GameError(Exception):
    """A command or option the rules refuse; nothing is appended."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IllegalMove(GameError):
    """The seat may act now, but not this: a malformed command or one the rules forbid (HTTP 422)."""


class NotYourTurn(GameError):
    """The seat may not act now at all, whatever it sends: the game is over or others are to move
    (HTTP 409)."""


class InvalidOptions(GameError):
    """The game's options or arrangement are not valid for this game (HTTP 422)."""
