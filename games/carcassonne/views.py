"""What a seat may see: everything on the table, never the order of the pack.

The map, followers, magic figures, scores, supplies and the drawn tile are public; so is the pack's
size and make-up (anyone can count the tiles played). The draw order exists only as the arranged
prefix in the options, which ``redact`` hides (the platform shows the whole log once the game is
over). The feature graph (``owner``/``features``) is public too: it is what the table shows,
pre-digested for clients and bots.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.carcassonne import features, rules, scoring, tiles
from games.interface import Event, State

#: What every seat and a spectator sees of the table, as the state keeps it.
PUBLIC = (
    "seats",
    "mage_witch",
    "phase",
    "turn",
    "supply",
    "tiles",
    "grid",
    "owner",
    "features",
    "next_fid",
    "frontier",
    "completed",
    "last",
    "discarded",
)


def _followers(s: dict[str, Any]) -> list[dict[str, Any]]:
    """In placement order, not the order a stored (jsonb) state happens to keep its features in."""
    placed = []
    for rec in s["features"].values():
        for seat, seg in rec["followers"]:
            t, i = seg.split(":")
            placed.append((int(t), int(i), seat, rec["kind"]))
    placed.sort()
    out = []
    for t, i, seat, kind in placed:
        _, x, y, _ = s["tiles"][t]
        out.append({"seat": seat, "x": x, "y": y, "feature": i, "kind": kind, "role": tiles.ROLES[kind]})
    return out


def _current(s: dict[str, Any]) -> dict[str, Any] | None:
    tile = s["current"]
    if tile is None:
        return None
    t = tiles.types()[tiles.tile_type(tile)]
    return {"tile": tile, "type": t["id"], "mage": t["mage"], "edges": t["edges"], "features": t["features"]}


def view(state: State, seat: int | None) -> dict[str, Any]:
    s = state
    out = {k: s[k] for k in PUBLIC}
    out.update(
        seat=seat,
        to_move=rules.to_move(s),
        over=s["phase"] == "over",
        current_tile=_current(s),
        placements=rules.placements(s),
        pack_size=len(s["remaining"]),
        pack=dict(sorted(Counter(map(tiles.tile_type, s["remaining"])).items())),
        board=[{"tile": t, "x": x, "y": y, "rotation": r} for t, x, y, r in s["tiles"]],
        followers=_followers(s),
        mage=None if s["mage"] is None else features.position(s, s["mage"]),
        witch=None if s["witch"] is None else features.position(s, s["witch"]),
        mage_seg=s["mage"],
        witch_seg=s["witch"],
        score=scoring.score(s),
        scores=s["scores"],
    )
    if seat is not None and s["phase"] == "follower" and seat == s["turn"]:
        out["follower_options"] = rules.follower_options(s, seat)
    return out


def redact(state: State, event: Event, seat: int | None) -> Event:
    """Only the arranged draw order is secret; the tile in play is public once drawn."""
    if event["type"] == "GameStarted" and "arranged" in event.get("options", {}):
        opts = {k: v for k, v in event["options"].items() if k != "arranged"}
        return {**event, "options": opts}
    return event


def recall(now: State, then: State, seat: int | None) -> dict[str, Any]:
    """A past table as ``seat`` may recall it while the game runs: exactly what it saw then
    (nothing once shown is hidden later: a drawn tile is public for good)."""
    return view(then, seat)
