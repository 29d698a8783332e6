"""Folding events into the state of a game: plain JSON data, never mutated in place.

State keys: ``grid`` (36 spots, ``row * 6 + col``, card id or ``None``), ``deck`` (top first),
``cauldrons`` (per seat, bottom first, so the last card is the visible top), ``pawns`` (positions),
``recipes`` (per seat), ``turn`` (seat), ``phase`` (``move``, ``take``, ``special``, ``done``,
``end``, ``over``), ``extra`` (this turn was won by a wand and hat), ``pending`` (the card a
special action or the end decision is about), ``spot`` (the spot just emptied).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.interface import Event, State
from games.kupferkessel.content import has_cards

Folder = Callable[[dict[str, Any], Event], None]


def _started(s: dict[str, Any], e: Event) -> None:
    s.update(
        options=e["options"],
        direction=e["direction"],
        advanced=e["recipes"],
        pawns=list(e["pawns"]),
        grid=[None] * 36,
        deck=[],
        cauldrons=[[], []],
        recipes=[[], []],
        turn=0,
        phase="move",
        extra=False,
        pending=None,
        spot=None,
        set_aside=[],
        removed=[],
        ended_by=None,
    )


def _grid_laid(s: dict[str, Any], e: Event) -> None:
    s["grid"] = [card for row in e["grid"] for card in row]


def _cauldron_started(s: dict[str, Any], e: Event) -> None:
    s["cauldrons"] = [list(c) for c in s["cauldrons"]]
    s["cauldrons"][e["seat"]] = [e["card"]]


def _deck_stacked(s: dict[str, Any], e: Event) -> None:
    s["deck"] = list(e["deck"])


def _recipes_dealt(s: dict[str, Any], e: Event) -> None:
    s["recipes"] = [list(r) for r in s["recipes"]]
    s["recipes"][e["seat"]] = list(e["recipes"])


def _pawn_moved(s: dict[str, Any], e: Event) -> None:
    s["pawns"] = list(s["pawns"])
    s["pawns"][e["seat"]] = e["to"]
    s["phase"] = "take" if e["line"] is not None and has_cards(s["grid"], e["line"]) else "done"


def _card_taken(s: dict[str, Any], e: Event) -> None:
    spot = e["row"] * 6 + e["col"]
    s["grid"] = list(s["grid"])
    s["grid"][spot] = None
    s["spot"] = spot
    if e["last"]:
        s["pending"], s["phase"] = e["card"], "end"
        return
    s["cauldrons"] = [list(c) for c in s["cauldrons"]]
    s["cauldrons"][e["seat"]].append(e["card"])
    if e["special"] is not None:
        s["pending"], s["phase"] = e["card"], "special"
    else:
        s["phase"] = "done"


def _exploded(s: dict[str, Any], e: Event) -> None:
    s["cauldrons"] = [list(c) for c in s["cauldrons"]]
    s["cauldrons"][e["victim"]].pop()
    if e["to"] == "deck":
        s["deck"] = [*s["deck"], e["card"]]
    else:
        s["removed"] = [*s["removed"], e["card"]]
    s["pending"], s["phase"] = None, "done"


def _special_done(s: dict[str, Any], e: Event) -> None:
    s["pending"], s["phase"] = None, "done"


def _refilled(s: dict[str, Any], e: Event) -> None:
    s["grid"] = list(s["grid"])
    s["grid"][e["row"] * 6 + e["col"]] = e["card"]
    s["deck"] = s["deck"][1:]


def _turn_ended(s: dict[str, Any], e: Event) -> None:
    s.update(turn=e["next"], extra=e["extra"], phase="move", pending=None, spot=None)


def _card_kept(s: dict[str, Any], e: Event) -> None:
    s["cauldrons"] = [list(c) for c in s["cauldrons"]]
    s["cauldrons"][e["seat"]].append(e["card"])
    s["pending"] = None


def _card_set_aside(s: dict[str, Any], e: Event) -> None:
    s["set_aside"] = [*s["set_aside"], e["card"]]
    s["pending"] = None


def _game_ended(s: dict[str, Any], e: Event) -> None:
    s.update(phase="over", ended_by=e["by"], pending=None, spot=None)


FOLDERS: dict[str, Folder] = {
    "GameStarted": _started,
    "GridLaid": _grid_laid,
    "CauldronStarted": _cauldron_started,
    "DeckStacked": _deck_stacked,
    "RecipesDealt": _recipes_dealt,
    "PawnMoved": _pawn_moved,
    "CardTaken": _card_taken,
    "CauldronExploded": _exploded,
    "ExtraTurnGranted": _special_done,
    "SpecialDeclined": _special_done,
    "SpotRefilled": _refilled,
    "TurnEnded": _turn_ended,
    "CardKept": _card_kept,
    "CardSetAside": _card_set_aside,
    "GameEnded": _game_ended,
}


def evolve(state: State, event: Event) -> State:
    """The state after ``event``; a shallow copy whose changed lists are copied, never the input."""
    new: dict[str, Any] = {} if state is None else dict(state)
    FOLDERS[event["type"]](new, event)
    return new
