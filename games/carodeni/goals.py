"""Goal tokens: what a clan must hold to claim one, and who claims what when."""

from __future__ import annotations

from typing import Any

from games.carodeni import content
from games.carodeni.payment import tool_kind


def side(goal: dict[str, Any]) -> dict[str, Any]:
    """The condition and points of a goal in the row (the side it lies on)."""
    return dict(content.goals()[goal["token"]][goal["side"]])


def met(player: dict[str, Any], condition: dict[str, Any]) -> bool:
    """Goals count the clan only: witches by banner (main or secondary), brewed potions by
    banner (the pale ``?`` matches no colour), different tools, different animals."""
    kind = condition["kind"]
    if kind == "witches":
        n = sum(1 for w in player["clan_witches"] if condition["colour"] in content.banners(w))
        return n >= condition["count"]
    if kind == "potions":
        n = sum(1 for p in player["clan_potions"] if content.potion_card(p)["colour"] == condition["colour"])
        return n >= condition["count"]
    if kind == "tools":
        have = {tool_kind(c) for c in player["clan_tools"]}
        return set(condition["tools"]) <= have
    have = {content.witches()[c]["animal"] for c in player["clan_animals"]}
    return set(condition["animals"]) <= have


def claims(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """``GoalClaimed`` events for every unclaimed goal that ``seat`` now meets, left to right.

    In the solo game on the novice difficulty Ostara never claims goals."""
    if seat == state["ostara"] and state["difficulty"] == "novice":
        return []
    player = state["players"][seat]
    out = []
    for i, goal in enumerate(state["goals"]):
        if goal["claimed_by"] is None and met(player, side(goal)):
            out.append(
                {
                    "type": "GoalClaimed",
                    "seat": seat,
                    "goal": i,
                    "token": goal["token"],
                    "side": goal["side"],
                    "points": side(goal)["points"],
                }
            )
    return out
