"""A command's events as they happen, and the phases that need no choice.

Phases 1–2 (curse check, income), the start of 3 (upkeep of laid cards), 5 (discard, return
magic), 7 (thaw) and 8 (draw, refill the shop) run inside the command that reaches them.
"""

from __future__ import annotations

from typing import Any

from games.rng import Rng
from games.skodakouzla.choices import act_choices, colour_options, wizard_frozen
from games.skodakouzla.content import curse_loss
from games.skodakouzla.state import HAND_SIZE, SHOP_SIZE, Event, State, apply, card_of, clone, entry


class GameOver(Exception):
    """A wizard lost its last life: the game ends at once, whatever was still to resolve."""


class Ctx:
    """A working copy of the state that records every event ``decide`` emits."""

    def __init__(self, state: State | None, rng: Rng) -> None:
        self.state: State = clone(state) if state is not None else {}
        self.events: list[Event] = []
        self.rng = rng

    def emit(self, type_: str, **data: Any) -> None:
        """Record an event and apply it; a card at 0 life is destroyed, a wizard at 0 loses."""
        e = {"type": type_, **data}
        self.events.append(e)
        self.state = apply(self.state or None, e)
        if type_ != "Damaged":
            return
        p = self.state["players"][e["seat"]]
        if e["target"] == "wizard":
            if p["life"] <= 0:
                self.emit("GameEnded", winner=1 - e["seat"], loser=e["seat"])
                raise GameOver
            return
        row_entry = entry(p, e["target"])
        if row_entry is not None and row_entry["life"] <= 0:
            self.emit("CardDestroyed", seat=e["seat"], card=e["target"], magic=row_entry["magic"])

    def draw(self, seat: int, n: int) -> None:
        """Draw ``n``; an empty deck is rebuilt from the shuffled discard pile first."""
        p = self.state["players"][seat]
        while n > 0:
            if not p["deck"]:
                if not p["discard"]:
                    return
                self.emit("DeckShuffled", seat=seat, deck=self.rng.shuffle(p["discard"]))
                p = self.state["players"][seat]
            take = p["deck"][:n]
            self.emit("CardsDrawn", seat=seat, cards=take)
            p = self.state["players"][seat]
            n -= len(take)

    def refill_shop(self, n: int) -> None:
        """Lay ``n`` shop cards; an empty shop deck is rebuilt from the removed shop cards."""
        while n > 0:
            shop = self.state["shop"]
            if not shop["deck"]:
                if not shop["removed"]:
                    return
                self.emit("ShopShuffled", deck=self.rng.shuffle(shop["removed"]))
                shop = self.state["shop"]
            take = shop["deck"][:n]
            self.emit("ShopRefilled", cards=take)
            n -= len(take)


def start_turn(ctx: Ctx, seat: int) -> None:
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


def end_main(ctx: Ctx, seat: int) -> None:
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
        end_turn(ctx, seat)


def end_turn(ctx: Ctx, seat: int) -> None:
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
    start_turn(ctx, 1 - seat)
