"""Commands and turn order: the decider.

A turn is: place the drawn tile (``place_tile``); if it joined the mage's and the witch's features,
move one of them away (``place_magic``/``remove_magic``, phase ``conflict``); if it bears the mage
symbol, place or move a magic figure (phase ``magic``); place a follower or pass (phase
``follower``); then every feature the tile completed is scored and the next player draws. A drawn
tile that fits nowhere is discarded and another drawn; when none is left the game ends and the
final scoring follows.
"""

from __future__ import annotations

from typing import Any

from games.carcassonne import features, magic, tiles
from games.carcassonne.flow import finish_turn
from games.interface import Command, Event, IllegalMove, State
from games.rng import Rng
from games.toolkit import check_fields, open_command

#: The phases in which a seat is to move; ``drawing`` and ``scoring`` only occur between the events of
#: one command (after the start tile, after the follower step).
#: What makes a command final for ``undo`` (``games.interface.Rules.IRREVERSIBLE``):
#: a tile drawn (or discarded as unplaceable) from the bag, and the end.
IRREVERSIBLE: frozenset[str] = frozenset({"TileDrawn", "TileDiscarded", "GameEnded"})


PLAYING = ("tile", "conflict", "magic", "follower")


def _int(cmd: Command, key: str) -> int:
    v = cmd.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise IllegalMove(f"{key} must be an integer")
    return v


def _need_phase(s: dict[str, Any], *phases: str) -> None:
    if s["phase"] in phases:
        return
    need = {
        "tile": "place the drawn tile first",
        "conflict": "first move the mage or the witch off the feature they now share",
        "magic": "first place or move the mage or the witch (the tile bears the mage symbol)",
        "follower": "place a follower on the new tile or pass first",
    }
    raise IllegalMove(need.get(s["phase"], "that is not possible now"))


def _place_tile(s: dict[str, Any], seat: int, cmd: Command, rng: Rng) -> list[Event]:
    _need_phase(s, "tile")
    x, y, r = _int(cmd, "x"), _int(cmd, "y"), _int(cmd, "rotation")
    if r not in range(4):
        raise IllegalMove("rotation is 0, 1, 2 or 3 quarter turns clockwise")
    if f"{x},{y}" in s["grid"]:
        raise IllegalMove("that square already holds a tile")
    if not features.fits(s, s["current"], x, y, r):
        raise IllegalMove("the tile must touch the map and every edge must match its neighbour's")
    return [{"type": "TilePlaced", "seat": seat, "tile": s["current"], "x": x, "y": y, "rotation": r}]


def _magic_command(s: dict[str, Any], seat: int, cmd: Command, rng: Rng) -> list[Event]:
    _need_phase(s, "conflict", "magic")
    fig = cmd.get("figure")
    if fig not in magic.FIGURES:
        raise IllegalMove('figure is "mage" or "witch"')
    body: Command = {"type": "remove_magic", "figure": fig}
    if cmd["type"] == "place_magic":
        body = {
            "type": "place_magic",
            "figure": fig,
            "x": _int(cmd, "x"),
            "y": _int(cmd, "y"),
            "feature": _int(cmd, "feature"),
        }
    if not magic.allowed(s, body):
        raise IllegalMove(_magic_reason(s, body))
    if body["type"] == "remove_magic":
        return [{"type": "MagicFigureRemoved", "seat": seat, "figure": fig}]
    seg = s.get(fig)
    event: Event = {
        "type": "MagicFigurePlaced",
        "seat": seat,
        "figure": fig,
        "x": body["x"],
        "y": body["y"],
        "feature": body["feature"],
        "from": None if seg is None else features.position(s, seg),
    }
    return [event]


def _magic_reason(s: dict[str, Any], body: Command) -> str:
    if body["type"] == "remove_magic":
        if s.get(body["figure"]) is None:
            return f"the {body['figure']} is not on the map"
        return "a magic figure is removed only when neither can be placed or moved"
    if s["phase"] == "conflict":
        return "move a magic figure to another incomplete road or city (not the feature they share)"
    return (
        "a magic figure goes onto an incomplete road or city of the map, never onto the other figure's "
        "feature, and a figure already out must change feature"
    )


def follower_options(s: dict[str, Any], seat: int) -> list[Command]:
    """The features of the tile just placed that no follower occupies (none without followers left)."""
    if s["supply"][seat] <= 0:
        return []
    t = s["last"]
    tile, _, _, r = s["tiles"][t]
    owner, feats = s["owner"], s["features"]
    return [
        {"type": "place_follower", "feature": i}
        for i in range(len(tiles.of(tile, r).features))
        if not feats[owner[f"{t}:{i}"]]["followers"]
    ]


def _place_follower(s: dict[str, Any], seat: int, cmd: Command, rng: Rng) -> list[Event]:
    _need_phase(s, "follower")
    i = _int(cmd, "feature")
    t = s["last"]
    tile, x, y, r = s["tiles"][t]
    feats = tiles.of(tile, r).features
    if i not in range(len(feats)):
        raise IllegalMove(f"the new tile has features 0 to {len(feats) - 1}")
    if s["supply"][seat] <= 0:
        raise IllegalMove("you have no follower left in your supply")
    if s["features"][s["owner"][f"{t}:{i}"]]["followers"]:
        raise IllegalMove("a follower already occupies that feature")
    kind = feats[i].kind
    event: Event = {
        "type": "FollowerPlaced",
        "seat": seat,
        "x": x,
        "y": y,
        "feature": i,
        "kind": kind,
        "role": tiles.ROLES[kind],
    }
    return finish_turn(s, seat, event, rng)


def _pass(s: dict[str, Any], seat: int, cmd: Command, rng: Rng) -> list[Event]:
    _need_phase(s, "follower")
    return finish_turn(s, seat, {"type": "FollowerSkipped", "seat": seat}, rng)


FIELDS = {
    "place_tile": ("x", "y", "rotation"),
    "place_magic": ("figure", "x", "y", "feature"),
    "remove_magic": ("figure",),
    "place_follower": ("feature",),
    "pass": (),
}

_COMMANDS = {
    "place_tile": _place_tile,
    "place_magic": _magic_command,
    "remove_magic": _magic_command,
    "place_follower": _place_follower,
    "pass": _pass,
}


def decide(state: State, seat: int, command: Command, rng: Rng) -> list[Event]:
    kind = open_command(command, seat, over=is_over(state), to_move=to_move(state), commands=_COMMANDS)
    check_fields(command, FIELDS[kind])
    return _COMMANDS[kind](state, seat, dict(command), rng)


def placements(s: dict[str, Any]) -> list[list[int]]:
    """Where the drawn tile may go: computed when asked, not at every draw, so folds skip it."""
    return features.placements(s, s["current"]) if s["phase"] == "tile" else []


def legal_actions(state: State, seat: int) -> list[Command]:
    s = state
    if s is None or s["phase"] not in PLAYING or seat != s["turn"]:
        return []
    phase = s["phase"]
    if phase == "tile":
        return [{"type": "place_tile", "x": x, "y": y, "rotation": r} for x, y, r in placements(s)]
    if phase in ("conflict", "magic"):
        return magic.options(s)
    if phase == "follower":
        return [*follower_options(s, seat), {"type": "pass"}]
    return []


def to_move(state: State) -> list[int]:
    if state is None or state["phase"] not in PLAYING:
        return []
    return [state["turn"]]


def is_over(state: State) -> bool:
    return state is not None and state["phase"] == "over"
