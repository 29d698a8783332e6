"""Builders and drivers for the Škoda kouzla tests: ``new_game`` (a real setup), ``apply`` (decide and fold
one command), and edits that put cards where a test needs them (``put``, ``main_phase``)."""

from __future__ import annotations

import json
from typing import Any

from games import skodakouzla as game
from games.rng import Rng
from games.simulate import fold

State = dict[str, Any]


def new_game(options: dict[str, Any] | None = None, seed: bytes = b"table") -> State:
    return fold(game, game.setup(dict(options or {}), 2, Rng(seed, "setup")))


def _where(state: State, uid: str) -> tuple[list[Any], Any]:
    for p in state["players"]:
        for zone in ("deck", "hand", "discard", "limbo", "removed"):
            if uid in p[zone]:
                return p[zone], uid
        for e in p["row"]:
            if e["uid"] == uid:
                return p["row"], e
    for zone in ("deck", "offer", "removed", "unused"):
        if uid in state["shop"][zone]:
            return state["shop"][zone], uid
    raise LookupError(uid)


def _busy(state: State, uid: str) -> bool:
    return any(e["uid"] == uid for p in state["players"] for e in p["row"]) or any(
        uid in p[z] for p in state["players"] for z in ("hand", "limbo", "removed")
    )


def put(
    state: State,
    seat: int,
    card_id: str,
    zone: str = "row",
    *,
    end: str = "right",
    life: int | None = None,
    frozen: int = 0,
    new: bool = False,
) -> str:
    """Move a free copy of ``card_id`` (the seat's own starter card, or a shop card) into a zone."""
    owned = [
        u
        for u, c in state["cards"].items()
        if c == card_id and (u.startswith(f"p{seat}.") or u.startswith("s"))
    ]
    for uid in sorted(owned):
        if _busy(state, uid):
            continue
        src, item = _where(state, uid)
        src.remove(item)
        p = state["players"][seat]
        if zone == "row":
            card = game.rules.card_of(state, uid)
            e = {
                "uid": uid,
                "life": card["life"] if life is None else life,
                "frozen": frozen,
                "magic": 0,
                "new": new,
            }
            if end == "left":
                p["row"].insert(0, e)
            else:
                p["row"].append(e)
        else:
            p[zone].append(uid)
        return uid
    raise LookupError(f"no free {card_id} for seat {seat}")


def main_phase(state: State, seat: int, magic: int = 0, hand: list[str] | None = None) -> State:
    """``seat`` in its main phase with ``magic`` and exactly the cards ``hand`` (starters first)."""
    state["active"] = seat
    state["phase"] = "main"
    state["pending"] = []
    p = state["players"][seat]
    p["deck"].extend(p["hand"])
    p["hand"] = []
    p["magic"] = magic
    for card_id in hand or []:
        put(state, seat, card_id, "hand")
    return state


def uid_in_hand(state: State, seat: int, card_id: str) -> str:
    return next(u for u in state["players"][seat]["hand"] if state["cards"][u] == card_id)


def apply(state: State, seat: int, command: dict[str, Any], seed: bytes = b"cmd") -> tuple[State, list[Any]]:
    """Decide and fold, checking that the command was offered and that a JSON round trip folds alike."""
    assert command in game.legal_actions(state, seat), command
    events = game.decide(state, seat, command, Rng(seed, "v"))
    after = fold(game, events, state)
    again = fold(game, json.loads(json.dumps(events)), json.loads(json.dumps(state)))
    assert again == after
    return after, events


def row_life(state: State, seat: int) -> list[tuple[str, int]]:
    return [(state["cards"][e["uid"]], e["life"]) for e in state["players"][seat]["row"]]


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]
