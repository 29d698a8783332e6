"""A player's turn: Collect (play, refresh, spend action points) or Rest."""

from __future__ import annotations

import pytest

from games import carodeni as game
from games.interface import IllegalMove, NotYourTurn

from .support import apply, edit, give, new_game, only_player_lists, set_board, stack_bag, types


def _game() -> dict:
    s = edit(new_game(2))
    set_board(s, "mountains", ["roots", "feathers", "mushrooms"])
    set_board(s, "forest", ["mushrooms", "roots", "feathers"])
    set_board(s, "lake", ["roots", "mushrooms", "feathers"])
    return s


def test_refresh_and_collect_example() -> None:
    """The rulebooks' example: a witch with forest 2 and lake 1 takes a leaf (herbs) in the
    forest, takes the berries refilled in its place, then a potion at the lake as a flask."""
    s = _game()
    only_player_lists(s, 0, hand=["W01", "N1a", "N1b"])
    set_board(s, "forest", ["herbs", "roots", "feathers"])
    set_board(s, "lake", potion="P02")
    stack_bag(s, ["berries", "mushrooms"])
    s, _ = apply(s, 0, {"type": "play", "witch": "W01"})
    assert s["turn"]["ap"] == [0, 2, 1] and s["players"][0]["played"] == ["W01"]
    with pytest.raises(IllegalMove, match="top to bottom"):
        apply(s, 0, {"type": "take", "item": "tool", "location": "lake"})
    s, ev = apply(s, 0, {"type": "take", "item": "ingredient", "location": "forest", "slot": 0})
    assert types(ev) == ["ItemTaken", "SlotRefilled"] and ev[1]["kind"] == "berries"
    s, _ = apply(s, 0, {"type": "take", "item": "ingredient", "location": "forest", "slot": 0})
    assert s["players"][0]["ingredients"]["herbs"] == 1
    assert s["players"][0]["ingredients"]["berries"] == 1
    assert s["board"][1]["ingredients"][0] == "mushrooms"
    s, ev = apply(s, 0, {"type": "take", "item": "tool", "location": "lake"})
    assert ev[0]["tool"] == "flask" and s["players"][0]["tools"] == ["P02"]
    assert s["board"][2]["potion"] != "P02"
    # Starting potion 1 (pale ?, herbs + berries) is now brewable by the red witch.
    assert s["turn"]["phase"] == "brew"
    assert {"type": "brew", "potion": "S1", "payment": ["herbs", "berries"]} in game.legal_actions(s, 0)


def test_the_refresh_symbol_refreshes_once_before_collecting() -> None:
    s = _game()
    only_player_lists(s, 0, hand=["W01", "W02", "N1a", "N1b"])
    witches = [b["witch"] for b in s["board"]]
    s, _ = apply(s, 0, {"type": "play", "witch": "W01"})
    actions = game.legal_actions(s, 0)
    assert {"type": "refresh", "target": "witches"} in actions
    assert {"type": "refresh", "target": "ingredients", "location": "lake"} in actions
    top = s["witch_deck"][:3]
    s2, ev = apply(s, 0, {"type": "refresh", "target": "witches"})
    assert ev[0]["returned"] == witches and [b["witch"] for b in s2["board"]] == top
    assert s2["witch_deck"][-3:] == witches
    with pytest.raises(IllegalMove, match="refresh"):
        apply(s2, 0, {"type": "refresh", "target": "potions"})
    s3, ev = apply(s, 0, {"type": "refresh", "target": "ingredients", "location": "forest"})
    assert sum(s3["bag"].values()) == sum(s["bag"].values())
    s4, _ = apply(s, 0, {"type": "take", "item": "ingredient", "location": "forest", "slot": 0})
    assert not any(a["type"] == "refresh" for a in game.legal_actions(s4, 0))
    s5, _ = apply(s, 0, {"type": "refresh", "target": "potions"})
    assert s5["turn"]["ap"] == [0, 2, 1]


def test_a_witch_without_the_symbol_cannot_refresh() -> None:
    s = _game()
    only_player_lists(s, 0, hand=["W02", "N1a", "N1b"])
    s, _ = apply(s, 0, {"type": "play", "witch": "W02"})
    with pytest.raises(IllegalMove):
        apply(s, 0, {"type": "refresh", "target": "potions"})


def test_brewing_example_with_the_crystal() -> None:
    """The rulebooks' example: a red witch takes a potion and herbs in the mountains and a blue
    witch in the forest, then brews the red potion with its ingredients and the crystal; witch,
    potion and crystal all move to the clan."""
    s = _game()
    only_player_lists(s, 0, hand=["W02", "N1a", "N1b"], potions=["S1", "P08"], tools=["P01"])
    give(s, 0, roots=1)
    set_board(s, "mountains", ["herbs", "roots", "feathers"], potion="P31")
    set_board(s, "forest", witch="W14")
    s, _ = apply(s, 0, {"type": "play", "witch": "W02"})
    s, _ = apply(s, 0, {"type": "take", "item": "potion", "location": "mountains"})
    s, _ = apply(s, 0, {"type": "take", "item": "ingredient", "location": "mountains", "slot": 0})
    s, _ = apply(s, 0, {"type": "take", "item": "witch", "location": "forest"})
    p = s["players"][0]
    assert "W14" in p["hand"] and "P31" in p["potions"]
    brew = {"type": "brew", "potion": "P08", "payment": ["herbs", "roots", "crystal"]}
    assert brew in game.legal_actions(s, 0)
    s, ev = apply(s, 0, brew)
    p = s["players"][0]
    assert p["clan_witches"] == ["W02"] and p["clan_potions"] == ["P08"] and p["clan_tools"] == ["P01"]
    assert p["tools"] == [] and p["played"] == [] and p["ingredients"]["herbs"] == 0
    assert types(ev)[0] == "PotionBrewed" and types(ev)[-1] == "TurnEnded"
    assert game.score(s)["seats"][0]["breakdown"]["tools"] == 1


def _brew_phase(witch: str, potions: list[str], **ingredients: int) -> dict:
    """Seat 0 has played ``witch`` and spent its points on nothing useful."""
    s = _game()
    only_player_lists(s, 0, hand=[witch, "N1a", "N1b"], potions=potions)
    give(s, 0, **ingredients)
    s, _ = apply(s, 0, {"type": "play", "witch": witch})
    while s["turn"]["phase"] == "collect":
        take = next(a for a in game.legal_actions(s, 0) if a["type"] == "take" and a["item"] == "tool")
        s, _ = apply(s, 0, take)
    return s


def test_the_active_witch_must_carry_the_banner_or_the_potion_is_pale() -> None:
    s = _brew_phase("W03", ["P11", "P41"], berries=1, mushrooms=1, herbs=1, feathers=1)
    potions = {a["potion"] for a in game.legal_actions(s, 0) if a["type"] == "brew"}
    assert potions == {"P41"}
    with pytest.raises(IllegalMove, match="banner"):
        apply(s, 0, {"type": "brew", "potion": "P11", "payment": ["berries", "mushrooms"]})


def test_a_secondary_banner_brews_too() -> None:
    s = _brew_phase("W04", ["P31"], roots=1, feathers=1)
    assert {"type": "brew", "potion": "P31", "payment": ["roots", "feathers"]} in game.legal_actions(s, 0)


def test_novices_cannot_brew() -> None:
    s = _game()
    only_player_lists(s, 0, hand=["N1a", "N1b"], potions=["S1"])
    give(s, 0, herbs=1, berries=1)
    s, _ = apply(s, 0, {"type": "play", "witch": "N1a"})
    s, _ = apply(s, 0, {"type": "take", "item": "tool", "location": "mountains"})
    s, ev = apply(s, 0, {"type": "take", "item": "tool", "location": "forest"})
    assert types(ev)[-1] == "TurnEnded"


def test_payment_with_pairs_for_an_ingredient_and_for_a_tool() -> None:
    s = _brew_phase("W02", ["P08"], herbs=1, mushrooms=2, feathers=2)
    actions = [a for a in game.legal_actions(s, 0) if a["type"] == "brew"]
    pairs = ["herbs", "pair:mushrooms", "pair:feathers"]
    assert {"type": "brew", "potion": "P08", "payment": pairs} in actions
    assert all(a["payment"][0] == "herbs" for a in actions)
    s2, ev = apply(s, 0, {"type": "brew", "potion": "P08", "payment": pairs})
    assert ev[0]["spent"] == {"herbs": 1, "feathers": 2, "mushrooms": 2}
    assert s2["players"][0]["clan_tools"] == []
    assert sum(s2["players"][0]["ingredients"].values()) == 0
    with pytest.raises(IllegalMove):
        apply(s, 0, {"type": "brew", "potion": "P08", "payment": ["herbs", "roots", "crystal"]})
    with pytest.raises(IllegalMove):
        apply(
            s,
            0,
            {"type": "brew", "potion": "P08", "payment": ["pair:herbs", "pair:mushrooms", "pair:feathers"]},
        )
    with pytest.raises(IllegalMove):
        apply(s, 0, {"type": "brew", "potion": "P08", "payment": ["herbs", "pair:mushrooms"]})


def test_a_pair_replaces_only_what_the_player_lacks() -> None:
    """Both rulebooks: a pair stands in when you "cannot obtain" the ingredient or tool; and
    ``decide`` accepts exactly the payments ``legal_actions`` lists."""
    s = _brew_phase("W03", ["P01"], herbs=1, berries=1, roots=2)
    brews = [a for a in game.legal_actions(s, 0) if a["type"] == "brew"]
    assert brews == [{"type": "brew", "potion": "P01", "payment": ["herbs", "berries"]}]
    with pytest.raises(IllegalMove, match="only what you lack"):
        apply(s, 0, {"type": "brew", "potion": "P01", "payment": ["pair:roots", "berries"]})
    s = _brew_phase("W02", ["P08"], herbs=1, mushrooms=2, feathers=2)
    with pytest.raises(IllegalMove, match="ingredient order"):
        apply(
            s, 0, {"type": "brew", "potion": "P08", "payment": ["herbs", "pair:feathers", "pair:mushrooms"]}
        )


def test_a_tool_in_the_clan_serves_every_later_potion() -> None:
    s = _brew_phase("W03", ["P06", "P05"], herbs=1, berries=1, roots=1, feathers=2)
    only_player_lists(s, 0, clan_tools=["P02"])
    s2, ev = apply(s, 0, {"type": "brew", "potion": "P06", "payment": ["herbs", "berries", "roots", "flask"]})
    assert ev[0]["tools_to_clan"] == [] and s2["players"][0]["clan_tools"] == ["P02"]
    any_tool = [a for a in game.legal_actions(s, 0) if a["type"] == "brew" and a["potion"] == "P05"]
    assert {"type": "brew", "potion": "P05", "payment": ["feathers", "feathers", "flask"]} in any_tool


def test_any_tool_may_be_a_new_tool_which_joins_the_clan() -> None:
    s = _brew_phase("W03", ["P05"], feathers=2)
    only_player_lists(s, 0, clan_tools=["P02"], tools=["P03", "P01"])
    payments = [a["payment"][2] for a in game.legal_actions(s, 0) if a["type"] == "brew"]
    assert payments == ["crystal", "flask", "cauldron"]
    s, ev = apply(s, 0, {"type": "brew", "potion": "P05", "payment": ["feathers", "feathers", "cauldron"]})
    assert ev[0]["tools_to_clan"] == ["P03"]
    assert game.score(s)["seats"][0]["breakdown"]["tools"] == 3


def test_a_clan_witch_is_never_played_again_and_rest_returns_the_others() -> None:
    s = _brew_phase("W03", ["P01"], herbs=1, berries=1)
    s, _ = apply(s, 0, {"type": "brew", "potion": "P01", "payment": ["herbs", "berries"]})
    s, _ = apply(s, 1, {"type": "play", "witch": "N2a"})
    while game.to_move(s) == [1]:
        s, _ = apply(s, 1, game.legal_actions(s, 1)[0])
    assert "W03" not in s["players"][0]["hand"]
    s, _ = apply(s, 0, {"type": "play", "witch": "N1a"})
    while game.to_move(s) == [0]:
        s, _ = apply(s, 0, next(a for a in game.legal_actions(s, 0) if a["item"] == "tool"))
    while game.to_move(s) == [1]:
        s, _ = apply(s, 1, game.legal_actions(s, 1)[-1])
    assert {"type": "rest"} in game.legal_actions(s, 0)
    s, ev = apply(s, 0, {"type": "rest"})
    assert ev[0] == {"type": "Rested", "seat": 0, "witches": ["N1a"]}
    assert sorted(s["players"][0]["hand"]) == ["N1a", "N1b"]
    assert "W03" in s["players"][0]["clan_witches"]
    s, _ = apply(s, 0, {"type": "take", "item": "ingredient", "location": "lake", "slot": 2})
    assert game.to_move(s) == [0]
    with pytest.raises(IllegalMove):
        apply(s, 0, {"type": "take", "item": "potion", "location": "lake"})
    s, ev = apply(s, 0, {"type": "take", "item": "ingredient", "location": "mountains", "slot": 0})
    assert types(ev)[-1] == "TurnEnded" and game.to_move(s) == [1]


def test_rest_needs_a_played_witch_and_is_forced_with_an_empty_hand() -> None:
    s = _game()
    with pytest.raises(IllegalMove, match="played"):
        apply(s, 0, {"type": "rest"})
    only_player_lists(s, 0, hand=[], played=["N1a", "N1b"])
    assert game.legal_actions(s, 0) == [{"type": "rest"}]


def test_turn_order_and_wrong_seat() -> None:
    s = _game()
    with pytest.raises(NotYourTurn):
        apply(s, 1, {"type": "play", "witch": "N2a"})
    with pytest.raises(IllegalMove):
        apply(s, 0, {"type": "play", "witch": "N2a"})
    with pytest.raises(IllegalMove, match="unknown"):
        apply(s, 0, {"type": "dance"})
    with pytest.raises(IllegalMove):
        apply(s, 0, {"type": "play", "witch": "N1a", "extra": 1})
    with pytest.raises(IllegalMove):
        apply(s, 0, {"type": "ostara_turn"})


def test_an_end_turn_is_offered_when_a_brew_is_possible() -> None:
    s = _brew_phase("W03", ["P01"], herbs=1, berries=1)
    assert {"type": "end_turn"} in game.legal_actions(s, 0)
    s, ev = apply(s, 0, {"type": "end_turn"})
    assert types(ev) == ["TurnEnded"] and s["players"][0]["played"] == ["W03"]


@pytest.mark.parametrize(
    "command",
    [
        None,
        [],
        {"type": 3},
        {"witch": "W01"},
        {"type": "play", "witch": ["W01"]},
        {"type": "play"},
        {"type": "take", "item": "ingredient", "location": "forest", "slot": "0"},
        {"type": "take", "item": "ingredient", "location": "forest", "slot": True},
        {"type": "take", "item": "ingredient", "location": "forest", "slot": 7},
        {"type": "take", "item": ["potion"], "location": "forest"},
        {"type": "take", "item": "potion", "location": {"x": 1}},
        {"type": "refresh", "target": ["witches"]},
        {"type": "brew", "potion": 5, "payment": None},
        {"type": "brew", "potion": "P01", "payment": [1, 2]},
        {"type": "tame", "animal": {}},
        {"type": "end_turn", "now": True},
        {"type": "rest", "picks": []},
    ],
)
def test_malformed_commands_are_refused_with_a_reason(command: object) -> None:
    s = _game()
    only_player_lists(s, 0, hand=["W01", "N1a", "N1b"], potions=["P01"])
    for state in (
        s,
        apply(s, 0, {"type": "play", "witch": "W01"})[0],
        _brew_phase("W03", ["P01"], herbs=1, berries=1),
    ):
        with pytest.raises(IllegalMove) as info:
            apply(state, 0, command)  # type: ignore[arg-type]
        assert info.value.reason
