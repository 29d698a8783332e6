"""The one effect engine: every card's effects are data (``{"do": ..., ...}``) interpreted here.

The vocabulary: ``attack`` (basic from an end, targeted, two in a row, area; with ``curse``,
``freeze``, ``heal_wizard``, ``drain`` riders), ``heal``, ``add_life``, ``uncurse``, ``magic``,
``draw``, ``fury`` (Lektvar zuřivosti) and ``drain_magic``; plus the passive keys read elsewhere
(``reaction``, ``passive``, ``store``, ``upkeep``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.skodakouzla.content import card
from games.skodakouzla.state import State, card_of, entry, max_life

if TYPE_CHECKING:
    from games.skodakouzla.flow import Flow

Effect = dict[str, Any]
Choice = dict[str, Any]
#: Who attacks: ``{"kind": "spell"}`` or ``{"kind": "creature", "card": uid}``.
Source = dict[str, Any]


def freeze_until(state: State, owner: int) -> int:
    """The turn at whose end a new crystal is returned: the owner's next turn end.

    Received in the opponent's turn it stays for the owner's next turn; received in the owner's
    own turn (Mrazivé brnění's reaction) it stays for the rest of it, the opponent's turn and the
    owner's next turn.
    """
    return int(state["turn"]) + (2 if owner == state["active"] else 1)


def is_creature(uid: str, state: State) -> bool:
    return bool(card_of(state, uid)["type"] == "creature")


def warded(player: dict[str, Any], state: State) -> bool:
    """Magický prsten in the row shields the wizard from attack spells and their riders."""
    return any(card_of(state, e["uid"]).get("passive", {}).get("ward") for e in player["row"])


def _reduction(state: State, row_entry: dict[str, Any], source: Source) -> int:
    """Rytíř: attacks of creatures on it are 1 weaker, unless it is frozen."""
    if source["kind"] != "creature" or row_entry["frozen"]:
        return 0
    return int(card_of(state, row_entry["uid"]).get("passive", {}).get("creature_attack_reduction", 0))


def choices(state: State, seat: int, eff: Effect, source: Source, laying: str | None = None) -> list[Choice]:
    """Every choice an effect accepts: a direction, a target, or none (``[{}]``).

    ``laying`` is the uid of a defence or creature being laid, a target of its own on-lay effect.
    """
    do = eff["do"]
    me = state["players"][seat]
    if do == "attack":
        kind = eff["kind"]
        if kind in ("basic", "two"):
            return [{"from": "left"}, {"from": "right"}]
        if kind == "area":
            return [{}]
        opp = state["players"][1 - seat]
        out: list[Choice] = []
        if not (source["kind"] == "spell" and warded(opp, state)):
            out.append({"target": "wizard"})
        for e in opp["row"]:
            if eff.get("only") == "creature_or_wizard" and not is_creature(e["uid"], state):
                continue
            out.append({"target": e["uid"]})
        return out
    if do == "heal" and eff.get("target") == "choice":
        return [{"target": "wizard"}] + [
            {"target": e["uid"]} for e in me["row"] if is_creature(e["uid"], state)
        ]
    if do == "add_life" and eff.get("target") == "choice":
        out = [{"target": e["uid"]} for e in me["row"]]
        if laying is not None:
            out.append({"target": laying})
        return out
    return [{}]


def run(flow: Flow, seat: int, eff: Effect, choice: Choice, source: Source) -> None:
    """Resolve one effect of a card for ``seat``."""
    do = eff["do"]
    if do == "attack":
        attack(flow, seat, eff, choice, source)
    elif do == "heal":
        heal(flow, seat, choice.get("target", "wizard"), eff["amount"])
    elif do == "add_life":
        _add_life(flow, seat, eff, choice, source)
    elif do == "uncurse":
        n = min(eff["amount"], flow.state["players"][seat]["curses"])
        if n:
            flow.emit({"type": "CursesRemoved", "seat": seat, "amount": n})
    elif do == "magic":
        flow.emit(
            {"type": "MagicGained", "seat": seat, "amount": eff["amount"], "source": source.get("card")}
        )
    elif do == "draw":
        flow.draw(seat, eff["amount"])
    elif do == "fury":
        _fury(flow, seat)
    elif do == "drain_magic":
        for e in flow.state["players"][1 - seat]["row"]:
            if e["magic"]:
                flow.emit({"type": "MagicDrained", "seat": 1 - seat, "card": e["uid"], "amount": e["magic"]})
        flow.emit(
            {"type": "MagicGained", "seat": seat, "amount": eff["amount"], "source": source.get("card")}
        )
    else:
        raise ValueError(f"unknown effect {do!r}")


def heal(flow: Flow, seat: int, target: str, amount: int) -> None:
    """Heal restores life up to the maximum, only to the wizard or a creature."""
    p = flow.state["players"][seat]
    if target == "wizard":
        n = min(amount, max_life(p) - p["life"])
    else:
        row_entry = entry(p, target)
        if row_entry is None or not is_creature(target, flow.state):
            return
        n = min(amount, card_of(flow.state, target)["life"] - row_entry["life"])
    if n > 0:
        flow.emit({"type": "Healed", "seat": seat, "target": target, "amount": n})


def _add_life(flow: Flow, seat: int, eff: Effect, choice: Choice, source: Source) -> None:
    """Add life may go above the maximum and reaches every type of laid card (not the wizard)."""
    if eff.get("target") == "others":
        for e in flow.state["players"][seat]["row"]:
            if e["uid"] != source.get("card"):
                flow.emit({"type": "LifeAdded", "seat": seat, "target": e["uid"], "amount": eff["amount"]})
        return
    flow.emit({"type": "LifeAdded", "seat": seat, "target": choice["target"], "amount": eff["amount"]})


def _fury(flow: Flow, seat: int) -> None:
    """Lektvar zuřivosti: every unfrozen creature with an attack attacks now (Kněz too)."""
    pending = [
        e["uid"]
        for e in flow.state["players"][seat]["row"]
        if not e["frozen"] and any(a["do"] == "attack" for a in card_of(flow.state, e["uid"]).get("acts", ()))
    ]
    if pending:
        flow.emit({"type": "FuryStarted", "seat": seat, "pending": pending})


def _path(kind: str, row: list[str], choice: Choice) -> list[str]:
    if kind == "area":
        return [*row, "wizard"]
    if kind == "targeted":
        return [choice["target"]]
    order = row if choice["from"] == "left" else row[::-1]
    return [*order, "wizard"]


def attack(flow: Flow, seat: int, eff: Effect, choice: Choice, source: Source) -> None:
    """An attack on the opponent: hits first, then riders, then the reactions of armour hit.

    Basic attacks carry their remaining strength through the row to the wizard; targeted and
    two-in-a-row attacks stop at their targets; area attacks hit the wizard and every card. The
    attack resolves in full even if a reaction will destroy the attacker.
    """
    opp = 1 - seat
    s = flow.state
    shielded = source["kind"] == "spell" and warded(s["players"][opp], s)
    kind = eff["kind"]
    power = int(eff["power"])
    path = _path(kind, [e["uid"] for e in s["players"][opp]["row"]], choice)
    if kind == "two":
        path = path[:2]
    reached: list[str] = []
    remaining = power
    for target in path:
        if target == "wizard":
            if shielded:
                break
            amount = remaining if kind == "basic" else power
            wizard_life = flow.state["players"][opp]["life"]
            reached.append("wizard")
            if amount > 0:
                flow.emit(
                    {"type": "Damaged", "seat": opp, "target": "wizard", "amount": min(amount, wizard_life)}
                )
            break
        row_entry = entry(flow.state["players"][opp], target)
        assert row_entry is not None
        strength = remaining if kind == "basic" else power
        strength = max(0, strength - _reduction(flow.state, row_entry, source))
        damage = min(strength, row_entry["life"])
        reached.append(target)
        if damage:
            flow.emit({"type": "Damaged", "seat": opp, "target": target, "amount": damage})
        if kind == "basic":
            remaining = strength - damage
            if remaining <= 0:
                break
    _riders(flow, seat, eff, reached, shielded)
    _reactions(flow, seat, reached, source)


def _riders(flow: Flow, seat: int, eff: Effect, reached: list[str], shielded: bool) -> None:
    """Curses always land on the wizard; freeze and drain touch only creatures and the wizard."""
    opp = 1 - seat
    if eff.get("curse") and not shielded:
        flow.emit({"type": "Cursed", "seat": opp, "amount": eff["curse"]})
    living = [
        t
        for t in reached
        if t == "wizard" or (entry(flow.state["players"][opp], t) is not None and is_creature(t, flow.state))
    ]
    if eff.get("freeze"):
        for target in living:
            flow.emit(
                {"type": "Frozen", "seat": opp, "target": target, "until": freeze_until(flow.state, opp)}
            )
    if eff.get("heal_wizard"):
        heal(flow, seat, "wizard", eff["heal_wizard"])
    if eff.get("drain"):
        hit = [t for t in reached if t == "wizard" or is_creature(t, flow.state)]
        if hit:
            heal(flow, seat, "wizard", eff["drain"] * len(hit))


def _reactions(flow: Flow, seat: int, reached: list[str], source: Source) -> None:
    """Reaction cards answer the attack, even when the attack destroyed them.

    The attacker is the attacking creature, or the wizard who laid the attack spell; a curse
    always goes to the attacker's wizard.
    """
    for target in reached:
        if target == "wizard":
            continue
        reaction = card(flow.state["cards"][target]).get("reaction")
        if not reaction:
            continue
        attacker = "wizard"
        if source["kind"] == "creature":
            attacker = source["card"]
            if entry(flow.state["players"][seat], attacker) is None:
                attacker = ""
        if reaction.get("damage") and attacker:
            p = flow.state["players"][seat]
            life = p["life"] if attacker == "wizard" else entry(p, attacker)["life"]  # type: ignore[index]
            flow.emit(
                {"type": "Damaged", "seat": seat, "target": attacker, "amount": min(reaction["damage"], life)}
            )
        if reaction.get("curse"):
            flow.emit({"type": "Cursed", "seat": seat, "amount": reaction["curse"]})
        if (
            reaction.get("freeze")
            and attacker
            and (attacker == "wizard" or entry(flow.state["players"][seat], attacker) is not None)
        ):
            flow.emit(
                {"type": "Frozen", "seat": seat, "target": attacker, "until": freeze_until(flow.state, seat)}
            )
