"""The turn: eight phases, the commands of each, and setup.

Phases 1–2 (curse check, income), the start of 3 (upkeep of laid cards), 5 (discard, return
magic), 7 (thaw) and 8 (draw, refill the shop) need no choice and run inside the command that
reaches them. The player chooses in phase 3 (each creature's attack or ability), phase 4 (the
main phase) and phase 6 (the colour check).
"""

from __future__ import annotations

import contextlib
from typing import Any

from games.interface import IllegalMove, InvalidOptions, NotYourTurn
from games.rng import Rng
from games.skodakouzla.content import (
    COLOURS,
    card,
    choice_effect,
    curse_loss,
    is_attack_spell,
    levels,
    shop_cards,
    starter_deck,
)
from games.skodakouzla.effects import Ctx, GameOver, choices, run
from games.skodakouzla.options import arranged_order, normalize
from games.skodakouzla.state import HAND_SIZE, SHOP_SIZE, Event, State, card_of, entry

Command = dict[str, Any]
ENDS = ("left", "right")
#: Cards the first player draws for the first turn; the second prepares a full hand.
FIRST_HAND = 3


# --- setup -------------------------------------------------------------------------------------

def setup(options: dict[str, Any], seats: int, rng: Rng) -> list[Event]:
    """Shuffle the starter decks and the shop, lay 6 shop cards, deal 3 and 5, start turn 1."""
    if seats != 2:
        raise InvalidOptions("Škoda kouzla is a duel for exactly 2 players")
    opts = normalize(dict(options))
    two = opts["two_colours"]
    if two is True:
        kept = sorted(rng.shuffle(list(COLOURS))[:2])
    elif two:
        kept = sorted(two)
    else:
        kept = list(COLOURS)
    cards_of: dict[str, str] = {}
    decks: list[list[str]] = []
    for seat in range(seats):
        uids = []
        for k, card_id in enumerate(starter_deck(), 1):
            uid = f"p{seat}.{k:02d}"
            cards_of[uid] = card_id
            uids.append(uid)
        decks.append(uids)
    shop: list[str] = []
    unused: list[str] = []
    for k, card_id in enumerate(shop_cards(), 1):
        uid = f"s{k:02d}"
        cards_of[uid] = card_id
        colour = card(card_id)["colour"]
        (shop if colour == "neutral" or colour in kept else unused).append(uid)
    arranged = opts["arranged"] or {}
    masters = opts["masters"]
    wizards = [
        {"level": 2 if masters else 1, "colour": masters[s] if masters else None,
         "life": levels()[2 if masters else 1]["life"]}
        for s in range(seats)
    ]
    events: list[Event] = [{
        "type": "GameStarted", "options": opts, "seats": seats, "arranged": bool(opts["arranged"]),
        "shop_colours": kept, "cards": cards_of, "unused": unused, "wizards": wizards,
    }]
    arranged_decks = arranged.get("decks", [[], []])
    for seat in range(seats):
        top, rest = arranged_order(decks[seat], arranged_decks[seat], cards_of)
        events.append({"type": "DeckShuffled", "seat": seat, "deck": top + rng.shuffle(rest)})
    top, rest = arranged_order(shop, arranged.get("shop", []), cards_of)
    events.append({"type": "ShopShuffled", "deck": top + rng.shuffle(rest)})
    ctx = Ctx(None, rng)
    for e in events:
        ctx.emit(e.pop("type"), **e)
    ctx.refill_shop(SHOP_SIZE)
    ctx.draw(0, FIRST_HAND)
    ctx.draw(1, HAND_SIZE)
    _start_turn(ctx, 0)
    return ctx.events


# --- prices ------------------------------------------------------------------------------------

def wizard_frozen(player: dict[str, Any]) -> bool:
    return bool(player["frozen"])


def lay_price(state: State, seat: int, uid: str) -> int:
    """The card's value, 1 less for a level-2 wizard's own colour (lost while frozen under the
    other-freeze modification); turning a card into magic always yields the full value."""
    p = state["players"][seat]
    c = card_of(state, uid)
    price = int(c["cost"])
    ability = not (state["options"]["other_freeze"] and wizard_frozen(p))
    if ability and p["level"] == 2 and c["colour"] == p["colour"]:
        price -= int(levels()[2]["discount"])
    return max(0, price)


def buy_price(state: State, seat: int, uid: str, top: bool) -> int:
    """The card's value, 1 less for the first purchase with a merchant, plus the top-deck fee."""
    c = card_of(state, uid)
    price = int(c["cost"])
    if state["buys"] == 0 and _merchant(state, seat):
        price -= 1
    if top:
        price += 2 if c["cost"] <= 4 else 3
    return max(0, price)


def _merchant(state: State, seat: int) -> bool:
    """Obchodník laid in an earlier turn and not frozen."""
    return any(
        card_of(state, e["uid"]).get("passive", {}).get("first_buy_discount")
        and not e["frozen"] and not e["new"]
        for e in state["players"][seat]["row"]
    )


def may_lay_spell(state: State, seat: int, uid: str) -> bool:
    """A frozen wizard may not lay attack spells (unless the other-freeze modification is on)."""
    p = state["players"][seat]
    if state["options"]["other_freeze"] or not wizard_frozen(p):
        return True
    return not is_attack_spell(card_of(state, uid))


def card_choices(state: State, seat: int, uid: str) -> list[dict[str, Any]]:
    """The choices laying ``uid`` takes: placement end for permanents, times a direction/target."""
    c = card_of(state, uid)
    if c["type"] == "spell":
        eff = choice_effect(c.get("effects", []))
        return choices(state, seat, eff, {"kind": "spell"}) if eff else [{}]
    eff = choice_effect(c.get("on_lay", []))
    extra = choices(state, seat, eff, {"kind": "creature", "card": uid}, laying=uid) if eff else [{}]
    return [{"end": end, **x} for end in ENDS for x in extra]


def act_choices(state: State, seat: int, uid: str) -> list[dict[str, Any]]:
    """What a creature may do: each alternative of its card, with its choices.

    In the main phase (Lektvar zuřivosti) only attacks; an ability that cannot do anything
    (removing curses without curses) is not an alternative.
    """
    c = card_of(state, uid)
    fury = state["phase"] == "main"
    out: list[dict[str, Any]] = []
    for i, act in enumerate(c.get("acts", [])):
        if fury and act["do"] != "attack":
            continue
        if act["do"] == "uncurse" and not state["players"][seat]["curses"]:
            continue
        for x in choices(state, seat, act, {"kind": "creature", "card": uid}):
            out.append({"option": i, **x})
    return out


def colour_options(state: State, seat: int) -> dict[str, Any]:
    """Phase 6: 2 cards of a colour laid in play this turn (one new) remove a discard card; 3
    promote a level-1 wizard. Neutral cards never count."""
    p = state["players"][seat]
    counts: dict[str, int] = {}
    fresh: dict[str, bool] = {}
    laid = [(e["uid"], e["new"]) for e in p["row"]] + [(u, True) for u in p["limbo"]]
    for uid, new in laid:
        colour = card_of(state, uid)["colour"]
        if colour == "neutral":
            continue
        counts[colour] = counts.get(colour, 0) + 1
        fresh[colour] = fresh.get(colour, False) or new
    eligible = {c: n for c, n in counts.items() if fresh[c]}
    remove = bool(p["discard"]) and any(n >= 2 for n in eligible.values())
    promote = [c for c in COLOURS if eligible.get(c, 0) >= 3] if p["level"] == 1 else []
    return {"remove": remove, "promote": promote}


# --- the turn machine --------------------------------------------------------------------------

def _start_turn(ctx: Ctx, seat: int) -> None:
    """Phases 1–3: curse check, income, upkeep of laid cards, then the creatures that must act."""
    s = ctx.state
    ctx.emit("TurnStarted", seat=seat, turn=s["turn"] + 1)
    p = ctx.state["players"][seat]
    lose = min(curse_loss(p["level"], p["curses"]), p["life"])
    if lose:
        ctx.emit("Damaged", seat=seat, target="wizard", amount=lose, cause="curses")
    p = ctx.state["players"][seat]
    income = ctx.state["options"]["income"]
    if income and not (ctx.state["options"]["other_freeze"] and wizard_frozen(p)):
        ctx.emit("MagicGained", seat=seat, amount=income, source="income")
    for e in list(ctx.state["players"][seat]["row"]):
        c = card_of(ctx.state, e["uid"])
        frozen = c["type"] == "creature" and e["frozen"]
        if c.get("upkeep", {}).get("magic"):
            ctx.emit("MagicGained", seat=seat, amount=c["upkeep"]["magic"], source=e["uid"])
        if e["magic"] and not frozen:
            ctx.emit("MagicReleased", seat=seat, card=e["uid"], amount=e["magic"] * c["store"]["release"])
    pending = [
        e["uid"] for e in ctx.state["players"][seat]["row"]
        if not e["frozen"] and act_choices(ctx.state, seat, e["uid"])
    ]
    if pending:
        ctx.emit("PhaseStarted", phase="effects", seat=seat, pending=pending)
    else:
        ctx.emit("PhaseStarted", phase="main", seat=seat)


def _end_main(ctx: Ctx, seat: int) -> None:
    """Phase 5 (discard the hand, return unstored magic), then the colour check."""
    p = ctx.state["players"][seat]
    if p["hand"]:
        ctx.emit("HandDiscarded", seat=seat, cards=list(p["hand"]))
    if p["magic"]:
        ctx.emit("MagicReturned", seat=seat, amount=p["magic"])
    options = colour_options(ctx.state, seat)
    if options["remove"] or options["promote"]:
        ctx.emit("PhaseStarted", phase="colour", seat=seat, colour=options)
    else:
        _end_turn(ctx, seat)


def _end_turn(ctx: Ctx, seat: int) -> None:
    """Phases 7–8: laid spells to the discard pile, thaw, draw 5, refill the shop."""
    p = ctx.state["players"][seat]
    if p["limbo"]:
        ctx.emit("SpellsDiscarded", seat=seat, cards=list(p["limbo"]))
    turn = ctx.state["turn"]
    thawed = ["wizard"] if 0 < p["frozen"] <= turn else []
    thawed += [e["uid"] for e in p["row"] if 0 < e["frozen"] <= turn]
    if thawed:
        ctx.emit("Thawed", seat=seat, targets=thawed)
    ctx.draw(seat, HAND_SIZE)
    ctx.refill_shop(SHOP_SIZE - len(ctx.state["shop"]["offer"]))
    ctx.emit("TurnEnded", seat=seat)
    _start_turn(ctx, 1 - seat)


# --- decide ------------------------------------------------------------------------------------

def decide(state: State, seat: int, command: Command, rng: Rng) -> list[Event]:
    """Validate ``command`` and return its events, with every automatic phase it reaches."""
    if not isinstance(command, dict) or not isinstance(command.get("type"), str):
        raise IllegalMove("a command is an object with a 'type'")
    kind = command["type"]
    handler = _COMMANDS.get(kind)
    if handler is None:
        raise IllegalMove(f"unknown command {kind!r}; known: {sorted(_COMMANDS)}")
    if state["phase"] == "over":
        raise NotYourTurn("the game is over")
    if seat != state["active"]:
        raise NotYourTurn(f"it is the turn of seat {state['active']}")
    ctx = Ctx(state, rng)
    with contextlib.suppress(GameOver):
        handler(ctx, seat, command)
    return ctx.events


def simulate(state: State, seat: int, command: Command, rng: Rng) -> State:
    """The state after ``command`` (bots use it on a state built from their own view)."""
    ctx = Ctx(state, rng)
    with contextlib.suppress(GameOver):
        _COMMANDS[command["type"]](ctx, seat, command)
    return ctx.state


def _keys(command: Command, *allowed: str) -> None:
    extra = set(command) - {"type", *allowed}
    if extra:
        raise IllegalMove(f"unexpected fields {sorted(extra)} for {command['type']!r}")


def _require_phase(state: State, phase: str, what: str) -> None:
    if state["phase"] != phase:
        now = _PHASE_NAMES[state["phase"]]
        raise IllegalMove(f"{what} only in the {_PHASE_NAMES[phase]}; now it is the {now}")
    if phase == "main" and state["pending"]:
        raise IllegalMove("the creatures of Lektvar zuřivosti attack first")


_PHASE_NAMES = {
    "effects": "effects phase (3)", "main": "main phase (4)", "colour": "colour check (6)",
    "start": "start of the turn", "end": "end of the turn", "setup": "setup", "over": "end of the game",
}


def _choice_of(command: Command, keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: command[k] for k in keys if k in command}


def _hand_card(state: State, seat: int, command: Command) -> str:
    uid = command.get("card")
    if not isinstance(uid, str) or uid not in state["players"][seat]["hand"]:
        raise IllegalMove("that card is not in your hand")
    return uid


def _turn_into_magic(ctx: Ctx, seat: int, command: Command) -> None:
    """A card from the hand to the discard pile for magic equal to its printed value."""
    _require_phase(ctx.state, "main", "cards are turned into magic")
    _keys(command, "card")
    uid = _hand_card(ctx.state, seat, command)
    ctx.emit("CardTurnedIntoMagic", seat=seat, card=uid, magic=card_of(ctx.state, uid)["cost"])


def _lay(ctx: Ctx, seat: int, command: Command) -> None:
    """Pay the card's price; permanents join the row at an end, spells resolve at once."""
    s = ctx.state
    _require_phase(s, "main", "cards are laid")
    _keys(command, "card", "end", "from", "target")
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
    ctx.emit("CardLaid", **laid)
    rest = {k: v for k, v in choice.items() if k != "end"}
    if c["type"] == "spell":
        for eff in c.get("effects", []):
            run(ctx, seat, eff, rest, {"kind": "spell"})
    else:
        for eff in c.get("on_lay", []):
            run(ctx, seat, eff, rest, {"kind": "creature", "card": uid})


def _buy(ctx: Ctx, seat: int, command: Command) -> None:
    """Buy a shop card onto the discard pile (or, with the top-deck rule, onto the deck)."""
    s = ctx.state
    _require_phase(s, "main", "cards are bought")
    _keys(command, "card", "top")
    uid = command.get("card")
    if not isinstance(uid, str) or uid not in s["shop"]["offer"]:
        raise IllegalMove("that card is not on offer in the shop")
    top = command.get("top", False)
    if "top" in command and (not s["options"]["shop_topdeck"] or top is not True):
        raise IllegalMove("'top': true needs the shop top-deck rule; omit it otherwise")
    price = buy_price(s, seat, uid, top)
    if price > s["players"][seat]["magic"]:
        raise IllegalMove(f"that purchase costs {price} magic; you have {s['players'][seat]['magic']}")
    ctx.emit("CardBought", seat=seat, card=uid, price=price, top=top)


def _swap_shop(ctx: Ctx, seat: int, command: Command) -> None:
    """For 1 magic, 1–2 shop cards leave the game and as many new ones take their place.

    The rule is an exchange of cards of a six-card offer („vyměnit až 2 libovolné karty“, new ones
    laid „místo nich“); its „dvě nové“ speaks of the usual two, not of growing the offer."""
    s = ctx.state
    _require_phase(s, "main", "shop cards are swapped")
    _keys(command, "cards")
    uids = command.get("cards")
    offer = s["shop"]["offer"]
    if (not isinstance(uids, list) or not 1 <= len(uids) <= 2
            or not all(isinstance(u, str) for u in uids) or len(set(uids)) != len(uids)):
        raise IllegalMove("swap 1 or 2 different shop cards")
    if any(u not in offer for u in uids):
        raise IllegalMove("only cards on offer can be swapped")
    if sorted(uids, key=offer.index) != uids:
        raise IllegalMove("list the swapped cards in the shop's order")
    if s["players"][seat]["magic"] < 1:
        raise IllegalMove("swapping shop cards costs 1 magic")
    ctx.emit("ShopSwapped", seat=seat, removed=list(uids))
    ctx.refill_shop(len(uids))


def _store_magic(ctx: Ctx, seat: int, command: Command) -> None:
    """Put 1 magic on Knihovnička, Velká knihovna or Strom so it is not returned at the end."""
    s = ctx.state
    _require_phase(s, "main", "magic is stored")
    _keys(command, "card")
    reason = store_refusal(s, seat, command.get("card"))
    if reason:
        raise IllegalMove(reason)
    ctx.emit("MagicStored", seat=seat, card=command["card"])


def store_refusal(state: State, seat: int, uid: Any) -> str | None:
    p = state["players"][seat]
    e = entry(p, uid) if isinstance(uid, str) else None
    if e is None or "store" not in card_of(state, uid):
        return "magic is stored only on your laid Knihovnička, Velká knihovna or Strom"
    c = card_of(state, uid)
    if c["type"] == "creature" and e["frozen"]:
        return "a frozen Strom cannot take magic"
    if e["magic"] >= c["store"]["capacity"]:
        return f"{c['names']['en']} holds at most {c['store']['capacity']} magic"
    if p["magic"] < 1:
        return "you have no magic to store"
    return None


def _resolve(ctx: Ctx, seat: int, command: Command) -> None:
    """A creature's attack or ability: in phase 3 each unfrozen creature must act once; in the
    main phase the creatures of Lektvar zuřivosti attack."""
    s = ctx.state
    if s["phase"] not in ("effects", "main") or not s["pending"]:
        raise IllegalMove("no creature is waiting to attack or use its ability")
    _keys(command, "card", "option", "from", "target")
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
    ctx.emit("CreatureActed", seat=seat, card=uid, option=choice["option"])
    run(ctx, seat, act, rest, {"kind": "creature", "card": uid})
    if ctx.state["phase"] == "effects" and not ctx.state["pending"]:
        ctx.emit("PhaseStarted", phase="main", seat=seat)


def _end_phase(ctx: Ctx, seat: int, command: Command) -> None:
    """End the main phase (4) or the colour check (6)."""
    s = ctx.state
    _keys(command)
    if s["phase"] == "main":
        if s["pending"]:
            raise IllegalMove("the creatures of Lektvar zuřivosti attack first")
        _end_main(ctx, seat)
    elif s["phase"] == "colour":
        _end_turn(ctx, seat)
    else:
        raise IllegalMove("every unfrozen creature must attack or use its ability first")


def _remove_card(ctx: Ctx, seat: int, command: Command) -> None:
    """Colour check: remove one card of the discard pile from the game."""
    s = ctx.state
    _require_phase(s, "colour", "a card is removed")
    _keys(command, "card")
    if not s["colour"]["remove"]:
        raise IllegalMove("removing a card needs 2 laid cards of one colour, one of them new")
    if command.get("card") not in s["players"][seat]["discard"]:
        raise IllegalMove("only a card of your discard pile can be removed")
    ctx.emit("CardRemoved", seat=seat, card=command["card"])
    _after_colour_choice(ctx, seat)


def _promote(ctx: Ctx, seat: int, command: Command) -> None:
    """Colour check: 3 laid cards of a colour (one new) make the level-2 wizard of it, +1 life."""
    s = ctx.state
    _require_phase(s, "colour", "a wizard is promoted")
    _keys(command, "colour")
    if command.get("colour") not in s["colour"]["promote"]:
        raise IllegalMove(f"promotion needs 3 laid cards of the colour, one new: {s['colour']['promote']}")
    ctx.emit("WizardPromoted", seat=seat, colour=command["colour"], life=1)
    _after_colour_choice(ctx, seat)


def _after_colour_choice(ctx: Ctx, seat: int) -> None:
    colour = ctx.state["colour"]
    if not colour["remove"] and not colour["promote"]:
        _end_turn(ctx, seat)


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
