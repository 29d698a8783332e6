"""The map's features as incremental records, merged as tiles join them.

Every feature of every placed tile is a *segment* ``"<t>:<i>"`` (placement index, feature index on
the tile). Segments that touch across edges form one feature record in ``features`` (keyed by an id
string), found through ``owner`` (segment → feature id). When a tile joins two features, the smaller
record is merged into the larger and its segments are re-owned, so lookups stay O(1) and the state
stays plain JSON. A road or city counts its ``open`` edges (sides not yet matched by a neighbour);
a monastery counts its missing neighbours: a feature is complete exactly when ``open`` is 0.
"""

from __future__ import annotations

from typing import Any

from games.carcassonne import tiles

Rec = dict[str, Any]


def empty_map() -> dict[str, Any]:
    return {
        "tiles": [],
        "grid": {},
        "owner": {},
        "features": {},
        "next_fid": 0,
        "frontier": {},
        "completed": [],
    }


def tiles_in(rec: Rec) -> int:
    """How many tiles a feature covers (a tile with two segments of one city counts once)."""
    segs = rec["segs"]
    if len(segs) == 1:
        return 1
    return len({s.split(":", 1)[0] for s in segs})


def position(s: dict[str, Any], seg: str) -> dict[str, int]:
    """Where a segment lies, as commands and events name it: ``{x, y, feature}``."""
    t, i = seg.split(":")
    _, x, y, _ = s["tiles"][int(t)]
    return {"x": x, "y": y, "feature": int(i)}


class _Features:
    """The feature lookups of a map being changed by one tile: copied once, each record copied the
    first time it changes (``fresh``), so the state the tile is laid on is left alone."""

    def __init__(self, s: dict[str, Any]) -> None:
        self.owner: dict[str, str] = s["owner"].copy()
        self.feats: dict[str, Rec] = s["features"].copy()
        self.fresh: set[str] = set()
        self.next_fid: int = s["next_fid"]

    def add(self, seg: str, rec: Rec) -> None:
        fid = str(self.next_fid)
        self.next_fid += 1
        self.feats[fid] = rec
        self.fresh.add(fid)
        self.owner[seg] = fid

    def own(self, fid: str) -> Rec:
        """The record of ``fid``, copied if this tile has not changed it yet."""
        if fid not in self.fresh:
            old = self.feats[fid]
            self.feats[fid] = {**old, "segs": list(old["segs"]), "followers": list(old["followers"])}
            self.fresh.add(fid)
        return self.feats[fid]

    def merge(self, a: str, b: str) -> str:
        """One feature of ``a`` and ``b``: the smaller record joins the larger, its segments re-owned."""
        if a == b:
            return a
        ra, rb = self.feats[a], self.feats[b]
        if len(rb["segs"]) > len(ra["segs"]):
            a, b, ra, rb = b, a, rb, ra
        merged: Rec = {
            "kind": ra["kind"],
            "segs": ra["segs"] + rb["segs"],
            "open": ra["open"] + rb["open"],
            "shields": ra["shields"] + rb["shields"],
            "followers": ra["followers"] + rb["followers"],
        }
        if "cities" in ra:
            merged["cities"] = ra["cities"] + rb["cities"]
        for seg in rb["segs"]:
            self.owner[seg] = a
        self.feats[a] = merged
        self.fresh.add(a)
        del self.feats[b]
        return a


def place(s: dict[str, Any], tile: str, x: int, y: int, rotation: int) -> dict[str, Any]:
    """``s`` with ``tile`` laid at ``(x, y)``: features created and merged, completions recorded.

    Copies only what changes (the lookups and the records it touches); ``s`` is left alone. The copies
    are ``.copy()``: unlike ``dict(d)``, it stays a flat copy after merges have deleted keys.
    ``completed`` lists the features this tile completed, in the tile's feature order.
    """
    o = tiles.of(tile, rotation)
    t = len(s["tiles"])
    grid = s["grid"].copy()
    grid[f"{x},{y}"] = t
    placed = [*s["tiles"], [tile, x, y, rotation]]
    fs = _Features(s)
    _add_segments(fs, o, t)
    sides, ring = tiles.keys_around(x, y)
    _join_neighbours(fs, o, t, sides, grid, placed)
    completed = _completed(fs, o, t, ring, grid, placed)
    return {
        **s,
        "tiles": placed,
        "grid": grid,
        "owner": fs.owner,
        "features": fs.feats,
        "next_fid": fs.next_fid,
        "frontier": _frontier(s["frontier"], o, x, y, sides, grid),
        "completed": completed,
    }


def _add_segments(fs: _Features, o: tiles.Oriented, t: int) -> None:
    """A new feature record for every segment of the new tile."""
    mine = tiles.segments(t)
    for i, f in enumerate(o.features):
        rec: Rec = {
            "kind": f.kind,
            "segs": [mine[i]],
            "open": len(f.edges),
            "shields": int(f.shield),
            "followers": [],
        }
        if f.kind == "field":
            rec["cities"] = [mine[c] for c in f.cities]
        fs.add(mine[i], rec)


def _join_neighbours(
    fs: _Features, o: tiles.Oriented, t: int, sides: tuple[str, ...], grid: dict[str, int], placed: list[Any]
) -> None:
    """Merge the new tile's features with those across each edge it shares with a neighbour: a road
    or city edge closes two open edges, the two halves of a side join fields."""
    mine = tiles.segments(t)
    for d, key in enumerate(sides):
        nt = grid.get(key)
        if nt is None:
            continue
        ntile, _, _, nr = placed[nt]
        no = tiles.of(ntile, nr)
        theirs = tiles.segments(nt)
        od = (d + 2) % 4
        lf = o.edge_feature[d]
        if lf >= 0:
            m = fs.merge(fs.owner[mine[lf]], fs.owner[theirs[no.edge_feature[od]]])
            fs.own(m)["open"] -= 2
        for k in (0, 1):
            lf = o.half_feature[2 * d + k]
            if lf >= 0:
                fs.merge(fs.owner[mine[lf]], fs.owner[theirs[no.half_feature[2 * od + 1 - k]]])


def _completed(
    fs: _Features, o: tiles.Oriented, t: int, ring: tuple[str, ...], grid: dict[str, int], placed: list[Any]
) -> list[str]:
    """The features the tile completed: monasteries around it (now surrounded), its own monastery,
    then its roads and cities with no open edge left, in that order."""
    mine = tiles.segments(t)
    completed: list[str] = []
    neighbours = 0
    for key in ring:
        nt = grid.get(key)
        if nt is None:
            continue
        neighbours += 1
        ntile, _, _, nr = placed[nt]
        mon = tiles.of(ntile, nr).monastery
        if mon >= 0:
            fid = fs.owner[tiles.segments(nt)[mon]]
            rec = fs.own(fid)
            rec["open"] -= 1
            if rec["open"] == 0:
                completed.append(fid)
    if o.monastery >= 0:
        fid = fs.owner[mine[o.monastery]]
        fs.own(fid)["open"] = 8 - neighbours
        if neighbours == 8:
            completed.append(fid)
    for i, f in enumerate(o.features):
        if f.kind in ("road", "city"):
            fid = fs.owner[mine[i]]
            if fs.feats[fid]["open"] == 0 and fid not in completed:
                completed.append(fid)
    return completed


def _frontier(
    old: dict[str, Any], o: tiles.Oriented, x: int, y: int, sides: tuple[str, ...], grid: dict[str, int]
) -> dict[str, Any]:
    """The free squares beside the map with the edge pattern a tile there must match."""
    frontier = old.copy()
    frontier.pop(f"{x},{y}", None)
    for d, key in enumerate(sides):
        if key in grid:
            continue
        dx, dy = tiles.DELTA[d]
        entry = frontier.get(key)
        pattern = list(entry[2]) if entry else ["?"] * 4
        pattern[(d + 2) % 4] = o.edges[d]
        frontier[key] = [x + dx, y + dy, "".join(pattern)]
    return frontier


def placements(s: dict[str, Any], tile: str) -> list[list[int]]:
    """Every ``[x, y, rotation]`` where ``tile`` touches the map with all edges matching.

    Sorted, so the order never depends on how a stored state's objects were keyed (jsonb reorders).
    """
    fitting = tiles.fitting(tiles.tile_type(tile))
    out = [[x, y, r] for x, y, pattern in s["frontier"].values() for r in fitting[pattern]]
    out.sort()
    return out


def fits(s: dict[str, Any], tile: str, x: int, y: int, rotation: int) -> bool:
    """Whether ``[x, y, rotation]`` is among :func:`placements`, without listing them."""
    entry = s["frontier"].get(f"{x},{y}")
    return entry is not None and rotation in tiles.fitting(tiles.tile_type(tile))[entry[2]]


def fits_somewhere(s: dict[str, Any], tile: str) -> bool:
    fitting = tiles.fitting(tiles.tile_type(tile))
    return any(fitting[p] for _, _, p in s["frontier"].values())
