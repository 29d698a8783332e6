"""Invariants every Carcassonne state keeps, checked after events by the rules and random-game tests:
``check_state`` (tiles and followers conserved, figures placed legally, scores equal to their events)
and ``check_deep`` (the feature records against a fresh replay of the map)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import games.carcassonne as game
from games.carcassonne import features, tiles
from games.interface import Event


def check_state(state: dict[str, Any], events: list[Event] | None = None) -> None:
    """The invariants that hold after every event."""
    mw = state["mage_witch"]
    every = tiles.tile_ids(mw)
    accounted = [t for t, *_ in state["tiles"]] + state["remaining"] + state["discarded"]
    if state["current"] is not None:
        accounted.append(state["current"])
    assert Counter(accounted) == Counter(every), "every tile is placed, in the pack, discarded or in hand"
    assert len(every) == (80 if mw else 72)
    on_board = Counter(seat for rec in state["features"].values() for seat, _ in rec["followers"])
    for seat in range(state["seats"]):
        assert state["supply"][seat] + on_board[seat] == 7, "followers are conserved"
        assert state["supply"][seat] >= 0
    if state["phase"] != "conflict" and state["mage"] is not None and state["witch"] is not None:
        assert state["owner"][state["mage"]] != state["owner"][state["witch"]], "one feature, two figures"
    for fig in ("mage", "witch"):
        if state[fig] is not None:
            fid = state["owner"][state[fig]]
            rec = state["features"][fid]
            assert rec["kind"] in ("road", "city")
            assert rec["open"] > 0 or fid in state["completed"], "figures leave at scoring"
    for rec in state["features"].values():
        assert rec["open"] >= 0
        if rec["kind"] != "field":
            assert len(rec["followers"]) <= 7 * state["seats"]
    sc = game.score(state)
    for s in sc["seats"]:
        assert s["total"] == sum(s["breakdown"].values())
    if events is not None:
        from_events = [Counter() for _ in range(state["seats"])]  # type: ignore[var-annotated]
        for e in events:
            if e["type"] == "FeatureScored":
                for w in e["winners"]:
                    from_events[w][e["kind"]] += e["points"]
        for seat, parts in enumerate(state["scores"]):
            assert parts["roads"] == from_events[seat]["road"]
            assert parts["cities"] == from_events[seat]["city"]
            assert parts["monasteries"] == from_events[seat]["monastery"]
            assert parts["fields"] == from_events[seat]["field"]


def check_deep(state: dict[str, Any]) -> None:
    """Slower checks: the feature records equal a fresh replay of the map, and JSON round-trips."""
    replay = features.empty_map()
    for tile, x, y, r in state["tiles"]:
        replay = features.place(replay, tile, x, y, r)
    assert replay["owner"].keys() == state["owner"].keys()
    groups_a = {frozenset(rec["segs"]) for rec in state["features"].values()}
    groups_b = {frozenset(rec["segs"]) for rec in replay["features"].values()}
    assert groups_a == groups_b, "incremental merging equals a fresh replay"
    for rec in state["features"].values():
        other = replay["features"][replay["owner"][rec["segs"][0]]]
        assert other["open"] == rec["open"] and other["shields"] == rec["shields"]
    assert json.loads(json.dumps(state)) == state
