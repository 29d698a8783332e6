"""Every command body ``decide`` accepts now, built from the same checks ``decide`` uses."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.skodakouzla.rules import (
    act_choices,
    buy_price,
    card_choices,
    lay_price,
    may_lay_spell,
    store_refusal,
)
from games.skodakouzla.state import State, card_of

Command = dict[str, Any]


def legal_actions(state: State, seat: int) -> list[Command]:
    """The exact commands of ``seat`` now; empty when it is not that wizard's turn."""
    if state["phase"] == "over" or seat != state["active"]:
        return []
    phase = state["phase"]
    if state["pending"]:
        return _resolves(state, seat)
    if phase == "main":
        return _main(state, seat)
    if phase == "colour":
        return _colour(state, seat)
    return []


def _resolves(state: State, seat: int) -> list[Command]:
    return [
        {"type": "resolve", "card": uid, **choice}
        for uid in state["pending"]
        for choice in act_choices(state, seat, uid)
    ]


def _main(state: State, seat: int) -> list[Command]:
    p = state["players"][seat]
    magic = p["magic"]
    out: list[Command] = []
    for uid in p["hand"]:
        out.append({"type": "turn_into_magic", "card": uid})
    for uid in p["hand"]:
        if lay_price(state, seat, uid) > magic:
            continue
        if card_of(state, uid)["type"] == "spell" and not may_lay_spell(state, seat, uid):
            continue
        for choice in card_choices(state, seat, uid):
            out.append({"type": "lay", "card": uid, **choice})
    offer = state["shop"]["offer"]
    for uid in offer:
        if buy_price(state, seat, uid, False) <= magic:
            out.append({"type": "buy", "card": uid})
        if state["options"]["shop_topdeck"] and buy_price(state, seat, uid, True) <= magic:
            out.append({"type": "buy", "card": uid, "top": True})
    if magic >= 1:
        for n in (1, 2):
            for pair in combinations(offer, n):
                out.append({"type": "swap_shop", "cards": list(pair)})
        for e in p["row"]:
            if "store" in card_of(state, e["uid"]) and store_refusal(state, seat, e["uid"]) is None:
                out.append({"type": "store_magic", "card": e["uid"]})
    out.append({"type": "end_phase"})
    return out


def _colour(state: State, seat: int) -> list[Command]:
    out: list[Command] = []
    options = state["colour"]
    if options["remove"]:
        out.extend({"type": "remove_card", "card": uid} for uid in state["players"][seat]["discard"])
    out.extend({"type": "promote", "colour": c} for c in options["promote"])
    out.append({"type": "end_phase"})
    return out
