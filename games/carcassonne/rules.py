"""Setup, commands, events and turn order: the decider and its fold.

A turn is: place the drawn tile (``place_tile``); if it joined the mage's and the witch's features,
move one of them away (``place_magic``/``remove_magic``, phase ``conflict``); if it bears the mage
symbol, place or move a magic figure (phase ``magic``); place a follower or pass (phase
``follower``); then every feature the tile completed is scored and the next player draws. A drawn
tile that fits nowhere is discarded and another drawn; when none is left the game ends and the
final scoring follows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.carcassonne import features, magic, scoring, tiles
from games.interface import Command, Event, IllegalMove, InvalidOptions, NotYourTurn, State
from games.rng import Rng

SEATS = (2, 5)
FOLLOWERS = 7
OPTION_KEYS = ("mage_witch", "arranged")
#: The phases in which a seat is to move; ``drawing`` and ``scoring`` only occur between the events of
#: one command (after the start tile, after the follower step).
PLAYING = ("tile", "conflict", "magic", "follower")


def _options(options: Mapping[str, Any]) -> tuple[bool, list[str]]:
    if not isinstance(options, Mapping):
        raise InvalidOptions("options must be an object")
    unknown = sorted(set(options) - set(OPTION_KEYS))
    if unknown:
        raise InvalidOptions(f"unknown options {unknown}; known: {list(OPTION_KEYS)}")
    mw = options.get("mage_witch", True)
    if not isinstance(mw, bool):
        raise InvalidOptions("mage_witch must be true or false")
    arranged = options.get("arranged", [])
    if not isinstance(arranged, list) or not all(isinstance(t, str) for t in arranged):
        raise InvalidOptions("arranged must be a list of tile ids such as \"U.3\"")
    known = set(tiles.tile_ids(mw)) - {tiles.START}
    bad = [t for t in arranged if t not in known]
    if bad:
        raise InvalidOptions(f"arranged holds tiles not in this game's pack (the start tile excluded): {bad}")
    if len(set(arranged)) != len(arranged):
        raise InvalidOptions("arranged names a tile more than once")
    return mw, list(arranged)


def setup(options: Mapping[str, Any], seats: int, rng: Rng) -> list[Event]:
    """The start tile on the map, then the first draw; ``arranged`` (a prefix of the pack) goes first."""
    if not isinstance(seats, int) or not SEATS[0] <= seats <= SEATS[1]:
        raise InvalidOptions(f"Carcassonne is for {SEATS[0]} to {SEATS[1]} players, not {seats}")
    mw, arranged = _options(options)
    started: Event = {
        "type": "GameStarted",
        "seats": seats,
        "options": dict(options),
        "arranged": bool(arranged),
        "mage_witch": mw,
        "start": {"tile": tiles.START, "x": 0, "y": 0, "rotation": 0},
    }
    log = _Log(evolve(None, started))
    log.events.append(started)
    _draw(log, 0, rng)
    return log.events


class _Log:
    """The events a command produces, folded as they are made so later ones see their effect."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


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
        raise IllegalMove("figure is \"mage\" or \"witch\"")
    body: Command = {"type": "remove_magic", "figure": fig}
    if cmd["type"] == "place_magic":
        body = {"type": "place_magic", "figure": fig, "x": _int(cmd, "x"), "y": _int(cmd, "y"),
                "feature": _int(cmd, "feature")}
    if not magic.allowed(s, body):
        raise IllegalMove(_magic_reason(s, body))
    if body["type"] == "remove_magic":
        return [{"type": "MagicFigureRemoved", "seat": seat, "figure": fig}]
    seg = s.get(fig)
    event: Event = {"type": "MagicFigurePlaced", "seat": seat, "figure": fig, "x": body["x"], "y": body["y"],
                    "feature": body["feature"], "from": None if seg is None else features.position(s, seg)}
    return [event]


def _magic_reason(s: dict[str, Any], body: Command) -> str:
    if body["type"] == "remove_magic":
        if s.get(body["figure"]) is None:
            return f"the {body['figure']} is not on the map"
        return "a magic figure is removed only when neither can be placed or moved"
    if s["phase"] == "conflict":
        return "move a magic figure to another incomplete road or city (not the feature they share)"
    return ("a magic figure goes onto an incomplete road or city of the map, never onto the other figure's "
            "feature, and a figure already out must change feature")


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
    event: Event = {"type": "FollowerPlaced", "seat": seat, "x": x, "y": y, "feature": i, "kind": kind,
                    "role": tiles.ROLES[kind]}
    return _finish_turn(s, seat, event, rng)


def _pass(s: dict[str, Any], seat: int, cmd: Command, rng: Rng) -> list[Event]:
    _need_phase(s, "follower")
    return _finish_turn(s, seat, {"type": "FollowerSkipped", "seat": seat}, rng)


def _finish_turn(s: dict[str, Any], seat: int, event: Event, rng: Rng) -> list[Event]:
    """Score what the tile completed (followers return; the magic figure returns too, fn.), then draw."""
    log = _Log(s)
    log.emit(event)
    for fid in log.state["completed"]:
        st = log.state
        rec = st["features"][fid]
        if rec["followers"] or scoring.figure_on(st, fid):
            log.emit(_scored(st, fid, final=False))
    _draw(log, (seat + 1) % log.state["seats"], rng)
    return log.events


def _scored(s: dict[str, Any], fid: str, final: bool) -> Event:
    rec = s["features"][fid]
    winners = scoring.majority(rec)
    return {
        "type": "FeatureScored",
        "feature": fid,
        "kind": rec["kind"],
        "tiles": features.tiles_in(rec),
        "points": scoring.points(s, fid) if winners else 0,
        "winners": winners,
        "figure": scoring.figure_on(s, fid) if rec["kind"] in ("road", "city") else None,
        "followers": [{"seat": seat, **features.position(s, seg)} for seat, seg in rec["followers"]],
        "final": final,
    }


def _draw(log: _Log, seat: int, rng: Rng) -> None:
    """Draw for ``seat``: the arranged tiles first, then uniformly from the rest (a shuffled pack)."""
    while True:
        s = log.state
        if s["queue"]:
            tile = s["queue"][0]
        elif s["remaining"]:
            tile = s["remaining"][rng.randbelow(len(s["remaining"]))]
        else:
            break
        if features.fits_somewhere(s, tile):
            log.emit({"type": "TileDrawn", "seat": seat, "tile": tile})
            return
        log.emit({"type": "TileDiscarded", "seat": seat, "tile": tile})
    _final_scoring(log)


def _final_scoring(log: _Log) -> None:
    """Incomplete roads, cities and monasteries, then fields; magic figures modify as in play."""
    for fields in (False, True):
        s = log.state
        for fid in sorted(s["features"], key=int):
            rec = s["features"][fid]
            if rec["followers"] and (rec["kind"] == "field") == fields and (fields or rec["open"] > 0):
                log.emit(_scored(s, fid, final=True))
    log.emit({"type": "GameEnded", "score": scoring.score(log.state)})


#: The fields of each command besides ``type``; ``decide`` refuses any other, so that it accepts exactly
#: the bodies ``legal_actions`` lists.
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
    if not isinstance(command, Mapping):
        raise IllegalMove("a command is an object with a type")
    kind = command.get("type")
    handler = _COMMANDS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise IllegalMove(f"unknown command {command.get('type')!r}; known: {sorted(_COMMANDS)}")
    names = FIELDS[str(kind)]
    extra = sorted(str(k) for k in command if k != "type" and k not in names)
    if extra:
        shape = ", ".join(["type", *names])
        raise IllegalMove(f"the {kind} command has only the fields {shape}; not {extra}")
    if state is None or state["phase"] not in PLAYING:
        over = state is not None and state["phase"] == "over"
        raise IllegalMove("the game is over" if over else "the game has not started")
    if seat != state["turn"]:
        raise NotYourTurn(f"it is the turn of seat {state['turn']}")
    return handler(state, seat, dict(command), rng)


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


# --- the fold -------------------------------------------------------------------------------------


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
