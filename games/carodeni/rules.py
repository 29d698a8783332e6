"""A player's turn: Collect (play a witch, optionally refresh, spend every action point top to
bottom) or Rest (played witches back to hand, two ingredients), then brew at most one potion or,
in the animal variant, tame one animal. Each command is one granular step, so ``legal_actions``
lists every choice; the turn ends by itself when nothing is left to decide."""

from __future__ import annotations

from typing import Any

from games.carodeni import content, ostara, payment
from games.carodeni.flow import Flow
from games.carodeni.state import State, current_seat
from games.interface import Command, Event, IllegalMove
from games.rng import Rng
from games.toolkit import check_fields, open_command

#: What makes a command final for ``undo`` (``games.interface.Rules.IRREVERSIBLE``):
#: a card from a deck or the bag, Ostara's draws, the turn handed on, the end.
IRREVERSIBLE: frozenset[str] = frozenset(
    {
        "SlotRefilled",
        "OfferRefreshed",
        "DeckRanOut",
        "OstaraChose",
        "OstaraTokenDrawn",
        "OstaraTokensShuffled",
        "TurnEnded",
        "EndTriggered",
        "GameEnded",
    }
)


_ITEMS = ("ingredient", "potion", "tool", "witch", "animal")


def to_move(s: State) -> list[int]:
    return [] if s["over"] else [current_seat(s)]


def is_over(s: State) -> bool:
    return bool(s["over"])


def _location(s: State) -> int | None:
    """Action points are spent top to bottom: the first location with points left."""
    return next((i for i, n in enumerate(s["turn"]["ap"]) if n > 0), None)


def _takes_at(s: State, i: int, ingredients_only: bool = False) -> list[Command]:
    loc = content.LOCATIONS[i]
    b = s["board"][i]
    out: list[Command] = [
        {"type": "take", "item": "ingredient", "location": loc, "slot": slot}
        for slot, k in enumerate(b["ingredients"])
        if k is not None
    ]
    if ingredients_only:
        return out
    if b["potion"] is not None:
        out.append({"type": "take", "item": "potion", "location": loc})
        out.append({"type": "take", "item": "tool", "location": loc})
    if b["witch"] is not None:
        out.append({"type": "take", "item": "witch", "location": loc})
        if s["animals"]:
            out.append({"type": "take", "item": "animal", "location": loc})
    return out


def active_witch(s: State, seat: int) -> str | None:
    """The witch played this turn, on top of the pile; novices can neither brew nor tame."""
    played = s["players"][seat]["played"]
    if s["turn"]["phase"] != "brew" or not played or content.is_novice(played[-1]):
        return None
    return str(played[-1])


def brewable(s: State, seat: int) -> list[str]:
    """Potions whose banner the active witch carries, or pale ``?`` ones any witch brews."""
    witch = active_witch(s, seat)
    if witch is None:
        return []
    colours = content.banners(witch)
    return [
        p
        for p in s["players"][seat]["potions"]
        if content.potion_card(p)["colour"] in colours + (content.PALE,)
    ]


def brew_actions(s: State, seat: int) -> list[Command]:
    player = s["players"][seat]
    return [
        {"type": "brew", "potion": p, "payment": pay}
        for p in brewable(s, seat)
        for pay in payment.canonical(player, p)
    ]


def tame_actions(s: State, seat: int) -> list[Command]:
    """An animal beside the clan card joins the clan for its ingredient; never two alike."""
    if not s["animals"] or active_witch(s, seat) is None:
        return []
    player = s["players"][seat]
    owned = {content.witches()[c]["animal"] for c in player["clan_animals"]}
    out = []
    for card in player["animals"]:
        animal = content.witches()[card]["animal"]
        if animal not in owned and player["ingredients"][content.animal_price()[animal]] > 0:
            out.append({"type": "tame", "animal": card})
    return out


def legal_actions(s: State, seat: int) -> list[Command]:
    if s["over"] or seat != current_seat(s):
        return []
    if seat == s["ostara"]:
        return [{"type": "ostara_turn"}]
    turn = s["turn"]
    phase = turn["phase"]
    player = s["players"][seat]
    if phase == "start":
        out: list[Command] = [{"type": "play", "witch": w} for w in player["hand"]]
        if player["played"] or not player["hand"]:
            out.append({"type": "rest"})
        return out
    if phase == "collect":
        i = _location(s)
        assert i is not None
        out = []
        takes = _takes_at(s, i)
        if turn["refresh"]:
            out += [{"type": "refresh", "target": "witches"}, {"type": "refresh", "target": "potions"}]
            out += [
                {"type": "refresh", "target": "ingredients", "location": loc} for loc in content.LOCATIONS
            ]
            if not takes:
                out.append({"type": "refresh", "target": "none"})
        return out + takes
    if phase == "rest":
        return [a for i in range(3) for a in _takes_at(s, i, ingredients_only=True)]
    if phase == "brew":
        return brew_actions(s, seat) + tame_actions(s, seat) + [{"type": "end_turn"}]
    return []


def _shape(command: Command, *names: str) -> None:
    """Every field of a command is required: a command names all it needs."""
    check_fields(command, names, required=names)


def decide(s: State, seat: int, command: Any, rng: Rng) -> list[Event]:
    kind = open_command(command, seat, over=is_over(s), to_move=to_move(s), commands=_HANDLERS)
    if (seat == s["ostara"]) != (kind == "ostara_turn"):
        if seat == s["ostara"]:
            raise IllegalMove("Ostara's seat only plays her automaton turn: ostara_turn")
        raise IllegalMove("ostara_turn is the turn of Ostara's seat, in the solo game")
    flow = Flow(s, rng)
    _HANDLERS[kind](flow, seat, command)
    _settle(flow, seat)
    return flow.events


def _phase(flow: Flow, *phases: str) -> None:
    if flow.state["turn"]["phase"] not in phases:
        raise IllegalMove(_PHASE_HINT[flow.state["turn"]["phase"]])


_PHASE_HINT = {
    "start": "start your turn: play a witch from your hand, or rest",
    "collect": "spend your witch's action points first (take items, top to bottom)",
    "rest": "take your two ingredients from the board first",
    "brew": "collecting is over: brew one potion, tame an animal or end the turn",
    "done": "your turn is over",
    "ostara": "Ostara is playing",
}


def _play(flow: Flow, seat: int, command: Command) -> None:
    _phase(flow, "start")
    _shape(command, "witch")
    if command["witch"] not in flow.state["players"][seat]["hand"]:
        raise IllegalMove("play a witch from your hand (clan witches are never played again)")
    flow.emit({"type": "WitchPlayed", "seat": seat, "witch": command["witch"]})


def _refresh(flow: Flow, seat: int, command: Command) -> None:
    _phase(flow, "collect")
    if not flow.state["turn"]["refresh"]:
        raise IllegalMove("only a witch with the refresh symbol refreshes, once, before collecting")
    target = command.get("target")
    if target == "ingredients":
        _shape(command, "target", "location")
        if command["location"] not in content.LOCATIONS:
            raise IllegalMove(f"location is one of {list(content.LOCATIONS)}")
        flow.refresh(seat, target, command["location"])
    elif target in ("witches", "potions"):
        _shape(command, "target")
        flow.refresh(seat, target, None)
    elif target == "none":
        _shape(command, "target")
        i = _location(flow.state)
        assert i is not None
        if _takes_at(flow.state, i):
            raise IllegalMove("the refresh is declined by taking an item")
        flow.emit({"type": "ActionPointsForfeited", "seat": seat, "location": content.LOCATIONS[i]})
    else:
        raise IllegalMove(
            "refresh all 'witches', all 'potions' or one location's 'ingredients' "
            "(or 'none' where nothing is left to take)"
        )


def _take(flow: Flow, seat: int, command: Command) -> None:
    s = flow.state
    _phase(flow, "collect", "rest")
    item = command.get("item")
    if item not in _ITEMS:
        raise IllegalMove(f"item is one of {list(_ITEMS)}")
    _shape(command, *(("item", "location", "slot") if item == "ingredient" else ("item", "location")))
    loc = command["location"]
    if loc not in content.LOCATIONS:
        raise IllegalMove(f"location is one of {list(content.LOCATIONS)}")
    i = content.LOCATIONS.index(loc)
    if s["turn"]["phase"] == "rest":
        if item != "ingredient":
            raise IllegalMove("resting takes two ingredients, from any location")
    elif i != _location(s):
        here = content.LOCATIONS[_location(s) or 0]
        raise IllegalMove(f"action points are spent top to bottom: take from the {here} now")
    b = s["board"][i]
    if item == "ingredient":
        slot = command["slot"]
        if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < 3:
            raise IllegalMove("slot is 0, 1 or 2")
        if b["ingredients"][slot] is None:
            raise IllegalMove("that ingredient space is empty")
        flow.take(seat, item, loc, slot)
        return
    if item == "animal" and not s["animals"]:
        raise IllegalMove("animals are taken only in the animal variant")
    if item in ("potion", "tool") and b["potion"] is None:
        raise IllegalMove("no potion card at this location")
    if item in ("witch", "animal") and b["witch"] is None:
        raise IllegalMove("no witch card at this location")
    flow.take(seat, item, loc)


def _rest(flow: Flow, seat: int, command: Command) -> None:
    _phase(flow, "start")
    _shape(command)
    player = flow.state["players"][seat]
    if not player["played"]:
        raise IllegalMove("rest needs at least one played witch")
    flow.emit({"type": "Rested", "seat": seat, "witches": list(player["played"])})


def _brew(flow: Flow, seat: int, command: Command) -> None:
    s = flow.state
    _phase(flow, "brew")
    _shape(command, "potion", "payment")
    witch = active_witch(s, seat)
    if witch is None:
        raise IllegalMove("novices cannot brew")
    potion = command["potion"]
    player = s["players"][seat]
    if potion not in player["potions"]:
        raise IllegalMove("brew one of your own potions")
    if potion not in brewable(s, seat):
        raise IllegalMove("the active witch must carry the potion's banner (or it is a pale ? potion)")
    why = payment.check(player, potion, command["payment"])
    if why is not None:
        raise IllegalMove(why)
    offered = payment.canonical(player, potion)
    if command["payment"] not in offered:
        raise IllegalMove(
            "pay each requirement as printed when you hold it; a pair replaces only what you lack "
            f"(pairs in ingredient order): {offered[:3]}"
        )
    pay = list(command["payment"])
    flow.emit(
        {
            "type": "PotionBrewed",
            "seat": seat,
            "potion": potion,
            "witch": witch,
            "payment": pay,
            "spent": payment.spent(pay),
            "tools_to_clan": payment.tools_to_clan(player, potion, pay),
        }
    )
    flow.claim_goals(seat)


def _tame(flow: Flow, seat: int, command: Command) -> None:
    _phase(flow, "brew")
    _shape(command, "animal")
    if command not in tame_actions(flow.state, seat):
        raise IllegalMove(
            "tame an animal beside your clan card, with an active witch (not a "
            "novice), paying its ingredient, never a second of the same animal"
        )
    card = command["animal"]
    animal = content.witches()[card]["animal"]
    flow.emit(
        {
            "type": "AnimalTamed",
            "seat": seat,
            "card": card,
            "animal": animal,
            "paid": content.animal_price()[animal],
        }
    )
    flow.claim_goals(seat)


def _end_turn(flow: Flow, seat: int, command: Command) -> None:
    _phase(flow, "brew")
    _shape(command)
    flow.end_turn()


def _settle(flow: Flow, seat: int) -> None:
    """Forfeit action points where nothing is left to take (unless a refresh could still refill
    the place), and end the turn once no choice is left (no potion to brew, no animal to tame,
    two ingredients rested, or a brew made)."""
    s = flow.state
    if s["over"] or current_seat(s) != seat:
        return
    turn = s["turn"]
    while turn["phase"] == "collect":
        i = _location(s)
        if i is None or turn["refresh"] or _takes_at(s, i):
            break
        flow.emit({"type": "ActionPointsForfeited", "seat": seat, "location": content.LOCATIONS[i]})
        turn = s["turn"]
    phase = turn["phase"]
    nothing_to_brew = phase == "brew" and not brew_actions(s, seat) and not tame_actions(s, seat)
    rested = phase == "rest" and (
        turn["picks"] >= 2 or not any(k is not None for b in s["board"] for k in b["ingredients"])
    )
    if phase == "done" or nothing_to_brew or rested:
        flow.end_turn()


def _ostara_turn(flow: Flow, seat: int, command: Command) -> None:
    _shape(command)
    ostara.turn(flow)


_HANDLERS = {
    "play": _play,
    "refresh": _refresh,
    "take": _take,
    "rest": _rest,
    "brew": _brew,
    "tame": _tame,
    "end_turn": _end_turn,
    "ostara_turn": _ostara_turn,
}
