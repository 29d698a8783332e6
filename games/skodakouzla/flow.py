"""A command's events as they happen, and the phases that need no choice.

Phases 1–2 (curse check, income), the start of 3 (upkeep of laid cards), 5 (discard, return
magic), 7 (thaw) and 8 (draw, refill the shop) run inside the command that reaches them.
"""

from __future__ import annotations

from games.rng import Rng
from games.skodakouzla.choices import act_choices, colour_options, wizard_frozen
from games.skodakouzla.content import curse_loss
from games.skodakouzla.state import HAND_SIZE, SHOP_SIZE, Event, State, apply, card_of, clone, entry
from games.toolkit import Recorder


class WizardDefeated(Exception):
    """A wizard lost its last life: the game ends at once, whatever was still to resolve."""


class Flow(Recorder):
    """A command's events recorded on a private copy of the state, with what follows them at once:
    a card at 0 life is destroyed, a wizard at 0 loses (:class:`WizardDefeated` stops the command)."""

    def __init__(self, state: State | None, rng: Rng) -> None:
        super().__init__(None if state is None else clone(state), apply)
        self.rng = rng

    def emit(self, event: Event) -> None:
        super().emit(event)
        if event["type"] == "Damaged":
            self._damaged(event)

    def _damaged(self, e: Event) -> None:
        p = self.state["players"][e["seat"]]
        if e["target"] == "wizard":
            if p["life"] <= 0:
                self.emit({"type": "GameEnded", "winner": 1 - e["seat"], "loser": e["seat"]})
                raise WizardDefeated
            return
        row_entry = entry(p, e["target"])
        if row_entry is not None and row_entry["life"] <= 0:
            self.emit(
                {"type": "CardDestroyed", "seat": e["seat"], "card": e["target"], "magic": row_entry["magic"]}
            )

    def draw(self, seat: int, n: int) -> None:
        """Draw ``n``; an empty deck is rebuilt from the shuffled discard pile first."""
        p = self.state["players"][seat]
        while n > 0:
            if not p["deck"]:
                if not p["discard"]:
                    return
                self.emit({"type": "DeckShuffled", "seat": seat, "deck": self.rng.shuffle(p["discard"])})
                p = self.state["players"][seat]
            take = p["deck"][:n]
            self.emit({"type": "CardsDrawn", "seat": seat, "cards": take})
            p = self.state["players"][seat]
            n -= len(take)

    def refill_shop(self, n: int) -> None:
        """Lay ``n`` shop cards; an empty shop deck is rebuilt from the removed shop cards."""
        while n > 0:
            shop = self.state["shop"]
            if not shop["deck"]:
                if not shop["removed"]:
                    return
                self.emit({"type": "ShopShuffled", "deck": self.rng.shuffle(shop["removed"])})
                shop = self.state["shop"]
            take = shop["deck"][:n]
            self.emit({"type": "ShopRefilled", "cards": take})
            n -= len(take)


def start_turn(flow: Flow, seat: int) -> None:
    """Phases 1–3: curse check, income, upkeep of laid cards, then the creatures that must act."""
    s = flow.state
    flow.emit({"type": "TurnStarted", "seat": seat, "turn": s["turn"] + 1})
    p = flow.state["players"][seat]
    lose = min(curse_loss(p["level"], p["curses"]), p["life"])
    if lose:
        flow.emit({"type": "Damaged", "seat": seat, "target": "wizard", "amount": lose, "cause": "curses"})
    p = flow.state["players"][seat]
    income = flow.state["options"]["income"]
    if income and not (flow.state["options"]["other_freeze"] and wizard_frozen(p)):
        flow.emit({"type": "MagicGained", "seat": seat, "amount": income, "source": "income"})
    for e in list(flow.state["players"][seat]["row"]):
        c = card_of(flow.state, e["uid"])
        frozen = c["type"] == "creature" and e["frozen"]
        if c.get("upkeep", {}).get("magic"):
            flow.emit(
                {"type": "MagicGained", "seat": seat, "amount": c["upkeep"]["magic"], "source": e["uid"]}
            )
        if e["magic"] and not frozen:
            flow.emit(
                {
                    "type": "MagicReleased",
                    "seat": seat,
                    "card": e["uid"],
                    "amount": e["magic"] * c["store"]["release"],
                }
            )
    pending = [
        e["uid"]
        for e in flow.state["players"][seat]["row"]
        if not e["frozen"] and act_choices(flow.state, seat, e["uid"])
    ]
    if pending:
        flow.emit({"type": "PhaseStarted", "phase": "effects", "seat": seat, "pending": pending})
    else:
        flow.emit({"type": "PhaseStarted", "phase": "main", "seat": seat})


def end_main(flow: Flow, seat: int) -> None:
    """Phase 5 (discard the hand, return unstored magic), then the colour check."""
    p = flow.state["players"][seat]
    if p["hand"]:
        flow.emit({"type": "HandDiscarded", "seat": seat, "cards": list(p["hand"])})
    if p["magic"]:
        flow.emit({"type": "MagicReturned", "seat": seat, "amount": p["magic"]})
    options = colour_options(flow.state, seat)
    if options["remove"] or options["promote"]:
        flow.emit({"type": "PhaseStarted", "phase": "colour", "seat": seat, "colour": options})
    else:
        end_turn(flow, seat)


def end_turn(flow: Flow, seat: int) -> None:
    """Phases 7–8: laid spells to the discard pile, thaw, draw 5, refill the shop."""
    p = flow.state["players"][seat]
    if p["limbo"]:
        flow.emit({"type": "SpellsDiscarded", "seat": seat, "cards": list(p["limbo"])})
    turn = flow.state["turn"]
    thawed = ["wizard"] if 0 < p["frozen"] <= turn else []
    thawed += [e["uid"] for e in p["row"] if 0 < e["frozen"] <= turn]
    if thawed:
        flow.emit({"type": "Thawed", "seat": seat, "targets": thawed})
    flow.draw(seat, HAND_SIZE)
    flow.refill_shop(SHOP_SIZE - len(flow.state["shop"]["offer"]))
    flow.emit({"type": "TurnEnded", "seat": seat})
    start_turn(flow, 1 - seat)
