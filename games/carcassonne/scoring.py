"""Points of features: the base game's values, the magic figures' modifiers, majorities.

A completed road scores 1 per tile, a completed city 2 per tile and 2 per shield, a completed
monastery 9. At the end an incomplete road or city scores 1 per tile (and shield), a monastery 1 plus
its neighbours, and a field 3 per completed city it touches. The mage adds 1 per tile of its road or
city and the witch halves its points, rounded up, during play and at the end alike.
"""

from __future__ import annotations

from typing import Any

from games.carcassonne.features import Rec, tiles_in

#: The breakdown part each kind of feature scores into.
PART = {"road": "roads", "city": "cities", "monastery": "monasteries", "field": "fields"}
PARTS = ("roads", "cities", "monasteries", "fields")


def figure_on(s: dict[str, Any], fid: str) -> str | None:
    """``"mage"``/``"witch"`` when that magic figure stands on the feature ``fid``."""
    for fig in ("mage", "witch"):
        seg = s.get(fig)
        if seg is not None and s["owner"][seg] == fid:
            return fig
    return None


def base_points(s: dict[str, Any], rec: Rec) -> int:
    """The feature's value before magic: completed or (at the end) incomplete."""
    kind = rec["kind"]
    done = rec["open"] == 0
    if kind == "road":
        return tiles_in(rec)
    if kind == "city":
        n = tiles_in(rec) + rec["shields"]
        return 2 * n if done else n
    if kind == "monastery":
        return 9 - rec["open"]
    return 3 * len(completed_cities(s, rec))


def completed_cities(s: dict[str, Any], rec: Rec) -> list[str]:
    """The completed cities a field touches, each once."""
    owner, feats = s["owner"], s["features"]
    out: list[str] = []
    for seg in rec["cities"]:
        fid = owner[seg]
        if feats[fid]["open"] == 0 and fid not in out:
            out.append(fid)
    return out


def points(s: dict[str, Any], fid: str, rec: Rec | None = None) -> int:
    """What each majority holder of ``fid`` scores, magic figures applied (``rec``: the feature as it
    would be, for a bot weighing a follower it has not placed)."""
    rec = s["features"][fid] if rec is None else rec
    p = base_points(s, rec)
    if rec["kind"] in ("road", "city"):
        fig = figure_on(s, fid)
        if fig == "mage":
            p += tiles_in(rec)
        elif fig == "witch":
            p = (p + 1) // 2
    return p


def majority(rec: Rec) -> list[int]:
    """The seats with the most followers on the feature (all of them on a tie)."""
    counts: dict[int, int] = {}
    for seat, _ in rec["followers"]:
        counts[seat] = counts.get(seat, 0) + 1
    if not counts:
        return []
    top = max(counts.values())
    return sorted(seat for seat, n in counts.items() if n == top)


def score(s: dict[str, Any]) -> dict[str, Any]:
    """The running (and, once over, final) score: per-seat breakdowns and the leaders."""
    seats = []
    for i, parts in enumerate(s["scores"]):
        seats.append({"seat": i, "total": sum(parts.values()), "breakdown": dict(parts)})
    best = max(x["total"] for x in seats)
    return {"seats": seats, "winners": [x["seat"] for x in seats if x["total"] == best]}
