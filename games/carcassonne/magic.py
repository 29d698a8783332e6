"""The mage and the witch: where they may go after a tile with the mage symbol, or after a conflict.

Rulebook and footnotes: a magic figure goes onto an incomplete road or city on any tile, never onto
the other figure's feature (a feature the new tile just completed is no longer incomplete, fn. 1); a
figure already out that is moved must change feature (fn. 3); either figure may be chosen, the one
off the board included (fn. 4). With no target at all, one figure on the board is removed. When a
tile joins the two figures' features, one of them first moves to another incomplete road or city, or
is set aside when there is none (fn. 5), before anything else of the turn (fn. 6).
"""

from __future__ import annotations

from typing import Any

from games.carcassonne import features
from games.interface import Command

FIGURES = ("mage", "witch")
OTHER = {"mage": "witch", "witch": "mage"}


def feature_of(s: dict[str, Any], fig: str) -> str | None:
    seg = s.get(fig)
    return None if seg is None else s["owner"][seg]


def in_conflict(s: dict[str, Any]) -> bool:
    """Both figures out and standing on one feature (a tile has just joined theirs)."""
    m, w = feature_of(s, "mage"), feature_of(s, "witch")
    return m is not None and m == w


def _targets(s: dict[str, Any], excluded: set[str | None]) -> list[str]:
    """Segments of the eligible features, in map order (never in the order a stored object kept)."""
    out = []
    for fid, rec in s["features"].items():
        if rec["open"] > 0 and rec["kind"] in ("road", "city") and fid not in excluded:
            out.extend(rec["segs"])
    out.sort(key=_seg_key)
    return out


def _seg_key(seg: str) -> tuple[int, int]:
    t, i = seg.split(":")
    return int(t), int(i)


def _place(s: dict[str, Any], fig: str, seg: str) -> Command:
    return {"type": "place_magic", "figure": fig, **features.position(s, seg)}


def _eligible(rec: dict[str, Any]) -> bool:
    return rec["open"] > 0 and rec["kind"] in ("road", "city")


def _excluded(s: dict[str, Any], fig: str) -> set[str | None]:
    if s["phase"] == "conflict":
        return {feature_of(s, "mage")}
    return {feature_of(s, fig), feature_of(s, OTHER[fig])}


def _any_target(s: dict[str, Any]) -> bool:
    excluded = [_excluded(s, fig) for fig in FIGURES]
    return any(_eligible(rec) and any(fid not in ex for ex in excluded) for fid, rec in s["features"].items())


def has_step(s: dict[str, Any]) -> bool:
    """Whether the magic step (phase ``magic``) has anything to do: a target, or a figure to remove."""
    return _any_target(s) or any(s.get(fig) is not None for fig in FIGURES)


def allowed(s: dict[str, Any], command: Command) -> bool:
    """``command in options(s)``, without listing every option."""
    fig = command["figure"]
    if command["type"] == "remove_magic":
        on_map = s["phase"] == "conflict" or s.get(fig) is not None
        return on_map and not _any_target(s)
    t = s["grid"].get(f"{command['x']},{command['y']}")
    if t is None:
        return False
    fid = s["owner"].get(f"{t}:{command['feature']}")
    return fid is not None and _eligible(s["features"][fid]) and fid not in _excluded(s, fig)


def options(s: dict[str, Any]) -> list[Command]:
    """Every command the magic step allows now (``phase`` ``conflict`` or ``magic``)."""
    out: list[Command] = []
    if s["phase"] == "conflict":
        targets = _targets(s, {feature_of(s, "mage")})
        for fig in FIGURES:
            out.extend(_place(s, fig, seg) for seg in targets)
        return out or [{"type": "remove_magic", "figure": fig} for fig in FIGURES]
    for fig in FIGURES:
        excluded = {feature_of(s, fig), feature_of(s, OTHER[fig])}
        out.extend(_place(s, fig, seg) for seg in _targets(s, excluded))
    return out or [{"type": "remove_magic", "figure": fig} for fig in FIGURES if s.get(fig) is not None]
