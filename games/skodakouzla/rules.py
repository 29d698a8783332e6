"""The commands of the turn: what a seat may do in phase 3 (each creature's attack or ability),
phase 4 (the main phase) and phase 6 (the colour check), and the seats to move."""

from __future__ import annotations

import contextlib
from itertools import combinations
from typing import Any

from games.interface import IllegalMove
from games.rng import Rng
from games.skodakouzla.choices import (
    act_choices,
    buy_price,
    card_choices,
    lay_price,
    may_lay_spell,
    store_refusal,
)
from games.skodakouzla.effects import run
from games.skodakouzla.flow import Flow, WizardDefeated, end_main, end_turn
from games.skodakouzla.state import Event, State, card_of
from games.toolkit import check_fields, open_command

Command = dict[str, Any]


#: What makes a command final for ``undo`` (``games.interface.Rules.IRREVERSIBLE``):
#: cards drawn or shuffled, the shop refilled, a hand shown by a discard, the turn handed on, the end.
IRREVERSIBLE: frozenset[str] = frozenset(
    {
        "CardsDrawn",
        "DeckShuffled",
        "ShopRefilled",
        "ShopShuffled",
        "HandDiscarded",
        "TurnEnded",
        "TurnStarted",
        "GameEnded",
    }
)


def to_move(state: State) -> list[int]:
    if state is None or state["phase"] == "over":
        return []
    return [state["active"]]


def is_over(state: State) -> bool:
    return state is not None and state["phase"] == "over"


def legal_actions(state: State, seat: int) -> list[Command]:
    """The exact commands of ``seat`` now; empty when it is not that wizard's turn."""
    if state["phase"] == "over" or seat != state["active"]:
        return []
    phase = state["phase"]
    if state["pending"]:
        return _resolves(state, seat)
    if phase == "main":
        return _main(state, seat)
    if phase == "colour":
        return _colour(state, seat)
    return []


def _resolves(state: State, seat: int) -> list[Command]:
    return [
        {"type": "resolve", "card": uid, **choice}
        for uid in state["pending"]
        for choice in act_choices(state, seat, uid)
    ]


def _main(state: State, seat: int) -> list[Command]:
    p = state["players"][seat]
    magic = p["magic"]
    out: list[Command] = []
    for uid in p["hand"]:
        out.append({"type": "turn_into_magic", "card": uid})
    for uid in p["hand"]:
        if lay_price(state, seat, uid) > magic:
            continue
        if card_of(state, uid)["type"] == "spell" and not may_lay_spell(state, seat, uid):
            continue
        for choice in card_choices(state, seat, uid):
            out.append({"type": "lay", "card": uid, **choice})
    offer = state["shop"]["offer"]
    for uid in offer:
        if buy_price(state, seat, uid, False) <= magic:
            out.append({"type": "buy", "card": uid})
        if state["options"]["shop_topdeck"] and buy_price(state, seat, uid, True) <= magic:
            out.append({"type": "buy", "card": uid, "top": True})
    if magic >= 1:
        for n in (1, 2):
            for pair in combinations(offer, n):
                out.append({"type": "swap_shop", "cards": list(pair)})
        for e in p["row"]:
            if "store" in card_of(state, e["uid"]) and store_refusal(state, seat, e["uid"]) is None:
                out.append({"type": "store_magic", "card": e["uid"]})
    out.append({"type": "end_phase"})
    return out


def _colour(state: State, seat: int) -> list[Command]:
    out: list[Command] = []
    options = state["colour"]
    if options["remove"]:
        out.extend({"type": "remove_card", "card": uid} for uid in state["players"][seat]["discard"])
    out.extend({"type": "promote", "colour": c} for c in options["promote"])
    out.append({"type": "end_phase"})
    return out


def decide(state: State, seat: int, command: Command, rng: Rng) -> list[Event]:
    """Validate ``command`` and return its events, with every automatic phase it reaches."""
    kind = open_command(command, seat, over=is_over(state), to_move=to_move(state), commands=_COMMANDS)
    flow = Flow(state, rng)
    with contextlib.suppress(WizardDefeated):
        _COMMANDS[kind](flow, seat, command)
    return flow.events


def simulate(state: State, seat: int, command: Command, rng: Rng) -> State:
    """The state after ``command`` (bots use it on a state built from their own view)."""
    flow = Flow(state, rng)
    with contextlib.suppress(WizardDefeated):
        _COMMANDS[command["type"]](flow, seat, command)
    return flow.state


def _require_phase(state: State, phase: str, what: str) -> None:
    if state["phase"] != phase:
        now = _PHASE_NAMES[state["phase"]]
        raise IllegalMove(f"{what} only in the {_PHASE_NAMES[phase]}; now it is the {now}")
    if phase == "main" and state["pending"]:
        raise IllegalMove("the creatures of Lektvar zuřivosti attack first")


_PHASE_NAMES = {
    "effects": "effects phase (3)",
    "main": "main phase (4)",
    "colour": "colour check (6)",
    "start": "start of the turn",
    "end": "end of the turn",
    "setup": "setup",
    "over": "end of the game",
}


def _choice_of(command: Command, keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: command[k] for k in keys if k in command}


def _hand_card(state: State, seat: int, command: Command) -> str:
    uid = command.get("card")
    if not isinstance(uid, str) or uid not in state["players"][seat]["hand"]:
        raise IllegalMove("that card is not in your hand")
    return uid


def _turn_into_magic(flow: Flow, seat: int, command: Command) -> None:
    """A card from the hand to the discard pile for magic equal to its printed value."""
    _require_phase(flow.state, "main", "cards are turned into magic")
    check_fields(command, ("card",))
    uid = _hand_card(flow.state, seat, command)
    flow.emit(
        {"type": "CardTurnedIntoMagic", "seat": seat, "card": uid, "magic": card_of(flow.state, uid)["cost"]}
    )


def _lay(flow: Flow, seat: int, command: Command) -> None:
    """Pay the card's price; permanents join the row at an end, spells resolve at once."""
    s = flow.state
    _require_phase(s, "main", "cards are laid")
    check_fields(
        command,
        (
            "card",
            "end",
            "from",
            "target",
        ),
    )
    uid = _hand_card(s, seat, command)
    c = card_of(s, uid)
    price = lay_price(s, seat, uid)
    if price > s["players"][seat]["magic"]:
        have = s["players"][seat]["magic"]
        raise IllegalMove(f"laying {c['names']['en']} costs {price} magic; you have {have}")
    if c["type"] == "spell" and not may_lay_spell(s, seat, uid):
        raise IllegalMove("a frozen wizard may not lay attack spells (the sword symbol)")
    choice = _choice_of(command, ("end", "from", "target"))
    if choice not in card_choices(s, seat, uid):
        raise IllegalMove(f"{c['names']['en']} takes one of: {card_choices(s, seat, uid)}")
    laid = {"seat": seat, "card": uid, "price": price}
    if "end" in choice:
        laid["end"] = choice["end"]
    flow.emit({"type": "CardLaid", **laid})
    rest = {k: v for k, v in choice.items() if k != "end"}
    if c["type"] == "spell":
        for eff in c.get("effects", []):
            run(flow, seat, eff, rest, {"kind": "spell"})
    else:
        for eff in c.get("on_lay", []):
            run(flow, seat, eff, rest, {"kind": "creature", "card": uid})


def _buy(flow: Flow, seat: int, command: Command) -> None:
    """Buy a shop card onto the discard pile (or, with the top-deck rule, onto the deck)."""
    s = flow.state
    _require_phase(s, "main", "cards are bought")
    check_fields(
        command,
        (
            "card",
            "top",
        ),
    )
    uid = command.get("card")
    if not isinstance(uid, str) or uid not in s["shop"]["offer"]:
        raise IllegalMove("that card is not on offer in the shop")
    top = command.get("top", False)
    if "top" in command and (not s["options"]["shop_topdeck"] or top is not True):
        raise IllegalMove("'top': true needs the shop top-deck rule; omit it otherwise")
    price = buy_price(s, seat, uid, top)
    if price > s["players"][seat]["magic"]:
        raise IllegalMove(f"that purchase costs {price} magic; you have {s['players'][seat]['magic']}")
    flow.emit({"type": "CardBought", "seat": seat, "card": uid, "price": price, "top": top})


def _swap_shop(flow: Flow, seat: int, command: Command) -> None:
    """For 1 magic, 1–2 shop cards leave the game and as many new ones take their place.

    The rule is an exchange of cards of a six-card offer („vyměnit až 2 libovolné karty“, new ones
    laid „místo nich“); its „dvě nové“ speaks of the usual two, not of growing the offer."""
    s = flow.state
    _require_phase(s, "main", "shop cards are swapped")
    check_fields(command, ("cards",))
    uids = command.get("cards")
    offer = s["shop"]["offer"]
    if (
        not isinstance(uids, list)
        or not 1 <= len(uids) <= 2
        or not all(isinstance(u, str) for u in uids)
        or len(set(uids)) != len(uids)
    ):
        raise IllegalMove("swap 1 or 2 different shop cards")
    if any(u not in offer for u in uids):
        raise IllegalMove("only cards on offer can be swapped")
    if sorted(uids, key=offer.index) != uids:
        raise IllegalMove("list the swapped cards in the shop's order")
    if s["players"][seat]["magic"] < 1:
        raise IllegalMove("swapping shop cards costs 1 magic")
    flow.emit({"type": "ShopSwapped", "seat": seat, "removed": list(uids)})
    flow.refill_shop(len(uids))


def _store_magic(flow: Flow, seat: int, command: Command) -> None:
    """Put 1 magic on Knihovnička, Velká knihovna or Strom so it is not returned at the end."""
    s = flow.state
    _require_phase(s, "main", "magic is stored")
    check_fields(command, ("card",))
    reason = store_refusal(s, seat, command.get("card"))
    if reason:
        raise IllegalMove(reason)
    flow.emit({"type": "MagicStored", "seat": seat, "card": command["card"]})


def _resolve(flow: Flow, seat: int, command: Command) -> None:
    """A creature's attack or ability: in phase 3 each unfrozen creature must act once; in the
    main phase the creatures of Lektvar zuřivosti attack."""
    s = flow.state
    if s["phase"] not in ("effects", "main") or not s["pending"]:
        raise IllegalMove("no creature is waiting to attack or use its ability")
    check_fields(
        command,
        (
            "card",
            "option",
            "from",
            "target",
        ),
    )
    uid = command.get("card")
    if not isinstance(uid, str) or uid not in s["pending"]:
        raise IllegalMove(f"creatures still to act: {s['pending']}")
    option = command.get("option")
    if type(option) is not int:
        raise IllegalMove("'option' is the index (an integer) of the creature's attack or ability")
    choice = _choice_of(command, ("option", "from", "target"))
    allowed = act_choices(s, seat, uid)
    if choice not in allowed:
        raise IllegalMove(f"{card_of(s, uid)['names']['en']} may do one of: {allowed}")
    act = card_of(s, uid)["acts"][choice["option"]]
    rest = {k: v for k, v in choice.items() if k != "option"}
    flow.emit({"type": "CreatureActed", "seat": seat, "card": uid, "option": choice["option"]})
    run(flow, seat, act, rest, {"kind": "creature", "card": uid})
    if flow.state["phase"] == "effects" and not flow.state["pending"]:
        flow.emit({"type": "PhaseStarted", "phase": "main", "seat": seat})


def _end_phase(flow: Flow, seat: int, command: Command) -> None:
    """End the main phase (4) or the colour check (6)."""
    s = flow.state
    check_fields(command, ())
    if s["phase"] == "main":
        if s["pending"]:
            raise IllegalMove("the creatures of Lektvar zuřivosti attack first")
        end_main(flow, seat)
    elif s["phase"] == "colour":
        end_turn(flow, seat)
    else:
        raise IllegalMove("every unfrozen creature must attack or use its ability first")


def _remove_card(flow: Flow, seat: int, command: Command) -> None:
    """Colour check: remove one card of the discard pile from the game."""
    s = flow.state
    _require_phase(s, "colour", "a card is removed")
    check_fields(command, ("card",))
    if not s["colour"]["remove"]:
        raise IllegalMove("removing a card needs 2 laid cards of one colour, one of them new")
    if command.get("card") not in s["players"][seat]["discard"]:
        raise IllegalMove("only a card of your discard pile can be removed")
    flow.emit({"type": "CardRemoved", "seat": seat, "card": command["card"]})
    _after_colour_choice(flow, seat)


def _promote(flow: Flow, seat: int, command: Command) -> None:
    """Colour check: 3 laid cards of a colour (one new) make the level-2 wizard of it, +1 life."""
    s = flow.state
    _require_phase(s, "colour", "a wizard is promoted")
    check_fields(command, ("colour",))
    if command.get("colour") not in s["colour"]["promote"]:
        raise IllegalMove(f"promotion needs 3 laid cards of the colour, one new: {s['colour']['promote']}")
    flow.emit({"type": "WizardPromoted", "seat": seat, "colour": command["colour"], "life": 1})
    _after_colour_choice(flow, seat)


def _after_colour_choice(flow: Flow, seat: int) -> None:
    colour = flow.state["colour"]
    if not colour["remove"] and not colour["promote"]:
        end_turn(flow, seat)


_COMMANDS = {
    "turn_into_magic": _turn_into_magic,
    "lay": _lay,
    "buy": _buy,
    "swap_shop": _swap_shop,
    "store_magic": _store_magic,
    "resolve": _resolve,
    "end_phase": _end_phase,
    "remove_card": _remove_card,
    "promote": _promote,
}
