"""Folding events into the state: the map (``features.place``), the pack, the phase of the turn, the
supplies, the magic figures and the scores. Every handler returns a new state; the input is left alone."""

from __future__ import annotations

from typing import Any

from games.carcassonne import features, magic, scoring, tiles
from games.interface import Event, State

#: Followers each player starts with.
FOLLOWERS = 7


def _started(_: State, e: Event) -> dict[str, Any]:
    n = e["seats"]
    mw = e["mage_witch"]
    arranged = list(e["options"].get("arranged", []))
    s: dict[str, Any] = {
        **features.empty_map(),
        "seats": n,
        "mage_witch": mw,
        "phase": "drawing",
        "turn": 0,
        "current": None,
        "remaining": [t for t in tiles.tile_ids(mw) if t != tiles.START],
        "queue": arranged,
        "discarded": [],
        "supply": [FOLLOWERS] * n,
        "mage": None,
        "witch": None,
        "scores": [dict.fromkeys(scoring.PARTS, 0) for _ in range(n)],
        "last": None,
    }
    start = e["start"]
    s = features.place(s, start["tile"], start["x"], start["y"], start["rotation"])
    s["completed"] = []
    return s


def _take(s: dict[str, Any], tile: str) -> dict[str, Any]:
    s = dict(s)
    if s["queue"] and s["queue"][0] == tile:
        s["queue"] = s["queue"][1:]
    rem = list(s["remaining"])
    rem.remove(tile)
    s["remaining"] = rem
    return s


def _drawn(s: dict[str, Any], e: Event) -> dict[str, Any]:
    s = _take(s, e["tile"])
    s.update(current=e["tile"], phase="tile", turn=e["seat"])
    return s


def _discarded(s: dict[str, Any], e: Event) -> dict[str, Any]:
    s = _take(s, e["tile"])
    s["discarded"] = [*s["discarded"], e["tile"]]
    return s


def _after_conflict(s: dict[str, Any]) -> dict[str, Any]:
    """Enter the magic step when the new tile bears the mage symbol and there is anything to do."""
    s["phase"] = "follower"
    if s["mage_witch"]:
        tile, _, _, r = s["tiles"][s["last"]]
        if tiles.of(tile, r).mage:
            s["phase"] = "magic" if magic.has_step(s) else "follower"
    return s


def _tile_placed(s: dict[str, Any], e: Event) -> dict[str, Any]:
    s = features.place(s, e["tile"], e["x"], e["y"], e["rotation"])
    s.update(current=None, last=len(s["tiles"]) - 1)
    if s["mage_witch"] and magic.in_conflict(s):
        s["phase"] = "conflict"
        return s
    return _after_conflict(s)


def _seg_at(s: dict[str, Any], e: Event) -> str:
    t = s["grid"][f"{e['x']},{e['y']}"]
    return f"{t}:{e['feature']}"


def _magic_placed(s: dict[str, Any], e: Event) -> dict[str, Any]:
    s = dict(s)
    s[e["figure"]] = _seg_at(s, e)
    return _after_conflict(s) if s["phase"] == "conflict" else {**s, "phase": "follower"}


def _magic_removed(s: dict[str, Any], e: Event) -> dict[str, Any]:
    s = dict(s)
    s[e["figure"]] = None
    return _after_conflict(s) if s["phase"] == "conflict" else {**s, "phase": "follower"}


def _follower_placed(s: dict[str, Any], e: Event) -> dict[str, Any]:
    s = dict(s)
    seg = _seg_at(s, e)
    fid = s["owner"][seg]
    s["features"] = _with_followers(s["features"], fid, [*s["features"][fid]["followers"], [e["seat"], seg]])
    supply = list(s["supply"])
    supply[e["seat"]] -= 1
    s.update(supply=supply, phase="scoring")
    return s


def _with_followers(feats: dict[str, Any], fid: str, followers: list[list[Any]]) -> dict[str, Any]:
    """``feats`` with ``fid``'s followers replaced: ``.copy()``, as a merge-thinned dict copies fast."""
    feats = feats.copy()
    feats[fid] = {**feats[fid], "followers": followers}
    return feats


def _skipped(s: dict[str, Any], e: Event) -> dict[str, Any]:
    return {**s, "phase": "scoring"}


def _feature_scored(s: dict[str, Any], e: Event) -> dict[str, Any]:
    s = dict(s)
    part = scoring.PART[e["kind"]]
    scores = list(s["scores"])
    for seat in e["winners"]:
        scores[seat] = {**scores[seat], part: scores[seat][part] + e["points"]}
    s["scores"] = scores
    if e["final"]:
        return s
    fid = e["feature"]
    rec = s["features"][fid]
    supply = list(s["supply"])
    for seat, _ in rec["followers"]:
        supply[seat] += 1
    s["supply"] = supply
    s["features"] = _with_followers(s["features"], fid, [])
    if e["figure"]:
        s[e["figure"]] = None
    return s


def _ended(s: dict[str, Any], e: Event) -> dict[str, Any]:
    return {**s, "phase": "over", "current": None}


_EVENTS = {
    "GameStarted": _started,
    "TileDrawn": _drawn,
    "TileDiscarded": _discarded,
    "TilePlaced": _tile_placed,
    "MagicFigurePlaced": _magic_placed,
    "MagicFigureRemoved": _magic_removed,
    "FollowerPlaced": _follower_placed,
    "FollowerSkipped": _skipped,
    "FeatureScored": _feature_scored,
    "GameEnded": _ended,
}


def evolve(state: State, event: Event) -> State:
    return _EVENTS[event["type"]](state, event)
