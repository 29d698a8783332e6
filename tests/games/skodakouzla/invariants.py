"""Invariants every Škoda kouzla state and log must keep, checked by the random-game tests:
``check_state`` (cards conserved), ``check_event``, ``check_views`` and ``check_redacted`` (nothing
hidden shown), ``check_score``."""

from __future__ import annotations

import json
from typing import Any

from games import skodakouzla as game
from games.skodakouzla.content import shop_cards, starter_deck
from games.skodakouzla.state import max_life

State = dict[str, Any]
TOTAL = 2 * len(starter_deck()) + len(shop_cards())


def zones(state: State) -> list[str]:
    out: list[str] = []
    for p in state["players"]:
        for zone in ("deck", "hand", "discard", "limbo", "removed"):
            out.extend(p[zone])
        out.extend(e["uid"] for e in p["row"])
    for zone in ("deck", "offer", "removed", "unused"):
        out.extend(state["shop"][zone])
    return out


def check_state(state: State) -> None:
    """Cards conserved, no negative counters, no dead card in a row, a shop of at most 6 cards
    and full as a turn starts."""
    every = zones(state)
    assert len(every) == TOTAL and set(every) == set(state["cards"]), "cards not conserved"
    for p in state["players"]:
        assert p["life"] >= 0 and p["magic"] >= 0 and p["curses"] >= 0
        assert all(e["life"] > 0 and e["magic"] >= 0 for e in p["row"])
    shop = state["shop"]
    assert len(shop["offer"]) <= 6, "the shop offers more than 6 cards"
    if state["phase"] == "effects":
        assert len(shop["offer"]) >= 6 or not (shop["deck"] or shop["removed"]), "shop not refilled"
    if state["phase"] == "over":
        loser = 1 - state["winner"]
        assert state["players"][loser]["life"] == 0
        assert state["players"][state["winner"]]["life"] > 0


def check_event(before: State, after: State, event: dict[str, Any]) -> None:
    """A heal never lifts life above its maximum."""
    if event["type"] != "Healed":
        return
    p = after["players"][event["seat"]]
    if event["target"] == "wizard":
        assert p["life"] <= max_life(p)
        return
    entry = next(e for e in p["row"] if e["uid"] == event["target"])
    assert entry["life"] <= game.rules.card_of(after, entry["uid"])["life"]


def hidden(state: State, seat: int | None) -> set[str]:
    """What ``seat`` may not see: every deck (order) and the other seat's hand."""
    out = set(state["shop"]["deck"])
    for i, p in enumerate(state["players"]):
        out |= set(p["deck"])
        if i != seat:
            out |= set(p["hand"])
    return out


def _uids(text: str, candidates: set[str]) -> set[str]:
    return {u for u in candidates if f'"{u}"' in text}


def check_views(state: State) -> None:
    for seat in (0, 1, None):
        text = json.dumps(game.view(state, seat))
        leaked = _uids(text, hidden(state, seat))
        assert not leaked, f"view of {seat} shows hidden cards {sorted(leaked)}"
        if seat is not None:
            assert game.view(state, seat)["players"][1 - seat]["hand"] is None


def check_redacted(state_before: State, event: dict[str, Any]) -> None:
    """Redacted events carry no deck order and no other seat's drawn cards."""
    for seat in (0, 1, None):
        e = game.redact(state_before, event, seat)
        assert "deck" not in e
        if e["type"] == "CardsDrawn" and e["seat"] != seat:
            assert "cards" not in e


def check_score(state: State) -> None:
    result = game.score(state)
    for row in result["seats"]:
        assert row["total"] == sum(row["breakdown"].values())
        assert row["breakdown"]["life"] == state["players"][row["seat"]]["life"]
    assert result["winners"] == [state["winner"]]
    alive = [i for i, p in enumerate(state["players"]) if p["life"] > 0]
    assert result["winners"] == alive
