"""What each seat may see, and the log as it may read it while the game runs.

The table shows the face-up cards of the square, the top card of each cauldron and the card a
player holds to decide at the end; everything else is face down. Memory is part of the game: no one,
the owner included, sees a cauldron below its top card, and the log hides any card the table no
longer shows together with what gave it away: the steps a covered top card made its pawn walk (its
value) and where that walk went, and where a covered card was taken and which symbol it had.
Recipes are secret to their owner and the deck order to everyone. A past table (``recall``, what
``?at=`` replays) keeps the same memory rule: it shows no card the table no longer shows, and no
pawn where it no longer stands (a walk's length is a covered card's value). Once the game is over
everything is shown.
"""

from __future__ import annotations

from typing import Any

from games.interface import Event, State
from games.kupferkessel.content import SEAT_COLOURS, line_at
from games.kupferkessel.rules import is_over

HIDDEN_ARRANGEMENT = "hidden until the game is over"
#: The fields that tell about an event's card, hidden with it once the table no longer shows it.
TELLING_FIELDS = {
    "PawnMoved": ("steps", "from", "to", "jumped", "line"),
    "CardTaken": ("line", "row", "col", "special"),
    "SpecialDeclined": ("special",),
    "SpotRefilled": ("row", "col"),
}


def visible_cards(state: State) -> set[str]:
    """The cards face up on the table now."""
    shown = {card for card in state["grid"] if card is not None}
    shown.update(cauldron[-1] for cauldron in state["cauldrons"] if cauldron)
    shown.update(state["set_aside"])
    if state["pending"] is not None:
        shown.add(state["pending"])
    return shown


def _cauldron(state: State, seat: int, over: bool) -> dict[str, Any]:
    cauldron = state["cauldrons"][seat]
    out: dict[str, Any] = {"seat": seat, "colour": SEAT_COLOURS[seat], "count": len(cauldron)}
    out["top"] = cauldron[-1] if cauldron else None
    if over:
        out["cards"] = list(cauldron)
    return out


def _recipes(state: State, seat: int, viewer: int | None, over: bool) -> dict[str, Any]:
    own = state["recipes"][seat]
    if over or viewer == seat:
        return {"seat": seat, "count": len(own), "recipes": list(own)}
    return {"seat": seat, "count": len(own), "recipes": None}


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` (``None``: a spectator) sees it; rows of the grid top to bottom, the
    four corners (corner cards) and the holes are ``null``."""
    over = is_over(state)
    out: dict[str, Any] = {
        "seat": seat,
        "colour": None if seat is None else SEAT_COLOURS[seat],
        "phase": state["phase"],
        "to_move": [] if over else [state["turn"]],
        "extra_turn": state["extra"],
        "direction": state["direction"],
        "advanced": state["advanced"],
        "grid": [state["grid"][r * 6 : r * 6 + 6] for r in range(6)],
        "pawns": [
            {"seat": s, "colour": SEAT_COLOURS[s], "position": p, "beside": line_at(p)}
            for s, p in enumerate(state["pawns"])
        ],
        "deck": len(state["deck"]),
        "cauldrons": [_cauldron(state, s, over) for s in range(2)],
        "pending": state["pending"],
        "set_aside": list(state["set_aside"]),
        "removed": len(state["removed"]),
        "ended_by": state["ended_by"],
    }
    if state["advanced"]:
        out["recipes"] = [_recipes(state, s, seat, over) for s in range(2)]
    if over:
        out["deck_cards"] = list(state["deck"])
        out["removed_cards"] = list(state["removed"])
    return out


def _hide(card: str | None, shown: set[str]) -> str | None:
    return card if card in shown else None


def redact(state: State, event: Event, seat: int | None) -> Event:
    """``event`` as ``seat`` may read it while the game, now in ``state``, runs: any card the table
    no longer shows becomes ``null``, the deck order becomes its size, others' recipes are hidden."""
    if is_over(state):
        return event
    kind = event["type"]
    if kind == "GameStarted":
        options = event["options"]
        if "arranged" in options:
            return {**event, "options": {**options, "arranged": HIDDEN_ARRANGEMENT}}
        return event
    if kind == "DeckStacked":
        return {"type": kind, "count": len(event["deck"])}
    if kind == "RecipesDealt":
        return event if seat == event["seat"] else {**event, "recipes": None, "count": len(event["recipes"])}
    shown = visible_cards(state)
    out = dict(event)
    if kind == "GridLaid":
        out["grid"] = [[_hide(c, shown) for c in row] for row in event["grid"]]
    if "card" in out and out["card"] not in shown:
        out["card"] = None
        out.update(dict.fromkeys(TELLING_FIELDS.get(kind, ()), None))
    if "refused" in out:
        out["refused"] = [_hide(c, shown) for c in out["refused"]]
    return out


def recall(now: State, then: State, seat: int | None) -> dict[str, Any]:
    """The table of a past moment (``then``) as ``seat`` may recall it while the game, ``now``, runs:
    the memory rule reaches back, so every card the table no longer shows is ``null`` (a grid spot,
    a cauldron's top, the pending or set-aside card) and a pawn that has walked on since is at
    ``null`` (its walk's length would give the covered top card's value away). Recipes stay as
    ``view`` shows them (their owner saw them all along). Once the game is over: ``view``."""
    past = view(then, seat)
    if is_over(now):
        return past
    shown = visible_cards(now)
    past["grid"] = [[_hide(c, shown) for c in row] for row in past["grid"]]
    past["cauldrons"] = [{**c, "top": _hide(c["top"], shown)} for c in past["cauldrons"]]
    past["pending"] = _hide(past["pending"], shown)
    past["set_aside"] = [_hide(c, shown) for c in past["set_aside"]]
    past["pawns"] = [
        p if p["position"] == now["pawns"][p["seat"]] else {**p, "position": None, "beside": None}
        for p in past["pawns"]
    ]
    return past


def redact_command(state: State, command: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A seat's own command as it may recall it while the game runs: the memory rule covers its
    own commands too, so a taken card the table no longer shows is ``null``, and a move's
    ``steps`` (its top card's value then; ``PawnMoved`` shows them while that card shows) too."""
    if is_over(state):
        return command
    if command.get("type") == "move" and "steps" in command:
        return {**command, "steps": None}
    if command.get("type") == "take" and command.get("card") not in visible_cards(state):
        return {**command, "card": None}
    return command
