"""Seeded random games for 2–5 players, played through the rules interface, with invariants."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

import games.carcassonne as game
from games.carcassonne import features, magic, tiles
from games.interface import IllegalMove
from games.rng import Rng
from games.simulate import Match, play

from .invariants import check_deep, check_state

#: Games per player count (2–5): 2,000 games in all.
GAMES = round(500 * float(os.environ.get("KOTLIK_SLOW_SCALE", "1")))
#: Of those, how many are re-folded event by event with every invariant checked after each event.
TRACED = 3


def _options(i: int) -> dict:
    return {"mage_witch": i % 5 != 4}


def _final_checks(m: Match, seats: int) -> None:
    s = m.state
    assert game.is_over(s) and game.to_move(s) == []
    assert m.events[-1]["type"] == "GameEnded"
    assert m.events[-1]["score"] == game.score(s)
    assert s["remaining"] == [] and s["current"] is None
    assert len(s["tiles"]) + len(s["discarded"]) == (80 if s["mage_witch"] else 72)
    for p in range(seats):
        assert game.legal_actions(s, p) == []
    check_state(s, m.events)


def _accepted_exactly_when_listed(s: dict, seat: int, candidates: list[dict], actions: list[dict]) -> None:
    for c in candidates:
        try:
            game.decide(s, seat, c, Rng(b"probe", "candidate"))
            accepted = True
        except IllegalMove:
            accepted = False
        assert accepted == (c in actions), c


def _exactly_the_listed_magic_commands(s: dict, seat: int, actions: list[dict]) -> None:
    """Every conceivable magic command is accepted by ``decide`` exactly when it is listed."""
    candidates: list[dict] = [{"type": "remove_magic", "figure": f} for f in ("mage", "witch")]
    for seg in s["owner"]:
        t, i = seg.split(":")
        _, x, y, _ = s["tiles"][int(t)]
        for f in ("mage", "witch"):
            candidates.append({"type": "place_magic", "figure": f, "x": x, "y": y, "feature": int(i)})
    _accepted_exactly_when_listed(s, seat, candidates, actions)


def _exactly_the_listed_commands(s: dict, seat: int, actions: list[dict]) -> None:
    """Tiles anywhere near the map in any rotation, followers on any feature index, pass: ``decide``
    accepts exactly what ``legal_actions`` lists."""
    candidates: list[dict] = [{"type": "pass"}]
    candidates += [{"type": "place_follower", "feature": i} for i in range(-1, 9)]
    xs = [x for _, x, _, _ in s["tiles"]]
    ys = [y for _, _, y, _ in s["tiles"]]
    for x in range(min(xs) - 1, max(xs) + 2):
        for y in range(min(ys) - 1, max(ys) + 2):
            candidates += [{"type": "place_tile", "x": x, "y": y, "rotation": r} for r in range(4)]
    _accepted_exactly_when_listed(s, seat, candidates, actions)


def _traced(m: Match, seed: bytes) -> None:
    """Fold again, checking after every event; at each decision every legal action must be accepted."""
    s: Any = None
    for n, e in enumerate(m.events):
        before = json.dumps(s, sort_keys=True) if s is not None else None
        nxt = game.evolve(s, e)
        if before is not None:
            assert json.dumps(s, sort_keys=True) == before, "evolve must not mutate its input"
            again = game.evolve(json.loads(before), e)
            assert json.dumps(again, sort_keys=True) == json.dumps(nxt, sort_keys=True)
        s = nxt
        check_state(s, m.events[: n + 1])
        if n % 20 == 0:
            check_deep(s)
        if s["phase"] in ("tile", "conflict", "magic", "follower"):
            seat = game.to_move(s)[0]
            actions = game.legal_actions(s, seat)
            assert actions
            if s["phase"] in ("conflict", "magic", "follower") or n % 7 == 0:
                for a in actions:
                    assert game.decide(s, seat, a, Rng(seed, f"probe{n}")), a
            if s["phase"] in ("conflict", "magic"):
                _exactly_the_listed_magic_commands(s, seat, actions)
            elif s["phase"] == "follower" or n % 7 == 0:
                _exactly_the_listed_commands(s, seat, actions)
            for other in range(s["seats"]):
                if other != seat:
                    assert game.legal_actions(s, other) == []
            json.dumps(game.view(s, seat))
    check_deep(s)


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_random_games_end_cleanly(seats: int) -> None:
    figures_used = 0
    discards = 0
    for i in range(GAMES):
        seed = f"carcassonne-random-{seats}-{i}".encode()
        m = play(game, ["random"] * seats, seed, _options(i))
        _final_checks(m, seats)
        figures_used += sum(e["type"] == "MagicFigurePlaced" for e in m.events)
        discards += len(m.state["discarded"])
        if i < TRACED:
            _traced(m, seed)
    assert figures_used > GAMES, "the mage and the witch were in play"


def test_a_few_traced_games() -> None:
    """A quick version for the default (non-slow) run: every invariant after every event."""
    for seats in (2, 5):
        seed = f"carcassonne-quick-{seats}".encode()
        m = play(game, ["random"] * seats, seed)
        _final_checks(m, seats)
        _traced(m, seed)


def _open_cells(s: dict, seg: str) -> set[tuple[int, int]]:
    """The free squares the feature of ``seg`` reaches across its open edges."""
    out = set()
    for g in s["features"][s["owner"][seg]]["segs"]:
        t, i = (int(v) for v in g.split(":"))
        tile, x, y, r = s["tiles"][t]
        for d in tiles.of(tile, r).features[i].edges:
            dx, dy = tiles.DELTA[d]
            if f"{x + dx},{y + dy}" not in s["grid"]:
                out.add((x + dx, y + dy))
    return out


def _conflict_seeker(view: Any, actions: list[dict], rng: Rng) -> dict:
    """A test bot that joins the mage's and the witch's features whenever it can, to reach footnote 5
    in whole games (random play almost never does): it puts a figure on a feature that reaches a free
    square the other figure's feature reaches too, then fills that square when a tile joins them."""
    s = {**view, "mage": view["mage_seg"], "witch": view["witch_seg"]}
    kind = actions[0]["type"]
    if kind == "place_tile" and s["mage"] and s["witch"]:
        tile = view["current_tile"]["tile"]
        hits = [
            a for a in actions if magic.in_conflict(features.place(s, tile, a["x"], a["y"], a["rotation"]))
        ]
        if hits:
            return rng.choice(hits)
    if kind == "place_magic":
        near = []
        for a in actions:
            other = s[magic.OTHER[a["figure"]]]
            if other is not None:
                t = s["grid"][f"{a['x']},{a['y']}"]
                mine = f"{t}:{a['feature']}"
                if _open_cells(s, mine) & _open_cells(s, other):
                    near.append(a)
        if near:
            return rng.choice(near)
    return rng.choice(actions)


@pytest.mark.slow
def test_whole_games_with_the_two_figures_joined_again_and_again() -> None:
    conflicts = 0
    for i in range(30):
        seed = f"carcassonne-conflicts-{i}".encode()
        seats = 2 + i % 4
        game.BOTS["_seeker"] = _conflict_seeker
        try:
            m = play(game, ["_seeker"] * seats, seed)
        finally:
            del game.BOTS["_seeker"]
        _final_checks(m, seats)
        s: Any = None
        for e in m.events:
            s = game.evolve(s, e)
            if e["type"] == "TilePlaced" and s["phase"] == "conflict":
                conflicts += 1
                targets = game.legal_actions(s, s["turn"])
                assert targets and {a["type"] for a in targets} <= {"place_magic", "remove_magic"}
            check_state(s)
        if i < 3:
            _traced(m, seed)
    assert conflicts >= 20, conflicts
