"""What a seat may do now and what it costs: prices, the choices a card or creature offers, the
colour check and where magic may be stored. ``decide`` and ``legal_actions`` ask the same questions."""

from __future__ import annotations

from typing import Any

from games.skodakouzla.content import COLOURS, choice_effect, is_attack_spell, levels
from games.skodakouzla.effects import choices
from games.skodakouzla.state import State, card_of, entry

ENDS = ("left", "right")


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
        and not e["frozen"]
        and not e["new"]
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
