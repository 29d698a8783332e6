"""What each seat may see: its own hand, never the other's, never any deck order.

The shop offer, the rows, the discard piles and the cards removed from the game are public.
"""

from __future__ import annotations

from typing import Any

from games.skodakouzla.state import Event, State, max_life

#: Events whose only hidden part is a deck order: every seat sees the size alone.
_SHUFFLES = ("DeckShuffled", "ShopShuffled")


def _cards(state: State, uids: list[str]) -> list[dict[str, str]]:
    return [{"uid": u, "card": state["cards"][u]} for u in uids]


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` (``None``: a spectator) sees it."""
    players = []
    for i, p in enumerate(state["players"]):
        mine = seat == i
        players.append(
            {
                "seat": i,
                "life": p["life"],
                "max_life": max_life(p),
                "level": p["level"],
                "colour": p["colour"],
                "curses": p["curses"],
                "frozen": p["frozen"] > 0,
                "frozen_until": p["frozen"],
                "magic": p["magic"],
                "hand": _cards(state, p["hand"]) if mine else None,
                "hand_size": len(p["hand"]),
                "deck_size": len(p["deck"]),
                "discard": _cards(state, p["discard"]),
                "laid_spells": _cards(state, p["limbo"]),
                "removed": _cards(state, p["removed"]),
                "row": [
                    {
                        "uid": e["uid"],
                        "card": state["cards"][e["uid"]],
                        "life": e["life"],
                        "frozen": e["frozen"] > 0,
                        "frozen_until": e["frozen"],
                        "magic": e["magic"],
                        "new": e["new"],
                    }
                    for e in p["row"]
                ],
            }
        )
    shop = state["shop"]
    return {
        "seat": seat,
        "turn": state["turn"],
        "active": state["active"],
        "phase": state["phase"],
        "pending": list(state["pending"]),
        "colour_check": state["colour"],
        "purchases": state["buys"],
        "options": _public_options(state["options"]),
        "shop_colours": state["shop_colours"],
        "winner": state["winner"],
        "players": players,
        "shop": {
            "offer": _cards(state, shop["offer"]),
            "deck_size": len(shop["deck"]),
            "removed": _cards(state, shop["removed"]),
        },
    }


def _public_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options with an arrangement reduced to whether there was one (it is a deck order)."""
    return {**options, "arranged": options["arranged"] is not None}


def redact(state: State, event: Event, seat: int | None) -> Event:
    """Shuffles show only their size; another seat's drawn cards only their number; an
    arrangement only that there was one."""
    t = event["type"]
    if t == "GameStarted":
        return {**event, "options": _public_options(event["options"])}
    if t in _SHUFFLES:
        out = {k: v for k, v in event.items() if k != "deck"}
        out["size"] = len(event["deck"])
        return out
    if t == "CardsDrawn" and event["seat"] != seat:
        return {"type": t, "seat": event["seat"], "count": len(event["cards"])}
    return event


def recall(now: State, then: State, seat: int | None) -> dict[str, Any]:
    """A past table as ``seat`` may recall it while the game runs: exactly what it saw then
    (a hand seen then is its own; nothing shown face up is hidden again later)."""
    return view(then, seat)
