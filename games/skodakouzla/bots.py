"""The bots: ``random``, ``default`` (a greedy heuristic) and ``strong`` (the search of
:mod:`games.search`; ``search.py`` here lends it the table and its evaluation). All see only their
seat's view.

``default`` rebuilds a table from its own view (unknown hands and decks left empty) and tries its
attacks, targets and placements on it with the rules' own :func:`simulate`, so it never needs a
second copy of the effects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.interface import Bot
from games.rng import Rng
from games.search import search
from games.skodakouzla.content import card, is_attack_spell
from games.skodakouzla.rules import simulate
from games.skodakouzla.state import State

Command = dict[str, Any]


def random_bot(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    """A uniformly random kind of command, then a random body of it; ending a phase is chosen
    only now and then, so turns make progress (cards are laid, creatures attack)."""
    kinds = sorted({a["type"] for a in actions})
    if len(kinds) > 1 and "end_phase" in kinds and rng.randbelow(8):
        kinds.remove("end_phase")
    kind = rng.choice(kinds)
    return rng.choice([a for a in actions if a["type"] == kind])


# --- default -----------------------------------------------------------------------------------


def table(view: Mapping[str, Any]) -> State:
    """A state holding exactly what the view shows; hidden hands and decks are empty."""
    cards_of: dict[str, str] = {}
    players = []
    for pv in view["players"]:
        zones = {}
        for zone, key in (
            ("hand", "hand"),
            ("discard", "discard"),
            ("limbo", "laid_spells"),
            ("removed", "removed"),
        ):
            listed = pv[key] or []
            for c in listed:
                cards_of[c["uid"]] = c["card"]
            zones[zone] = [c["uid"] for c in listed]
        row = []
        for e in pv["row"]:
            cards_of[e["uid"]] = e["card"]
            row.append(
                {
                    "uid": e["uid"],
                    "life": e["life"],
                    "frozen": e["frozen_until"],
                    "magic": e["magic"],
                    "new": e["new"],
                }
            )
        players.append(
            {
                **zones,
                "deck": [],
                "row": row,
                "life": pv["life"],
                "level": pv["level"],
                "colour": pv["colour"],
                "curses": pv["curses"],
                "frozen": pv["frozen_until"],
                "magic": pv["magic"],
            }
        )
    for c in view["shop"]["offer"] + view["shop"]["removed"]:
        cards_of[c["uid"]] = c["card"]
    return {
        "options": view["options"],
        "seats": 2,
        "arranged": False,
        "cards": cards_of,
        "shop_colours": view["shop_colours"],
        "players": players,
        "shop": {
            "deck": [],
            "offer": [c["uid"] for c in view["shop"]["offer"]],
            "removed": [c["uid"] for c in view["shop"]["removed"]],
            "unused": [],
        },
        "turn": view["turn"],
        "active": view["active"],
        "phase": view["phase"],
        "pending": list(view["pending"]),
        "colour": view["colour_check"],
        "buys": view["purchases"],
        "winner": view["winner"],
    }


def worth(state: State, seat: int) -> float:
    """How good the table is for ``seat``: lives, curses, creatures ready to fight."""
    if state["phase"] == "over":
        return 1000.0 if state["winner"] == seat else -1000.0
    total = 0.0
    for i, p in enumerate(state["players"]):
        sign = 1 if i == seat else -1
        part = 4.0 * p["life"] - 1.2 * p["curses"] - (1.5 if p["frozen"] else 0.0)
        for e in p["row"]:
            c = card(state["cards"][e["uid"]])
            part += 0.6 * e["life"]
            if c["type"] == "creature":
                part += 1.0 if e["frozen"] else 2.5
        total += sign * part
    return total


def _best(state: State, seat: int, options: list[Command], rng: Rng) -> Command:
    scored = []
    for cmd in options:
        after = simulate(state, seat, cmd, Rng(b"default-bot", "lookahead"))
        scored.append((worth(after, seat), cmd))
    top = max(v for v, _ in scored)
    return rng.choice([c for v, c in scored if v >= top - 1e-9])


def card_value(card_id: str) -> float:
    """A rough worth of laying a card, for choosing what to lay and what to buy."""
    c = card(card_id)
    if is_attack_spell(c):
        v = sum(
            e.get("power", 0) * (2 if e.get("kind") == "area" else 1)
            + e.get("curse", 0)
            + (1 if e.get("freeze") else 0)
            for e in c["effects"]
        )
        return 1.5 + 1.2 * v
    if c["type"] == "creature":
        attack = sum(a.get("power", 0) + a.get("curse", 0) for a in c.get("acts", []))
        return 2.0 + 1.5 * attack + 0.3 * c["life"] + (1.0 if c.get("acts") else 0.0)
    if c["type"] == "defence":
        return 0.8 + 0.3 * c["life"] + (1.0 if c.get("reaction") else 0.0) + (1.5 if c.get("upkeep") else 0.0)
    return 1.0


def default_bot(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    """Greedy: fight with every creature, lay what hurts most, turn the rest into magic, buy the
    strongest affordable card, and take every colour-check reward."""
    seat = view["seat"]
    kinds = {a["type"] for a in actions}
    if "resolve" in kinds:
        return _best(table(view), seat, [a for a in actions if a["type"] == "resolve"], rng)
    if view["phase"] == "colour":
        return _colour(view, actions)
    return _main(view, actions, rng)


def _colour(view: Mapping[str, Any], actions: list[Command]) -> Command:
    promote = [a for a in actions if a["type"] == "promote"]
    if promote:
        return promote[0]
    removes = [a for a in actions if a["type"] == "remove_card"]
    if removes:
        discard = {c["uid"]: c["card"] for c in view["players"][view["seat"]]["discard"]}
        return min(removes, key=lambda a: (card_value(discard[a["card"]]), a["card"]))
    return {"type": "end_phase"}


def _main(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    seat = view["seat"]
    me = view["players"][seat]
    hand = {c["uid"]: c["card"] for c in me["hand"] or []}
    lays = [a for a in actions if a["type"] == "lay"]
    plan = _plan(hand, me["magic"], view)
    wanted = [a for a in lays if a["card"] in plan and _useful(view, hand[a["card"]])]
    if wanted:
        first = max(plan, key=lambda u: (card_value(hand[u]), u))
        pick = [a for a in wanted if a["card"] == first] or wanted
        return _best(table(view), seat, pick, rng)
    spare = [u for u in hand if u not in plan or not _useful(view, hand[u])]
    if spare:
        return {"type": "turn_into_magic", "card": min(spare, key=lambda u: (card_value(hand[u]), u))}
    buys = [a for a in actions if a["type"] == "buy" and "top" not in a]
    if buys:
        offer = {c["uid"]: c["card"] for c in view["shop"]["offer"]}
        return max(
            buys,
            key=lambda a: (
                card_value(offer[a["card"]])
                + 0.5 * card(offer[a["card"]])["cost"]
                + (1.0 if card(offer[a["card"]])["colour"] == me["colour"] else 0.0),
                a["card"],
            ),
        )
    stores = [a for a in actions if a["type"] == "store_magic"]
    if stores:
        return stores[0]
    return {"type": "end_phase"}


def _useful(view: Mapping[str, Any], card_id: str) -> bool:
    """Healing a full wizard or lifting absent curses is wasted."""
    c = card(card_id)
    me = view["players"][view["seat"]]
    effects = c.get("effects", [])
    if any(e["do"] == "uncurse" for e in effects) and not me["curses"]:
        return False
    if any(e["do"] == "heal" and e.get("target") == "wizard" for e in effects):
        return me["life"] < me["max_life"]
    if c["type"] == "creature" and any(a["do"] == "heal" for a in c.get("acts", [])):
        return True
    return True


def _plan(hand: dict[str, str], magic: int, view: Mapping[str, Any]) -> set[str]:
    """The cards to lay: best first while the rest, turned into magic, still pays for them."""
    me = view["players"][view["seat"]]
    chosen: set[str] = set()
    for uid in sorted(hand, key=lambda u: (-card_value(hand[u]), u)):
        if not _useful(view, hand[uid]):
            continue
        trial = chosen | {uid}
        cost = sum(_price(hand[u], me) for u in trial)
        income = magic + sum(card(hand[u])["cost"] for u in hand if u not in trial)
        if cost <= income:
            chosen = trial
    return chosen


def _price(card_id: str, me: Mapping[str, Any]) -> int:
    c = card(card_id)
    discount = 1 if me["level"] == 2 and c["colour"] == me["colour"] else 0
    return max(0, int(c["cost"]) - discount)


def _strong(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    """IS-MCTS over the seat's information set (games/search.py)."""
    from games.skodakouzla.search import searchable  # it builds on this module's table and worth

    return search(searchable(), view, actions, rng)


BOTS: dict[str, Bot] = {"random": random_bot, "default": default_bot, "strong": _strong}
