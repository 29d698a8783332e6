"""Final scoring: the rulebook's table, its worked example, and the 13 recipes."""

from __future__ import annotations

from typing import Any

import pytest

import games.kupferkessel as kk
from games.kupferkessel.scoring import collection_points, ones_bonus, recipe_met

from .support import table

#: The rulebook's example: white's cauldron at the end of the game.
WHITE_EXAMPLE = [
    "white-hair-1", "white-hair-2", "white-hair-3", "white-hair-4",
    "white-newt-eyes-3",
    "black-bottle-1", "black-bottle-2", "black-bottle-4",
    "grey-spider-web-1", "grey-spider-web-3",
]  # fmt: skip


def final(
    white: list[str], black: list[str], recipes: tuple[list[str], list[str]] = ([], []), **kw: Any
) -> dict:
    state = table(cauldrons=(white, black), recipes=[list(r) for r in recipes], **kw)
    state["phase"] = "over"
    return state


def test_rulebook_example_white_scores_26_before_the_ones_bonus() -> None:
    parts = collection_points(WHITE_EXAMPLE, "white")
    assert parts == {"singles": -6, "pairs": 0, "triples": 7, "quadruples": 20, "quadruple_bonus": 5}
    assert sum(parts.values()) == 26
    black = ["grey-roots-1", "blue-moss-1", "brown-toad-1"]
    result = kk.score(final(WHITE_EXAMPLE, black))["seats"][0]
    assert result["total"] == 26 and result["breakdown"]["ones_bonus"] == 0


def test_the_example_with_more_ones_than_black_scores_31() -> None:
    result = kk.score(final(WHITE_EXAMPLE, ["grey-roots-1"]))["seats"][0]
    assert result["breakdown"]["ones_bonus"] == 5 and result["total"] == 31


def test_ones_bonus_goes_to_strictly_more_value_one_cards() -> None:
    assert ones_bonus([["grey-roots-1", "blue-moss-1"], ["brown-toad-1"]], 0) == 5
    assert ones_bonus([["grey-roots-1", "blue-moss-1"], ["brown-toad-1"]], 1) == 0
    assert ones_bonus([["grey-roots-1"], ["brown-toad-1"]], 0) == 0
    assert ones_bonus([["grey-roots-1"], ["brown-toad-1"]], 1) == 0


def test_own_colour_doubles_values_but_not_the_bonus_and_only_for_its_owner() -> None:
    four_black = ["black-bottle-1", "black-bottle-2", "black-bottle-3", "black-bottle-4"]
    assert collection_points(four_black, "black")["quadruples"] == 20
    assert collection_points(four_black, "black")["quadruple_bonus"] == 5
    assert collection_points(four_black, "white")["quadruples"] == 10
    assert collection_points(["black-bottle-3"], "black")["singles"] == -6
    assert collection_points(["black-bottle-3"], "white")["singles"] == -3


def test_singles_cost_pairs_score_nothing_triples_score_their_sum() -> None:
    assert collection_points(["grey-roots-4"], "white") == {
        "singles": -4, "pairs": 0, "triples": 0, "quadruples": 0, "quadruple_bonus": 0,
    }  # fmt: skip
    assert sum(collection_points(["grey-roots-4", "grey-roots-3"], "white").values()) == 0
    assert collection_points(["grey-roots-4", "grey-roots-3", "grey-roots-1"], "white")["triples"] == 8


def test_score_totals_equal_their_breakdowns_and_ties_share_the_win() -> None:
    result = kk.score(final(["grey-roots-1"], ["blue-moss-1"]))
    assert result["winners"] == [0, 1]
    for seat in result["seats"]:
        assert seat["total"] == sum(seat["breakdown"].values())
    assert kk.score(final(["grey-roots-1"], ["blue-moss-4"]))["winners"] == [0]


MOSS3 = ["blue-moss-1", "blue-moss-2", "blue-moss-3"]
FEATHERS3 = ["blue-feathers-1", "blue-feathers-2", "blue-feathers-4"]


@pytest.mark.parametrize(
    "recipe, mine, theirs, ended_by, met",
    [
        ("pair-blue", MOSS3 + FEATHERS3, [], None, True),
        ("pair-blue", MOSS3 + FEATHERS3[:2], [], None, False),
        ("pair-grey", MOSS3 + FEATHERS3, [], None, False),
        ("three-black", ["black-bottle-1", "black-bottle-2", "black-bottle-3"], [], None, True),
        ("three-black", ["black-bottle-1", "black-bottle-2", "black-bat-wings-3"], [], None, False),
        ("three-white", ["white-newt-eyes-1", "white-newt-eyes-3", "white-newt-eyes-4"], [], None, True),
        ("last-card", [], [], 0, True),
        ("last-card", [], [], 1, False),
        ("last-card", [], [], None, False),
        (
            "plants",
            MOSS3
            + ["grey-roots-1", "grey-roots-2", "grey-roots-3"]
            + ["green-pumpkin-1", "green-pumpkin-3", "green-pumpkin-4"],
            [],
            None,
            True,
        ),
        ("plants", MOSS3 + ["grey-roots-1", "grey-roots-2", "grey-roots-3"] + FEATHERS3, [], None, False),
        ("fewer-explode", ["blue-moss-1"], ["blue-moss-2"], None, True),
        ("fewer-explode", ["blue-moss-2"], ["brown-toad-2"], None, False),
        ("fewer-explode", ["blue-moss-2", "brown-toad-2"], ["green-pumpkin-2"], None, False),
        ("fewer-hat", [], ["green-snake-skin-2"], None, True),
        ("fewer-hat", ["grey-roots-2"], ["green-snake-skin-2"], None, False),
        ("fewer-cards", ["blue-moss-1"], ["blue-moss-2", "blue-moss-3"], None, True),
        ("fewer-cards", ["blue-moss-1", "blue-moss-4"], ["blue-moss-2", "blue-moss-3"], None, False),
        ("fewer-fours", ["blue-moss-1"], ["blue-moss-4"], None, True),
        ("fewer-fours", ["grey-roots-4"], ["blue-moss-4"], None, False),
    ],
)
def test_recipes(recipe: str, mine: list[str], theirs: list[str], ended_by: int | None, met: bool) -> None:
    assert recipe_met(recipe, [mine, theirs], 0, ended_by) is met


def test_fulfilled_recipes_add_their_points_and_others_cost_nothing() -> None:
    white = MOSS3 + FEATHERS3
    state = final(
        white, ["grey-roots-1"], (["pair-blue", "fewer-cards"], ["fewer-cards", "last-card"]), ended_by=1
    )
    result = kk.score(state)["seats"]
    assert result[0]["breakdown"]["recipes"] == 15
    assert result[1]["breakdown"]["recipes"] == 20
