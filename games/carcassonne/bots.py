"""Bots: ``random`` (uniform over the legal actions), ``default`` (a one-ply heuristic, whose
:func:`appraise` of every command, :func:`estimate` of a feature and :func:`follower_price` the
search also uses) and ``strong`` (:mod:`games.search`, which ``search.py`` here lends what it needs).

The default bot values each feature it might touch as the points it would bring (completed: what
it scores now; incomplete: its end-game value plus a share of the completion bonus), counted for the
bot and against the rivals, and prices a follower by how many it has left (farmers stay for good,
so they cost more while the pack is big). It puts the mage where it leads and the witch where a rival
leads. It reads only its own view: the public map and feature graph.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from games.carcassonne import features, scoring, tiles
from games.carcassonne.features import Rec
from games.interface import Bot, Command
from games.rng import Rng
from games.search import search

S = dict[str, Any]


def random_bot(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    return rng.choice(actions)


def estimate(s: S, fid: str, rec: Rec | None = None) -> float:
    """What the feature is likely worth to each of its majority holders (``s`` a view, or a state
    with ``pack_size``): a complete one or a field what it scores, an open one a share of its
    completion bonus too while the pack lasts. ``rec``: the feature as it would be, if not as it is."""
    rec = s["features"][fid] if rec is None else rec
    kind = rec["kind"]
    if kind == "field":  # what it scores now, and a point for each open city it touches
        owner, feats = s["owner"], s["features"]
        still_open = {owner[c] for c in rec["cities"] if feats[owner[c]]["open"] > 0}
        return float(scoring.points(s, fid, rec)) + 1.0 * len(still_open)
    if rec["open"] == 0:
        return float(scoring.points(s, fid, rec))
    late = s["pack_size"] < 10
    p = float(scoring.points(s, fid, rec))
    if kind == "city" and not late:
        p += p * 0.8 / rec["open"]
    elif kind == "road" and not late:
        p += 0.5 / rec["open"]
    elif kind == "monastery" and not late:
        p += 0.4 * rec["open"]
    return p


def _worth(s: S, fid: str, me: int, rec: Rec | None = None) -> float:
    """The feature's worth to ``me``: its estimate if ``me`` leads it, less a share of it for every
    rival that does (the bot plays to win, not only to score), plus the followers it returns."""
    rec = s["features"][fid] if rec is None else rec
    if not rec["followers"]:
        return 0.0
    winners = scoring.majority(rec)
    p = estimate(s, fid, rec)
    rivals = sum(1 for w in winners if w != me)
    value = (p if me in winners else 0.0) - p * rivals / max(1, s["seats"] - 1)
    if rec["open"] == 0 and rec["kind"] != "field":
        value += _follower_value(s) * sum(1 for seat, _ in rec["followers"] if seat == me)
    return value


def follower_price(left: int, pack_size: int) -> float:
    """What placing one of the ``left`` followers in hand costs while ``pack_size`` tiles remain:
    the more are out, the dearer the next; little once the pack is nearly done."""
    return 1.0 + 0.4 * (7 - left) if pack_size > 5 else 0.2


def _follower_value(s: S) -> float:
    return follower_price(s["supply"][s["seat"]], s["pack_size"])


def _segs_around(s: S, x: int, y: int) -> list[str]:
    out: list[str] = []
    grid = s["grid"]
    for dx, dy in (*tiles.DELTA, *tiles.RING):
        t = grid.get(f"{x + dx},{y + dy}")
        if t is not None:
            tile, _, _, r = s["tiles"][t]
            out.extend(f"{t}:{i}" for i in range(len(tiles.of(tile, r).features)))
    return out


def _total(s: S, segs: list[str], me: int) -> float:
    owner = s["owner"]
    return sum(_worth(s, fid, me) for fid in sorted({owner[g] for g in segs}))


def _follower_gain(s: S, t: int, i: int, me: int) -> float:
    """The value of a follower of ``me`` on feature ``i`` of placed tile ``t``, less its price."""
    fid = s["owner"][f"{t}:{i}"]
    rec = s["features"][fid]
    if rec["followers"]:
        return float("-inf")
    gain = _worth(s, fid, me, {**rec, "followers": [[me, f"{t}:{i}"]]})
    if rec["open"] == 0 and rec["kind"] != "field":
        return gain - _follower_value(s)
    price = _follower_value(s)
    if rec["kind"] == "field":
        price += 3.0 if s["pack_size"] > 25 else 0.5
    return gain - price


def _best_follower_gain(s: S, t: int, me: int) -> float:
    if s["supply"][me] <= 0:
        return 0.0
    tile, _, _, r = s["tiles"][t]
    n = len(tiles.of(tile, r).features)
    return max(0.0, *(_follower_gain(s, t, i, me) for i in range(n)))


def _as_state(view: Mapping[str, Any]) -> S:
    s = dict(view)
    s["mage"], s["witch"] = view["mage_seg"], view["witch_seg"]
    return s


@cache
def _shape(type_id: str, rotation: int) -> tuple[tuple[str, frozenset[int], frozenset[int]], ...]:
    """What a rotation looks like once laid: rotations of a symmetric tile that look alike score alike."""
    o = tiles.oriented(type_id, rotation)
    return tuple((f.kind, frozenset(f.edges), frozenset(f.halves)) for f in o.features)


def _tile(s: S, actions: list[Command]) -> list[float]:
    me = s["seat"]
    tile = s["current_tile"]["tile"]
    type_id = tiles.tile_type(tile)
    around: dict[tuple[int, int], tuple[list[str], float]] = {}
    seen: dict[tuple[Any, ...], float] = {}
    scored = []
    for a in actions:
        x, y = a["x"], a["y"]
        key = (x, y, _shape(type_id, a["rotation"]))
        if key in seen:
            scored.append(seen[key])
            continue
        if (x, y) not in around:
            segs = _segs_around(s, x, y)
            around[x, y] = (segs, _total(s, segs, me))
        segs, before = around[x, y]
        s2 = features.place(s, tile, x, y, a["rotation"])
        t = len(s2["tiles"]) - 1
        new = [f"{t}:{i}" for i in range(len(tiles.of(tile, a["rotation"]).features))]
        value = _total(s2, segs + new, me) - before + _best_follower_gain(s2, t, me)
        seen[key] = value
        scored.append(value)
    return scored


def _magic(s: S, actions: list[Command]) -> list[float]:
    me = s["seat"]
    scored = []
    for a in actions:
        fig = a["figure"]
        s2 = dict(s)
        if a["type"] == "remove_magic":
            s2[fig] = None
        else:
            t = s["grid"][f"{a['x']},{a['y']}"]
            s2[fig] = f"{t}:{a['feature']}"
        segs = [g for g in (s[fig], s2[fig]) if g is not None]
        scored.append(_total(s2, segs, me) - _total(s, segs, me))
    return scored


def _follower(s: S, actions: list[Command]) -> list[float]:
    me, t = s["seat"], s["last"]
    return [0.0 if a["type"] == "pass" else _follower_gain(s, t, a["feature"], me) for a in actions]


def appraise(view: Mapping[str, Any], actions: list[Command]) -> list[float]:
    """What each of ``actions`` (all of one step: tiles, magic or followers) is worth to the default
    bot; the search (``search.py``) weighs the ones valued most."""
    s = _as_state(view)
    kind = actions[0]["type"]
    if kind == "place_tile":
        return _tile(s, actions)
    if kind in ("place_magic", "remove_magic"):
        return _magic(s, actions)
    return _follower(s, actions)


def default_bot(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    values = appraise(view, actions)
    best = max(values)
    return rng.choice([a for v, a in zip(values, actions, strict=True) if v >= best - 1e-9])


def _strong(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    """IS-MCTS over the seat's information set (games/search.py)."""
    from games.carcassonne.search import searchable  # it builds on this module's estimates

    return search(searchable(), view, actions, rng)


BOTS: dict[str, Bot] = {"random": random_bot, "default": default_bot, "strong": _strong}
