"""Deciding as a sequence of events: every event is applied to a private copy at once, so each
next step (a refill, a goal, the end of a turn) is decided on the state it really follows."""

from __future__ import annotations

from typing import Any

from games.carodeni import content, goals
from games.carodeni.state import Event, State, apply, clone, copy_player, current_seat
from games.rng import Rng
from games.toolkit import Recorder

#: The solo game lasts exactly 15 rounds, in three stages of five.
SOLO_ROUNDS = 15
STAGE_ROUNDS = 5


def draw_from(bag: dict[str, int], plan: list[str], rng: Rng) -> str | None:
    """One ingredient from the bag: the arranged sequence while its next kind is in the bag (else
    the arrangement is dropped), then the seeded stream; ``None`` when the bag is empty."""
    total = sum(bag.values())
    if total == 0:
        return None
    if plan and bag.get(plan[0], 0) > 0:
        kind = plan.pop(0)
    else:
        plan.clear()
        r = rng.randbelow(total)
        kind = ""
        for k in content.kinds():
            if r < bag[k]:
                kind = k
                break
            r -= bag[k]
    bag[kind] -= 1
    return kind


class Flow(Recorder):
    """A command's events recorded on a private copy of the state, with the steps that follow
    without a choice (refills, a deck running out, goals, the end of a turn and of the game). A
    seat's area is copied only when an event first changes it (most commands touch one seat;
    copying five is the cost)."""

    def __init__(self, state: State, rng: Rng) -> None:
        seat = current_seat(state)
        super().__init__(clone(state, seat, every_seat=False), self._apply)
        self._copied = {seat}
        self.rng = rng

    def _apply(self, state: State, event: Event) -> State:
        seat = event.get("seat")
        if seat is not None and seat not in self._copied:
            state["players"][seat] = copy_player(state["players"][seat])
            self._copied.add(seat)
        apply(state, event)
        return state

    def draw_kind(self) -> str | None:
        return draw_from(dict(self.state["bag"]), list(self.state["bag_plan"]), self.rng)

    def take(self, seat: int, item: str, location: str, slot: int | None = None) -> None:
        """The item leaves the board and its place is refilled at once (it may be taken again)."""
        b = self.state["board"][content.LOCATIONS.index(location)]
        event: dict[str, Any] = {"type": "ItemTaken", "seat": seat, "item": item, "location": location}
        if item == "ingredient":
            assert slot is not None
            event.update(slot=slot, kind=b["ingredients"][slot])
        elif item in ("potion", "tool"):
            event["card"] = b["potion"]
        else:
            event["card"] = b["witch"]
            if item == "animal":
                event["animal"] = content.witches()[b["witch"]]["animal"]
        if item == "tool":
            event["tool"] = content.potions()[b["potion"]]["back"]
        self.emit(event)
        if item == "ingredient":
            self.emit(
                {
                    "type": "SlotRefilled",
                    "location": location,
                    "item": "ingredient",
                    "slot": slot,
                    "kind": self.draw_kind(),
                }
            )
        elif item in ("potion", "tool"):
            self._refill_card(location, "potion")
        else:
            self._refill_card(location, "witch")

    def _refill_card(self, location: str, item: str) -> None:
        deck = self.state[f"{item}_deck"]
        card = deck[0] if deck else None
        self.emit({"type": "SlotRefilled", "location": location, "item": item, "card": card})
        if card is not None and not self.state[f"{item}_deck"]:
            self.deck_ran_out(item)

    def deck_ran_out(self, item: str) -> None:
        """An empty deck triggers the end; the cards set aside at setup become its deck."""
        name = "witches" if item == "witch" else "potions"
        self.emit({"type": "DeckRanOut", "deck": name, "aside": list(self.state[f"{item}_aside"])})
        self.trigger_end(f"{name}_deck_ran_out")

    def refresh(self, seat: int, target: str, location: str | None) -> None:
        """Three cards to the bottom of their deck and three new from the top, or one location's
        ingredients back into the bag and three new drawn."""
        s = self.state
        if target == "ingredients":
            assert location is not None
            b = s["board"][content.LOCATIONS.index(location)]
            bag = dict(s["bag"])
            for k in b["ingredients"]:
                if k is not None:
                    bag[k] += 1
            plan = list(s["bag_plan"])
            drawn = [draw_from(bag, plan, self.rng) for _ in range(3)]
            self.emit(
                {
                    "type": "OfferRefreshed",
                    "seat": seat,
                    "target": target,
                    "location": location,
                    "returned": list(b["ingredients"]),
                    "drawn": drawn,
                }
            )
            return
        item = "witch" if target == "witches" else "potion"
        returned = [b[item] for b in s["board"]]
        deck = s[f"{item}_deck"] + [c for c in returned if c is not None]
        drawn = [deck[i] if i < len(deck) else None for i in range(3)]
        self.emit(
            {"type": "OfferRefreshed", "seat": seat, "target": target, "returned": returned, "drawn": drawn}
        )
        if not s[f"{item}_deck"] and any(c is not None for c in drawn):
            self.deck_ran_out(item)

    def trigger_end(self, reason: str) -> None:
        """Finish this round and play one more (the solo game ignores it: it lasts 15 rounds)."""
        if self.state["solo"] or self.state["end_round"] is not None:
            return
        self.emit({"type": "EndTriggered", "reason": reason, "last_round": self.state["round"] + 1})

    def claim_goals(self, seat: int) -> None:
        """Goals go at once to the first who meets them; the second-to-last one triggers the end."""
        for event in goals.claims(self.state, seat):
            self.emit(event)
            claimed = sum(1 for g in self.state["goals"] if g["claimed_by"] is not None)
            if claimed >= len(self.state["goals"]) - 1:
                self.trigger_end("goals")

    def end_turn(self) -> None:
        s = self.state
        seat = current_seat(s)
        last_in_round = s["turn"]["index"] == len(s["order"]) - 1
        rnd = s["round"]
        self.emit({"type": "TurnEnded", "seat": seat, "round": rnd})
        if not last_in_round:
            return
        if s["solo"]:
            if rnd + 1 >= SOLO_ROUNDS:
                self._grandmaster()
                self.emit({"type": "GameEnded", "reason": "fifteen_rounds"})
        elif s["end_round"] is not None and rnd >= s["end_round"]:
            self.emit({"type": "GameEnded", "reason": s["end_reason"]})

    def _grandmaster(self) -> None:
        """Grandmaster difficulty: the goals nobody claimed go to Ostara at the end."""
        s = self.state
        if s["difficulty"] != "grandmaster":
            return
        for i, goal in enumerate(s["goals"]):
            if goal["claimed_by"] is None:
                self.emit(
                    {
                        "type": "GoalClaimed",
                        "seat": s["ostara"],
                        "goal": i,
                        "token": goal["token"],
                        "side": goal["side"],
                        "points": goals.side(goal)["points"],
                        "reason": "unclaimed_at_end",
                    }
                )
