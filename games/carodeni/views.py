"""What each seat may see: the board, the goals, every clan and everything on the table are
public; a seat's hand of witches is its own (others see how many); deck orders, the bag's
contents and order, the cards set aside and Ostara's coming tokens are nobody's."""

from __future__ import annotations

from typing import Any

from games.carodeni import content
from games.carodeni.state import Event, State, current_seat

#: A player's lists every seat sees as they are.
PUBLIC_LISTS = (
    "played",
    "potions",
    "tools",
    "animals",
    "clan_witches",
    "clan_potions",
    "clan_tools",
    "clan_animals",
    "goals",
)


def view(s: State, seat: int | None) -> dict[str, Any]:
    players = []
    for i, p in enumerate(s["players"]):
        q: dict[str, Any] = {name: list(p[name]) for name in PUBLIC_LISTS}
        q["seat"] = i
        q["ingredients"] = dict(p["ingredients"])
        q["hand_count"] = len(p["hand"])
        if i == seat:
            q["hand"] = list(p["hand"])
        players.append(q)
    out: dict[str, Any] = {
        "seat": seat,
        "seats": s["seats"],
        "solo": s["solo"],
        "difficulty": s["difficulty"],
        "animals": s["animals"],
        "order": list(s["order"]),
        "ostara": s["ostara"],
        "board": [
            dict(b, location=content.LOCATIONS[i], ingredients=list(b["ingredients"]))
            for i, b in enumerate(s["board"])
        ],
        "witch_deck": len(s["witch_deck"]),
        "potion_deck": len(s["potion_deck"]),
        "set_aside": {"witches": len(s["witch_aside"]), "potions": len(s["potion_aside"])},
        "bag": sum(s["bag"].values()),
        "goals": [_goal(g) for g in s["goals"]],
        "players": players,
        "turn": dict(s["turn"], ap=list(s["turn"]["ap"]), seat=None if s["over"] else current_seat(s)),
        "round": s["round"],
        "end_round": s["end_round"],
        "end_reason": s["end_reason"],
        "over": s["over"],
    }
    if s["ostara_state"] is not None:
        o = s["ostara_state"]
        out["ostara_tokens"] = {"stage": o["stage"], "token": o["token"], "left_in_stage": len(o["order"])}
    return out


def _goal(g: dict[str, Any]) -> dict[str, Any]:
    face = content.goals()[g["token"]][g["side"]]
    return {
        "token": g["token"],
        "side": g["side"],
        "claimed_by": g["claimed_by"],
        "kind": face["kind"],
        "points": face["points"],
    }


def redact(s: State, event: Event, seat: int | None) -> Event:
    """Deck orders (the opening event, and the set-aside cards that become a deck when one runs
    out), the bag's arrangement and Ostara's coming tokens are nobody's; a witch taken into a
    hand, or rested back into it, is its owner's (the view shows the others a count)."""
    if event["type"] == "GameStarted":
        out = dict(event)
        for name in ("witch_deck", "potion_deck", "witch_aside", "potion_aside", "bag_plan"):
            out[name] = len(event[name])
        out["ostara_plan"] = []
        out["options"] = {k: v for k, v in event["options"].items() if k != "arranged"}
        out["players"] = [
            p if i == seat else {"hand": len(p["hand"]), "potions": p["potions"]}
            for i, p in enumerate(event["players"])
        ]
        return out
    if event["type"] == "OstaraTokensShuffled":
        return {"type": event["type"], "stage": event["stage"], "order": len(event["order"])}
    if event["type"] == "DeckRanOut":
        return dict(event, aside=len(event["aside"]))
    if event.get("seat") == seat or event.get("seat") == s["ostara"]:
        return event
    if event["type"] == "ItemTaken" and event["item"] == "witch":
        return dict(event, card=None)
    if event["type"] == "Rested":
        return dict(event, witches=len(event["witches"]))
    return event


def recall(now: State, then: State, seat: int | None) -> dict[str, Any]:
    """A past table as ``seat`` may recall it while the game runs: exactly what it saw then
    (its own hand was its own; nothing shown face up is hidden again later)."""
    return view(then, seat)
