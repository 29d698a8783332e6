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
    owner = s["owner"].copy()
    feats = s["features"].copy()
    fresh: set[str] = set()
    nf = s["next_fid"]
    mine = tiles.segments(t)
    for i, f in enumerate(o.features):
        seg = mine[i]
        fid = str(nf)
        nf += 1
        rec: Rec = {
            "kind": f.kind,
            "segs": [seg],
            "open": len(f.edges),
            "shields": int(f.shield),
            "followers": [],
        }
        if f.kind == "field":
            rec["cities"] = [mine[c] for c in f.cities]
        feats[fid] = rec
        fresh.add(fid)
        owner[seg] = fid

    def own(fid: str) -> Rec:
        if fid not in fresh:
            old = feats[fid]
            feats[fid] = {**old, "segs": list(old["segs"]), "followers": list(old["followers"])}
            fresh.add(fid)
        rec: Rec = feats[fid]
        return rec

    def merge(a: str, b: str) -> str:
        if a == b:
            return a
        ra, rb = feats[a], feats[b]
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
            owner[seg] = a
        feats[a] = merged
        fresh.add(a)
        del feats[b]
        return a

    sides, ring = tiles.keys_around(x, y)
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
            m = merge(owner[mine[lf]], owner[theirs[no.edge_feature[od]]])
            own(m)["open"] -= 2
        for k in (0, 1):
            lf = o.half_feature[2 * d + k]
            if lf >= 0:
                merge(owner[mine[lf]], owner[theirs[no.half_feature[2 * od + 1 - k]]])

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
            fid = owner[tiles.segments(nt)[mon]]
            rec = own(fid)
            rec["open"] -= 1
            if rec["open"] == 0:
                completed.append(fid)
    if o.monastery >= 0:
        fid = owner[mine[o.monastery]]
        own(fid)["open"] = 8 - neighbours
        if neighbours == 8:
            completed.append(fid)
    for i, f in enumerate(o.features):
        if f.kind in ("road", "city"):
            fid = owner[mine[i]]
            if feats[fid]["open"] == 0 and fid not in completed:
                completed.append(fid)

    frontier = s["frontier"].copy()
    frontier.pop(f"{x},{y}", None)
    for d, key in enumerate(sides):
        if key in grid:
            continue
        dx, dy = tiles.DELTA[d]
        entry = frontier.get(key)
        pattern = list(entry[2]) if entry else ["?"] * 4
        pattern[(d + 2) % 4] = o.edges[d]
        frontier[key] = [x + dx, y + dy, "".join(pattern)]

    return {
        **s,
        "tiles": placed,
        "grid": grid,
        "owner": owner,
        "features": feats,
        "next_fid": nf,
        "frontier": frontier,
        "completed": completed,
    }


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
