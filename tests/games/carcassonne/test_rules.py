"""Setup, options, commands, views and the catalog."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import games.carcassonne as game
from games.carcassonne import tiles
from games.interface import IllegalMove, InvalidOptions, NotYourTurn
from games.rng import Rng

from .support import SEED, apply, new_game, turn


def _setup(options: dict, seats: int = 2) -> list[dict]:
    return game.setup(options, seats, Rng(SEED, "setup"))


def test_the_pack_holds_72_base_tiles_and_8_with_the_mage_symbol() -> None:
    assert len(tiles.tile_ids(False)) == 72 and len(tiles.tile_ids(True)) == 80
    base = [t for t in tiles.types().values() if not t["mage"]]
    assert len(base) == 24 and sum(t["count"] for t in base) == 72
    assert [t["id"] for t in base] == list("ABCDEFGHIJKLMNOPQRSTUVWX")
    magic = [t for t in tiles.types().values() if t["mage"]]
    assert len(magic) == 8 and all(t["count"] == 1 for t in magic)
    assert sum(t["count"] for t in base if any(f.get("shield") for f in t["features"])) == 10
    assert tiles.START == "D.1"


#: The standard tiles, written out independently of the seed: count, edges N E S W (unrotated), the
#: number of roads and cities, whether it holds a monastery or a shield, and for each field how many
#: of the tile's cities it touches (sorted) — what farmers score by.
STANDARD = {
    "A": (2, "FFRF", 1, 0, True, False, (0,)),
    "B": (4, "FFFF", 0, 0, True, False, (0,)),
    "C": (1, "CCCC", 0, 1, False, True, ()),
    "D": (4, "CRFR", 1, 1, False, False, (0, 1)),
    "E": (5, "CFFF", 0, 1, False, False, (1,)),
    "F": (2, "FCFC", 0, 1, False, True, (1, 1)),
    "G": (1, "CFCF", 0, 1, False, False, (1, 1)),
    "H": (3, "FCFC", 0, 2, False, False, (2,)),
    "I": (2, "CFFC", 0, 2, False, False, (2,)),
    "J": (3, "CRRF", 1, 1, False, False, (0, 1)),
    "K": (3, "CFRR", 1, 1, False, False, (0, 1)),
    "L": (3, "CRRR", 3, 1, False, False, (0, 0, 1)),
    "M": (2, "CFFC", 0, 1, False, True, (1,)),
    "N": (3, "CFFC", 0, 1, False, False, (1,)),
    "O": (2, "CRRC", 1, 1, False, True, (0, 1)),
    "P": (3, "CRRC", 1, 1, False, False, (0, 1)),
    "Q": (1, "CCFC", 0, 1, False, True, (1,)),
    "R": (3, "CCFC", 0, 1, False, False, (1,)),
    "S": (2, "CCRC", 1, 1, False, True, (1, 1)),
    "T": (1, "CCRC", 1, 1, False, False, (1, 1)),
    "U": (8, "RFRF", 1, 0, False, False, (0, 0)),
    "V": (9, "FFRR", 1, 0, False, False, (0, 0)),
    "W": (4, "FRRR", 3, 0, False, False, (0, 0, 0)),
    "X": (1, "RRRR", 4, 0, False, False, (0, 0, 0, 0)),
    "MW1": (1, "CRRR", 3, 1, False, False, (0, 0, 1)),
    "MW2": (1, "CRRC", 1, 1, False, False, (0, 1)),
    "MW3": (1, "CCRC", 1, 3, False, False, (1, 3)),
    "MW4": (1, "RCRC", 2, 1, False, False, (1, 1, 1, 1)),
    "MW5": (1, "CFCF", 0, 2, False, False, (2,)),
    "MW6": (1, "CCRC", 1, 1, False, False, (1, 1)),
    "MW7": (1, "CRRR", 2, 1, False, False, (0, 1, 1)),
    "MW8": (1, "CRRC", 1, 2, False, False, (0, 2)),
}


@pytest.mark.parametrize("type_id", sorted(STANDARD))
def test_each_tile_type_has_its_standard_count_and_layout(type_id: str) -> None:
    t = tiles.types()[type_id]
    feats = t["features"]
    kinds = [f["kind"] for f in feats]
    actual = (
        t["count"],
        "".join(tiles.EDGE_CODE[t["edges"][side]] for side in tiles.SIDES),
        kinds.count("road"),
        kinds.count("city"),
        "monastery" in kinds,
        any(f.get("shield") for f in feats),
        tuple(sorted(len(f["cities"]) for f in feats if f["kind"] == "field")),
    )
    assert actual == STANDARD[type_id]
    assert t["mage"] == type_id.startswith("MW")
    assert set(tiles.types()) == set(STANDARD)


@pytest.mark.parametrize("type_id", sorted(tiles.types()))
def test_every_tile_layout_is_consistent(type_id: str) -> None:
    t = tiles.types()[type_id]
    o = tiles.oriented(type_id, 0)
    for side, kind in t["edges"].items():
        d = tiles.SIDES.index(side)
        if kind == "field":
            assert o.edge_feature[d] == -1
            assert o.half_feature[2 * d] >= 0 and o.half_feature[2 * d] == o.half_feature[2 * d + 1]
        else:
            assert o.features[o.edge_feature[d]].kind == kind
            assert (o.half_feature[2 * d] >= 0) == (kind == "road")
    for f in o.features:
        for c in f.cities:
            assert o.features[c].kind == "city"
    for r in range(4):
        turned = tiles.oriented(type_id, r)
        assert sorted(turned.edges) == sorted(o.edges)
        assert turned.edges == o.edges[-r:] + o.edges[:-r] if r else turned.edges == o.edges


def test_setup_places_the_start_tile_and_draws_for_the_first_player() -> None:
    events = _setup({})
    started, drawn = events
    assert started["type"] == "GameStarted" and started["arranged"] is False and started["mage_witch"] is True
    assert started["seats"] == 2 and started["start"] == {"tile": "D.1", "x": 0, "y": 0, "rotation": 0}
    assert drawn["type"] == "TileDrawn" and drawn["seat"] == 0
    s = game.evolve(game.evolve(None, started), drawn)
    assert s["tiles"] == [["D.1", 0, 0, 0]] and s["current"] == drawn["tile"]
    assert s["supply"] == [7, 7] and game.to_move(s) == [0]


def test_base_game_alone() -> None:
    events = _setup({"mage_witch": False})
    s = None
    for e in events:
        s = game.evolve(s, e)
    assert s is not None and len(s["remaining"]) == 71 - 1
    assert not any(t.startswith("MW") for t in s["remaining"] + [s["current"]])
    with pytest.raises(InvalidOptions):
        _setup({"mage_witch": False, "arranged": ["MW1.1"]})


@pytest.mark.parametrize(
    "options",
    [
        {"unknown": 1},
        {"mage_witch": "yes"},
        {"arranged": "U.1"},
        {"arranged": ["D.1"]},
        {"arranged": ["Z.1"]},
        {"arranged": ["U.9"]},
        {"arranged": ["U.1", "U.1"]},
        {"arranged": [1]},
    ],
)
def test_bad_options_are_refused(options: dict) -> None:
    with pytest.raises(InvalidOptions):
        _setup(options)


@pytest.mark.parametrize("seats", [1, 6])
def test_two_to_five_players(seats: int) -> None:
    with pytest.raises(InvalidOptions):
        _setup({}, seats)


def test_an_arranged_prefix_is_drawn_first_then_the_seeded_stream() -> None:
    s = new_game(["U.1", "V.1"])
    assert s["current"] == "U.1"
    s, _ = turn(s, 1, 0, 1)
    assert s["current"] == "V.1"
    s, _ = turn(s, -1, 0, 2)
    assert s["current"] not in ("U.1", "V.1") and s["queue"] == []


def test_the_same_seed_deals_the_same_game() -> None:
    assert _setup({}) == _setup({})


def test_a_tile_must_touch_the_map_with_every_edge_matching() -> None:
    s = new_game(["U.1"])
    rng = Rng(b"x", "v")
    with pytest.raises(IllegalMove, match="already"):
        game.decide(s, 0, {"type": "place_tile", "x": 0, "y": 0, "rotation": 0}, rng)
    with pytest.raises(IllegalMove, match="touch"):
        game.decide(s, 0, {"type": "place_tile", "x": 5, "y": 5, "rotation": 0}, rng)
    with pytest.raises(IllegalMove, match="match"):
        game.decide(s, 0, {"type": "place_tile", "x": 1, "y": 0, "rotation": 0}, rng)  # road against field
    with pytest.raises(IllegalMove):
        game.decide(s, 0, {"type": "place_tile", "x": 1, "y": 0, "rotation": 4}, rng)
    with pytest.raises(IllegalMove):
        game.decide(s, 0, {"type": "place_tile", "x": "1", "y": 0, "rotation": 1}, rng)
    assert game.legal_actions(s, 0) == [a for a in game.legal_actions(s, 0) if a["type"] == "place_tile"]
    placed = {(a["x"], a["y"], a["rotation"]) for a in game.legal_actions(s, 0)}
    assert (1, 0, 1) in placed and (1, 0, 3) in placed and (1, 0, 0) not in placed
    assert (0, 1, 0) not in placed, "a road may not meet the start tile's city"


def test_commands_are_checked_for_turn_type_and_phase() -> None:
    s = new_game(["U.1"])
    rng = Rng(b"x", "v")
    with pytest.raises(NotYourTurn):
        game.decide(s, 1, {"type": "place_tile", "x": 1, "y": 0, "rotation": 1}, rng)
    with pytest.raises(IllegalMove, match="unknown"):
        game.decide(s, 0, {"type": "cheat"}, rng)
    with pytest.raises(IllegalMove, match="tile first"):
        game.decide(s, 0, {"type": "pass"}, rng)
    with pytest.raises(IllegalMove, match="tile first"):
        game.decide(s, 0, {"type": "place_magic", "figure": "mage", "x": 0, "y": 0, "feature": 1}, rng)
    assert game.legal_actions(s, 1) == []
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": 1, "y": 0, "rotation": 1})
    with pytest.raises(IllegalMove):
        game.decide(s, 0, {"type": "place_tile", "x": 2, "y": 0, "rotation": 1}, rng)
    with pytest.raises(IllegalMove):
        game.decide(s, 0, {"type": "place_follower", "feature": 9}, rng)
    with pytest.raises(IllegalMove):
        game.decide(s, 0, {"type": "place_magic", "figure": "mage", "x": 0, "y": 0, "feature": 1}, rng)


def test_a_player_without_followers_can_only_pass() -> None:
    s = new_game(["U.1"])
    s, _ = apply(s, s["turn"], {"type": "place_tile", "x": 1, "y": 0, "rotation": 1})
    s = {**s, "supply": [0, 7]}
    assert game.legal_actions(s, 0) == [{"type": "pass"}]
    with pytest.raises(IllegalMove, match="no follower"):
        game.decide(s, 0, {"type": "place_follower", "feature": 0}, Rng(b"x", "v"))


def test_seven_followers_each() -> None:
    s = new_game([], seats=5)
    assert s["supply"] == [7] * 5


def test_the_view_shows_the_table_but_never_the_draw_order() -> None:
    arranged = ["U.1", "V.1", "X.1"]
    events = _setup({"arranged": arranged})
    s = None
    for e in events:
        s = game.evolve(s, e)
    v = game.view(s, 1)
    assert v["current_tile"]["tile"] == "U.1" and v["pack_size"] == 78
    assert v["board"] == [{"tile": "D.1", "x": 0, "y": 0, "rotation": 0}]
    assert v["scores"][0] == {"roads": 0, "cities": 0, "monasteries": 0, "fields": 0}
    assert v["supply"] == [7, 7] and v["mage"] is None and v["witch"] is None
    assert sum(v["pack"].values()) == 78
    text = json.dumps(v)
    assert "queue" not in v and "remaining" not in v
    assert "X.1" not in text and "V.1" not in text
    assert json.dumps(game.view(s, None))
    hidden = game.redact(s, events[0], 0)
    assert "arranged" not in hidden["options"] and hidden["arranged"] is True
    assert "X.1" not in json.dumps(hidden)
    assert game.redact(s, events[1], 0) == events[1], "the drawn tile is public"


def test_the_view_shows_followers_and_figures_and_the_running_score() -> None:
    s = new_game(["MW5.1", "E.1"])
    s, _ = turn(s, 0, -1, 1, magic=("witch", 0, 0, 1), follower=0)
    v = game.view(s, 0)
    assert v["witch"] == {"x": 0, "y": 0, "feature": 1}
    assert v["followers"] == [{"seat": 0, "x": 0, "y": -1, "feature": 0, "kind": "city", "role": "knight"}]
    s, _ = turn(s, 0, 1, 2, follower=0)
    v = game.view(s, 1)
    assert v["score"]["seats"][1]["total"] == 4 and v["scores"][1]["cities"] == 4


def test_score_has_a_breakdown_summing_to_the_total() -> None:
    s = new_game(["E.1"])
    s, _ = turn(s, 0, 1, 2, follower=0)
    sc = game.score(s)
    assert sc["seats"][0] == {
        "seat": 0,
        "total": 4,
        "breakdown": {"roads": 0, "cities": 4, "monasteries": 0, "fields": 0},
    }
    assert sc["winners"] == [0]


def test_the_catalog_lists_every_tile_type_with_its_layout() -> None:
    cat = game.catalog()
    assert cat["game"] == "carcassonne" and cat["start_tile"] == "D.1"
    assert len(cat["tiles"]) == 32
    assert sum(len(t["ids"]) for t in cat["tiles"]) == 80
    assert Counter(t["mage"] for t in cat["tiles"]) == {False: 24, True: 8}
    for t in cat["tiles"]:
        assert all(t["names"][lang] for lang in ("cs", "pl", "en"))
        assert t["features"] and len(t["edges"]) == 4
    json.dumps(cat)


def test_evolve_leaves_its_input_alone_and_survives_json() -> None:
    s = new_game(["MW5.1", "E.1"])
    before = json.dumps(s, sort_keys=True)
    events = game.decide(s, 0, {"type": "place_tile", "x": 0, "y": -1, "rotation": 1}, Rng(b"x", "v"))
    a = game.evolve(s, events[0])
    assert json.dumps(s, sort_keys=True) == before
    b = game.evolve(json.loads(before), events[0])
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_decide_refuses_a_field_the_command_does_not_have() -> None:
    """``legal_actions`` is exactly what ``decide`` accepts: a listed body with one more field is not."""
    s = new_game(["MW5.1"])
    rng = Rng(b"x", "v")
    for phase in ("tile", "magic", "follower"):
        assert s["phase"] == phase
        actions = game.legal_actions(s, 0)
        for a in actions:
            for extra in ("feature", "figure", "rotation", "unexpected"):
                if extra not in a:
                    with pytest.raises(IllegalMove, match="only the fields"):
                        game.decide(s, 0, {**a, extra: 0}, rng)
        s, _ = apply(s, s["turn"], actions[0])
    with pytest.raises(IllegalMove, match="only the fields"):
        game.decide(new_game(["U.1"]), 0, {"type": "place_tile", "x": 1, "y": 0, "rotation": 1, 7: 1}, rng)


def test_the_view_does_not_depend_on_the_order_a_stored_state_keeps_its_features_in() -> None:
    """jsonb reorders object keys; a state reloaded from the store must show the same view."""
    s = new_game(["U.1", "U.2", "V.1"])
    s, _ = turn(s, 1, 0, 1, follower=0)
    s, _ = turn(s, 2, 0, 1, follower=1)
    s, _ = turn(s, -1, 0, 2, follower=2)
    stored = {**s, "features": dict(reversed(list(s["features"].items())))}
    assert len(game.view(s, 0)["followers"]) == 3
    assert game.view(stored, 0) == game.view(s, 0)
