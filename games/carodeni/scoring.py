"""Final scoring: the six parts of the clan card, per seat, and the winners."""

from __future__ import annotations

from typing import Any

from games.carodeni import content
from games.carodeni.goals import side
from games.carodeni.payment import tool_kind

PARTS = ("potions", "witches", "tools", "goals", "ingredients", "animals")


def breakdown(state: dict[str, Any], seat: int) -> dict[str, int]:
    """Brewed potions, clan witches, different tools (1/3/6/10/15), claimed goals, one point per
    different leftover ingredient (max 5) and, in the variant, different animals (1/4/9/16/25).

    Ostara never scores tools; her goals count only on the harder difficulties (on novice she
    never claims any) and her animals only in the variant."""
    p = state["players"][seat]
    tracks = content.tracks()
    tools = len({tool_kind(c) for c in p["clan_tools"]})
    animals = len({content.witches()[c]["animal"] for c in p["clan_animals"]})
    out = {
        "potions": sum(content.potion_card(c)["points"] for c in p["clan_potions"]),
        "witches": sum(content.witches()[c]["points"] for c in p["clan_witches"]),
        "tools": 0 if seat == state["ostara"] else tracks["tools"][tools],
        "goals": sum(side(state["goals"][i])["points"] for i in p["goals"]),
        "ingredients": min(tracks["leftover_max"], sum(1 for n in p["ingredients"].values() if n)),
        "animals": tracks["animals"][animals] if state["animals"] else 0,
    }
    return out


def score(state: dict[str, Any]) -> dict[str, Any]:
    """Highest total wins; the rulebooks give no tie-break, so tied seats share the win."""
    seats: list[dict[str, Any]] = []
    for seat in range(state["seats"]):
        parts = breakdown(state, seat)
        seats.append({"seat": seat, "total": sum(parts.values()), "breakdown": parts})
    best = max(int(s["total"]) for s in seats)
    return {"seats": seats, "winners": [s["seat"] for s in seats if s["total"] == best]}
