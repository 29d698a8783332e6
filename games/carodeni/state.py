"""The folded game state and how each event changes it.

State is plain JSON data (the platform snapshots it). :func:`evolve` copies the state once with a
hand-written, structure-aware :func:`clone` and then applies the event in place, so a fold stays
cheap; :mod:`rules` uses the same in-place :func:`apply` on its private copy while deciding.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.carodeni import content

State = dict[str, Any]
Event = dict[str, Any]

_PLAYER_LISTS = (
    "hand",
    "played",
    "potions",
    "tools",
    "animals",
    "clan_witches",
    "clan_potions",
    "clan_tools",
    "clan_animals",
    "goals",
)


def new_player(hand: list[str], potions: list[str]) -> dict[str, Any]:
    player: dict[str, Any] = {name: [] for name in _PLAYER_LISTS}
    player["ingredients"] = {k: 0 for k in content.kinds()}
    player["hand"] = list(hand)
    player["potions"] = list(potions)
    return player


def copy_player(p: dict[str, Any]) -> dict[str, Any]:
    q: dict[str, Any] = {name: list(p[name]) for name in _PLAYER_LISTS}
    q["ingredients"] = dict(p["ingredients"])
    return q


#: The parts of the state (besides the acting seat's area) that each event changes in place.
_TOUCHES: dict[str, frozenset[str]] = {
    "WitchPlayed": frozenset({"turn"}),
    "OfferRefreshed": frozenset({"turn", "board", "bag", "decks"}),
    "ItemTaken": frozenset({"turn", "board"}),
    "SlotRefilled": frozenset({"board", "bag", "decks"}),
    "ActionPointsForfeited": frozenset({"turn"}),
    "Rested": frozenset({"turn"}),
    "PotionBrewed": frozenset({"turn", "bag"}),
    "AnimalTamed": frozenset({"turn", "bag"}),
    "GoalClaimed": frozenset({"goals"}),
    "OstaraTokensShuffled": frozenset({"ostara"}),
    "OstaraTokenDrawn": frozenset({"turn", "ostara"}),
}
_EVERY_PART = frozenset({"turn", "board", "bag", "decks", "goals", "ostara"})
_NOTHING: frozenset[str] = frozenset()
_UNTOUCHED = ("DeckRanOut", "EndTriggered", "TurnEnded", "GameEnded", "OstaraChose")


def clone(
    s: State, only_seat: int | None = None, every_seat: bool = True, parts: frozenset[str] = _EVERY_PART
) -> State:
    """A copy sharing nothing mutable with ``s`` (cheaper than ``copy.deepcopy``); with
    ``every_seat`` false only ``only_seat``'s area is copied, and only the listed ``parts`` (an
    event changes one seat and a few parts at most; the rest may be shared, never mutated)."""
    c = dict(s)
    if "board" in parts:
        c["board"] = [
            {"ingredients": list(b["ingredients"]), "potion": b["potion"], "witch": b["witch"]}
            for b in s["board"]
        ]
    c["players"] = [copy_player(p) if every_seat or i == only_seat else p for i, p in enumerate(s["players"])]
    if "turn" in parts:
        c["turn"] = dict(s["turn"], ap=list(s["turn"]["ap"]))
    if "goals" in parts:
        c["goals"] = [dict(g) for g in s["goals"]]
    if "bag" in parts:
        c["bag"] = dict(s["bag"])
        c["bag_plan"] = list(s["bag_plan"])
    if "decks" in parts:
        for name in ("witch_deck", "potion_deck", "witch_aside", "potion_aside"):
            c[name] = list(s[name])
    if "ostara" in parts and s["ostara_state"] is not None:
        o = s["ostara_state"]
        c["ostara_state"] = dict(o, order=list(o["order"]), plan=[list(x) for x in o["plan"]])
    return c


def _fresh_turn(index: int) -> dict[str, Any]:
    return {
        "index": index,
        "phase": "start",
        "witch": None,
        "ap": [0, 0, 0],
        "refresh": False,
        "taken": 0,
        "picks": 0,
    }


def start(e: Event) -> State:
    """The state that ``GameStarted`` describes."""
    players = [new_player(p["hand"], p["potions"]) for p in e["players"]]
    bag = dict(content.ingredient_counts())
    board = []
    for loc in e["board"]:
        for k in loc["ingredients"]:
            if k is not None:
                bag[k] -= 1
        board.append(
            {"ingredients": list(loc["ingredients"]), "potion": loc["potion"], "witch": loc["witch"]}
        )
    ostara_state = None
    if e["solo"]:
        ostara_state = {
            "stage": -1,
            "order": [],
            "plan": [list(x) for x in e["ostara_plan"]],
            "token": None,
            "tokens": list(e["ostara_tokens"]),
        }
    return {
        "seats": e["seats"],
        "solo": e["solo"],
        "difficulty": e["difficulty"],
        "animals": e["animals"],
        "order": list(e["order"]),
        "ostara": e["ostara"],
        "witch_deck": list(e["witch_deck"]),
        "potion_deck": list(e["potion_deck"]),
        "witch_aside": list(e["witch_aside"]),
        "potion_aside": list(e["potion_aside"]),
        "bag": bag,
        "bag_plan": list(e["bag_plan"]),
        "board": board,
        "players": players,
        "goals": [{"token": g["token"], "side": g["side"], "claimed_by": None} for g in e["goals"]],
        "turn": _fresh_turn(0),
        "round": 0,
        "end_round": None,
        "end_reason": None,
        "over": False,
        "ostara_state": ostara_state,
    }


def current_seat(s: State) -> int:
    return int(s["order"][s["turn"]["index"]])


def _draw_kind(s: State, kind: str | None) -> None:
    if kind is None:
        return
    s["bag"][kind] -= 1
    plan = s["bag_plan"]
    if plan and plan[0] == kind:
        plan.pop(0)
    elif plan:
        s["bag_plan"] = []


def _draw_card(s: State, deck: str, card: str | None) -> None:
    if card is not None:
        cards = s[deck]
        assert cards[0] == card, f"{deck} top is {cards[0]}, event says {card}"
        cards.pop(0)


def _witch_played(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    p["hand"].remove(e["witch"])
    p["played"].append(e["witch"])
    card = content.witch_card(e["witch"])
    s["turn"].update(
        phase="collect",
        witch=e["witch"],
        refresh=bool(card.get("refresh")),
        ap=[card["ap"][loc] for loc in content.LOCATIONS],
    )


def _offer_refreshed(s: State, e: Event) -> None:
    s["turn"]["refresh"] = False
    if e["target"] == "ingredients":
        b = s["board"][content.LOCATIONS.index(e["location"])]
        for k in e["returned"]:
            if k is not None:
                s["bag"][k] += 1
        for k in e["drawn"]:
            _draw_kind(s, k)
        b["ingredients"] = list(e["drawn"])
        return
    item, deck = ("witch", "witch_deck") if e["target"] == "witches" else ("potion", "potion_deck")
    s[deck].extend(c for c in e["returned"] if c is not None)
    for b, card in zip(s["board"], e["drawn"], strict=True):
        _draw_card(s, deck, card)
        b[item] = card


def _slot_refilled(s: State, e: Event) -> None:
    b = s["board"][content.LOCATIONS.index(e["location"])]
    if e["item"] == "ingredient":
        _draw_kind(s, e["kind"])
        b["ingredients"][e["slot"]] = e["kind"]
        return
    item, deck = ("witch", "witch_deck") if e["item"] == "witch" else ("potion", "potion_deck")
    _draw_card(s, deck, e["card"])
    b[item] = e["card"]


def _deck_ran_out(s: State, e: Event) -> None:
    deck = "witch" if e["deck"] == "witches" else "potion"
    s[f"{deck}_deck"] = list(s[f"{deck}_aside"])
    s[f"{deck}_aside"] = []


def _end_triggered(s: State, e: Event) -> None:
    s["end_round"] = e["last_round"]
    s["end_reason"] = e["reason"]


def _points_forfeited(s: State, e: Event) -> None:
    turn = s["turn"]
    turn["ap"][content.LOCATIONS.index(e["location"])] = 0
    turn["refresh"] = False
    if not any(turn["ap"]):
        turn["phase"] = "brew"


def _rested(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    p["hand"].extend(p["played"])
    p["played"] = []
    s["turn"].update(phase="rest", picks=0)


def _potion_brewed(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    for k, n in e["spent"].items():
        p["ingredients"][k] -= n
        s["bag"][k] += n
    p["potions"].remove(e["potion"])
    p["clan_potions"].append(e["potion"])
    p["played"].remove(e["witch"])
    p["clan_witches"].append(e["witch"])
    for card in e["tools_to_clan"]:
        p["tools"].remove(card)
        p["clan_tools"].append(card)
    s["turn"]["phase"] = "done"


def _animal_tamed(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    p["ingredients"][e["paid"]] -= 1
    s["bag"][e["paid"]] += 1
    p["animals"].remove(e["card"])
    p["clan_animals"].append(e["card"])
    s["turn"]["phase"] = "done"


def _goal_claimed(s: State, e: Event) -> None:
    s["goals"][e["goal"]]["claimed_by"] = e["seat"]
    s["players"][e["seat"]]["goals"].append(e["goal"])


def _turn_ended(s: State, e: Event) -> None:
    index = s["turn"]["index"] + 1
    if index == len(s["order"]):
        index = 0
        s["round"] += 1
    s["turn"] = _fresh_turn(index)


def _game_ended(s: State, e: Event) -> None:
    s["over"] = True
    s["end_reason"] = e["reason"]


def _tokens_shuffled(s: State, e: Event) -> None:
    o = s["ostara_state"]
    o["stage"] = e["stage"]
    o["order"] = list(e["order"])


def _token_drawn(s: State, e: Event) -> None:
    o = s["ostara_state"]
    o["order"].pop(0)
    o["token"] = e["token"]
    s["turn"]["phase"] = "ostara"


def _explained(s: State, e: Event) -> None:
    """Ostara's reasons change nothing: the events that follow carry out her choice."""


def apply(s: State, e: Event) -> None:
    """Applies ``e`` to ``s`` in place; ``s`` must be a private copy."""
    fold = _FOLDERS.get(e["type"])
    if fold is None:
        raise ValueError(f"unknown event type {e['type']!r}")
    fold(s, e)


def _take(s: State, e: Event) -> None:
    """An item leaves the board for the seat; Ostara's witches are all active and her animals
    go straight to her clan (solo rules)."""
    seat = e["seat"]
    p = s["players"][seat]
    b = s["board"][content.LOCATIONS.index(e["location"])]
    item = e["item"]
    ostara = seat == s["ostara"]
    if item == "ingredient":
        b["ingredients"][e["slot"]] = None
        p["ingredients"][e["kind"]] += 1
    elif item in ("potion", "tool"):
        b["potion"] = None
        p["potions" if item == "potion" else "tools"].append(e["card"])
    else:
        b["witch"] = None
        if item == "witch":
            p["played" if ostara else "hand"].append(e["card"])
        else:
            p["clan_animals" if ostara else "animals"].append(e["card"])
    turn = s["turn"]
    turn["taken"] += 1
    turn["refresh"] = False
    if turn["phase"] == "collect":
        turn["ap"][content.LOCATIONS.index(e["location"])] -= 1
        if not any(turn["ap"]):
            turn["phase"] = "brew"
    elif turn["phase"] == "rest":
        turn["picks"] += 1


_FOLDERS: dict[str, Callable[[State, Event], None]] = {
    "WitchPlayed": _witch_played,
    "OfferRefreshed": _offer_refreshed,
    "ItemTaken": _take,
    "SlotRefilled": _slot_refilled,
    "DeckRanOut": _deck_ran_out,
    "EndTriggered": _end_triggered,
    "ActionPointsForfeited": _points_forfeited,
    "Rested": _rested,
    "PotionBrewed": _potion_brewed,
    "AnimalTamed": _animal_tamed,
    "GoalClaimed": _goal_claimed,
    "TurnEnded": _turn_ended,
    "GameEnded": _game_ended,
    "OstaraTokensShuffled": _tokens_shuffled,
    "OstaraTokenDrawn": _token_drawn,
    "OstaraChose": _explained,
}


def evolve(state: State | None, event: Event) -> State:
    """The state after ``event``; the input is left untouched."""
    if event["type"] == "GameStarted":
        return start(event)
    assert state is not None, "the first event must be GameStarted"
    kind = event["type"]
    parts = _NOTHING if kind in _UNTOUCHED else _TOUCHES.get(kind, _EVERY_PART)
    s = clone(state, event.get("seat"), every_seat=False, parts=parts)
    apply(s, event)
    return s
