"""The result of a duel."""

from __future__ import annotations

from typing import Any

from games.skodakouzla.state import State


def score(state: State) -> dict[str, Any]:
    """A duel: each wizard's remaining life; the winner is the wizard still alive."""
    seats = [
        {"seat": i, "total": max(0, p["life"]), "breakdown": {"life": max(0, p["life"])}}
        for i, p in enumerate(state["players"])
    ]
    winners = [state["winner"]] if state["winner"] is not None else []
    return {"seats": seats, "winners": winners}
