"""What follows a command without a choice: the events of one command recorded and folded as they
are made, the scoring of what a tile completed, the next draw (a tile that fits nowhere is
discarded and another drawn) and, when the pack runs out, the final scoring."""

from __future__ import annotations

from typing import Any

from games.carcassonne import features, scoring
from games.carcassonne.state import evolve
from games.interface import Event
from games.rng import Rng
from games.toolkit import Recorder


def finish_turn(s: dict[str, Any], seat: int, event: Event, rng: Rng) -> list[Event]:
    """Score what the tile completed (followers return; the magic figure returns too, fn.), then draw."""
    log = Recorder(s, evolve)
    log.emit(event)
    for fid in log.state["completed"]:
        st = log.state
        rec = st["features"][fid]
        if rec["followers"] or scoring.figure_on(st, fid):
            log.emit(_scored(st, fid, final=False))
    draw(log, (seat + 1) % log.state["seats"], rng)
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


def draw(log: Recorder, seat: int, rng: Rng) -> None:
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


def _final_scoring(log: Recorder) -> None:
    """Incomplete roads, cities and monasteries, then fields; magic figures modify as in play."""
    for fields in (False, True):
        s = log.state
        for fid in sorted(s["features"], key=int):
            rec = s["features"][fid]
            if rec["followers"] and (rec["kind"] == "field") == fields and (fields or rec["open"] > 0):
                log.emit(_scored(s, fid, final=True))
    log.emit({"type": "GameEnded", "score": scoring.score(log.state)})


#: The fields of each command besides ``type``; ``decide`` refuses any other, so that it accepts exactly
