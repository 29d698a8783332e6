"""The tile set as oriented, precomputed shapes: edges, features and how they rotate.

Sides are numbered clockwise ``N E S W`` = ``0 1 2 3``; a rotation ``r`` turns a tile ``r`` quarter
turns clockwise. Fields meet at edge halves, numbered clockwise from the north edge's western half
(``Nw Ne En Es Se Sw Ws Wn``), so a quarter turn adds 2 to a half. Coordinates grow east (``x``) and
north (``y``). Physical tiles are named ``<type>.<n>`` (``D.1`` is the start tile).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from typing import Any

from games.content import load_content

SIDES = "NESW"
HALVES = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
#: The step to the neighbour across each side.
DELTA = ((0, 1), (1, 0), (0, -1), (-1, 0))
#: The eight tiles around a monastery.
RING = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
#: One letter per edge kind, as frontier patterns use them (``?``: no tile there yet).
EDGE_CODE = {"city": "C", "road": "R", "field": "F"}
START = "D.1"
ROLES = {"road": "thief", "city": "knight", "monastery": "monk", "field": "farmer"}


@dataclass(frozen=True)
class Feature:
    """One feature of an oriented tile: the sides (roads, cities) or halves (fields) it reaches."""

    kind: str
    edges: tuple[int, ...]
    halves: tuple[int, ...]
    shield: bool
    cities: tuple[int, ...]


@dataclass(frozen=True)
class Oriented:
    """A tile type turned ``rotation`` quarter turns, with lookups from sides and halves to features."""

    type: str
    rotation: int
    mage: bool
    edges: str
    features: tuple[Feature, ...]
    edge_feature: tuple[int, ...]
    half_feature: tuple[int, ...]
    monastery: int


def _tile_set() -> dict[str, Any]:
    data: dict[str, Any] = load_content("carcassonne", "tiles")
    return data


@cache
def types() -> dict[str, dict[str, Any]]:
    """The tile types by letter, as the content file describes them."""
    return {t["id"]: t for t in _tile_set()["tiles"]}


def tile_type(tile: str) -> str:
    return tile.split(".", 1)[0]


@cache
def tile_ids(mage_witch: bool) -> tuple[str, ...]:
    """Every physical tile of the game, the start tile included."""
    out: list[str] = []
    for t in types().values():
        if t["mage"] and not mage_witch:
            continue
        out.extend(f"{t['id']}.{n}" for n in range(1, t["count"] + 1))
    return tuple(out)


@cache
def oriented(type_id: str, rotation: int) -> Oriented:
    """The tile type turned clockwise; the one place where rotation arithmetic lives."""
    t = types()[type_id]
    side = {s: i for i, s in enumerate(SIDES)}
    half = {h: i for i, h in enumerate(HALVES)}
    edges = ["?"] * 4
    for s, kind in t["edges"].items():
        edges[(side[s] + rotation) % 4] = EDGE_CODE[kind]
    feats = []
    edge_feature = [-1] * 4
    half_feature = [-1] * 8
    monastery = -1
    for i, f in enumerate(t["features"]):
        es = tuple((side[s] + rotation) % 4 for s in f.get("edges", ()))
        hs = tuple((half[h] + 2 * rotation) % 8 for h in f.get("halves", ()))
        feats.append(Feature(f["kind"], es, hs, bool(f.get("shield")), tuple(f.get("cities", ()))))
        for e in es:
            edge_feature[e] = i
        for h in hs:
            half_feature[h] = i
        if f["kind"] == "monastery":
            monastery = i
    return Oriented(
        type_id,
        rotation,
        bool(t["mage"]),
        "".join(edges),
        tuple(feats),
        tuple(edge_feature),
        tuple(half_feature),
        monastery,
    )


@cache
def of(tile: str, rotation: int) -> Oriented:
    """The oriented shape of a physical tile (cached per id: the hottest lookup of the engine)."""
    return oriented(tile_type(tile), rotation)


@cache
def rotations_fitting(type_id: str, pattern: str) -> tuple[int, ...]:
    """The rotations whose edges match ``pattern`` (what the neighbours show, ``?`` where none)."""
    out = []
    for r in range(4):
        edges = oriented(type_id, r).edges
        if all(p in ("?", e) for p, e in zip(pattern, edges, strict=True)):
            out.append(r)
    return tuple(out)


@cache
def fitting(type_id: str) -> dict[str, tuple[int, ...]]:
    """:func:`rotations_fitting` for every possible pattern: one dict lookup per frontier square."""
    return {p: rotations_fitting(type_id, p) for p in map("".join, product("CRF?", repeat=4))}


@lru_cache(maxsize=4096)
def keys_around(x: int, y: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ``grid`` keys of the squares across each side of ``(x, y)`` (``DELTA`` order) and of the
    eight around it (``RING`` order). Laying a tile looks all of them up; formatting them anew for
    every tile was a good part of the cost of a fold. Few squares are ever used; the bound is a guard."""
    return (
        tuple(f"{x + dx},{y + dy}" for dx, dy in DELTA),
        tuple(f"{x + dx},{y + dy}" for dx, dy in RING),
    )


@cache
def segments(t: int) -> tuple[str, ...]:
    """The segment names ``"<t>:<i>"`` of the ``t``-th tile placed, for every feature index a tile has
    (built once per placement index, like :func:`keys_around`)."""
    most = max(len(kind["features"]) for kind in types().values())
    return tuple(f"{t}:{i}" for i in range(most))
