"""The game state as plain JSON data, and how each event changes it.

``apply`` changes a state in place; :func:`evolve` (the interface's fold) applies it to a copy of
what the event may change, and ``decide`` applies the events it emits to its own working copy so
that later effects of one command see the earlier ones. Copies are two levels deep (:func:`clone`):
every list and dict an event may change is copied, the static uid→card map is shared.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.skodakouzla.content import card, levels

State = dict[str, Any]
Event = dict[str, Any]

HAND_SIZE = 5
SHOP_SIZE = 6


def clone(state: State) -> State:
    """A copy deep enough that applying events to it leaves ``state`` alone."""
    return _copy(state, range(len(state["players"])), shop=True)


def _copy(state: State, seats: Iterable[int], *, shop: bool) -> State:
    """``state`` with the players of ``seats``, the shop if ``shop``, and the small parts every
    phase changes (pending, colour) copied two levels deep; the rest is shared."""
    new = dict(state)
    players = list(state["players"])
    for seat in seats:
        players[seat] = _clone_player(players[seat])
    new["players"] = players
    if shop:
        new["shop"] = {k: list(v) for k, v in state["shop"].items()}
    new["pending"] = list(state["pending"])
    if state["colour"] is not None:
        new["colour"] = {"remove": state["colour"]["remove"], "promote": list(state["colour"]["promote"])}
    return new


def _clone_player(p: dict[str, Any]) -> dict[str, Any]:
    q = dict(p)
    for zone in ("deck", "hand", "discard", "limbo", "removed"):
        q[zone] = list(p[zone])
    q["row"] = [dict(e) for e in p["row"]]
    return q


def max_life(player: dict[str, Any]) -> int:
    """The wizard's maximum: the level card's life (7 at level 1, 8 at level 2)."""
    return int(levels()[player["level"]]["life"])


def entry(player: dict[str, Any], uid: str) -> dict[str, Any] | None:
    for e in player["row"]:
        if e["uid"] == uid:
            return e
    return None


def card_of(state: State, uid: str) -> dict[str, Any]:
    return card(state["cards"][uid])


def _new_player(wizard: dict[str, Any]) -> dict[str, Any]:
    return {
        "deck": [],
        "hand": [],
        "discard": [],
        "limbo": [],
        "removed": [],
        "row": [],
        "life": wizard["life"],
        "level": wizard["level"],
        "colour": wizard["colour"],
        "curses": 0,
        "frozen": 0,
        "magic": 0,
    }


def _pay(p: dict[str, Any], amount: int) -> None:
    p["magic"] -= amount


def apply(state: State | None, e: Event) -> State:
    """Apply one event in place (``GameStarted`` creates the state) and return the state."""
    t = e["type"]
    if t == "GameStarted":
        return {
            "options": e["options"],
            "seats": e["seats"],
            "arranged": e["arranged"],
            "cards": e["cards"],
            "shop_colours": e["shop_colours"],
            "players": [_new_player(w) for w in e["wizards"]],
            "shop": {"deck": [], "offer": [], "removed": [], "unused": list(e["unused"])},
            "turn": 0,
            "active": 0,
            "phase": "setup",
            "pending": [],
            "colour": None,
            "buys": 0,
            "winner": None,
        }
    assert state is not None
    handler = _HANDLERS[t]
    handler(state, e)
    return state


def _deck_shuffled(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    order = e["deck"]
    moved = set(order)
    p["discard"] = [u for u in p["discard"] if u not in moved]
    p["deck"] = list(order) + [u for u in p["deck"] if u not in moved]


def _shop_shuffled(s: State, e: Event) -> None:
    shop = s["shop"]
    moved = set(e["deck"])
    shop["removed"] = [u for u in shop["removed"] if u not in moved]
    shop["deck"] = list(e["deck"]) + [u for u in shop["deck"] if u not in moved]


def _shop_refilled(s: State, e: Event) -> None:
    shop = s["shop"]
    n = len(e["cards"])
    shop["deck"] = shop["deck"][n:]
    shop["offer"].extend(e["cards"])


def _cards_drawn(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    n = len(e["cards"])
    p["deck"] = p["deck"][n:]
    p["hand"].extend(e["cards"])


def _turn_started(s: State, e: Event) -> None:
    s["turn"] = e["turn"]
    s["active"] = e["seat"]
    s["phase"] = "start"
    s["buys"] = 0
    s["pending"] = []
    s["colour"] = None


def _damaged(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    if e["target"] == "wizard":
        p["life"] -= e["amount"]
        return
    row_entry = entry(p, e["target"])
    assert row_entry is not None
    row_entry["life"] -= e["amount"]


def _card_destroyed(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    p["row"] = [x for x in p["row"] if x["uid"] != e["card"]]
    p["discard"].append(e["card"])
    if e["card"] in s["pending"]:
        s["pending"].remove(e["card"])


def _cursed(s: State, e: Event) -> None:
    s["players"][e["seat"]]["curses"] += e["amount"]


def _curses_removed(s: State, e: Event) -> None:
    s["players"][e["seat"]]["curses"] -= e["amount"]


def _frozen(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    if e["target"] == "wizard":
        p["frozen"] = max(p["frozen"], e["until"])
        return
    row_entry = entry(p, e["target"])
    assert row_entry is not None
    row_entry["frozen"] = max(row_entry["frozen"], e["until"])
    if e["target"] in s["pending"]:
        s["pending"].remove(e["target"])


def _thawed(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    for target in e["targets"]:
        if target == "wizard":
            p["frozen"] = 0
        else:
            row_entry = entry(p, target)
            assert row_entry is not None
            row_entry["frozen"] = 0


def _life_changed(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    if e["target"] == "wizard":
        p["life"] += e["amount"]
        return
    row_entry = entry(p, e["target"])
    assert row_entry is not None
    row_entry["life"] += e["amount"]


def _magic_gained(s: State, e: Event) -> None:
    s["players"][e["seat"]]["magic"] += e["amount"]


def _magic_stored(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    row_entry = entry(p, e["card"])
    assert row_entry is not None
    row_entry["magic"] += 1
    _pay(p, 1)


def _magic_released(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    row_entry = entry(p, e["card"])
    assert row_entry is not None
    row_entry["magic"] = 0
    p["magic"] += e["amount"]


def _magic_drained(s: State, e: Event) -> None:
    row_entry = entry(s["players"][e["seat"]], e["card"])
    assert row_entry is not None
    row_entry["magic"] = 0


def _phase_started(s: State, e: Event) -> None:
    s["phase"] = e["phase"]
    s["pending"] = list(e.get("pending", []))
    colour = e.get("colour")
    s["colour"] = None if colour is None else {"remove": colour["remove"], "promote": list(colour["promote"])}


def _fury_started(s: State, e: Event) -> None:
    s["pending"] = list(e["pending"])


def _turned_into_magic(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    p["hand"].remove(e["card"])
    p["discard"].append(e["card"])
    p["magic"] += e["magic"]


def _bought(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    s["shop"]["offer"].remove(e["card"])
    _pay(p, e["price"])
    s["buys"] += 1
    if e["top"]:
        p["deck"].insert(0, e["card"])
    else:
        p["discard"].append(e["card"])


def _shop_swapped(s: State, e: Event) -> None:
    shop = s["shop"]
    for uid in e["removed"]:
        shop["offer"].remove(uid)
        shop["removed"].append(uid)
    _pay(s["players"][e["seat"]], 1)


def _card_laid(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    uid = e["card"]
    p["hand"].remove(uid)
    _pay(p, e["price"])
    c = card_of(s, uid)
    if c["type"] == "spell":
        p["discard" if c["colour"] == "neutral" else "limbo"].append(uid)
        return
    new_entry = {"uid": uid, "life": c["life"], "frozen": 0, "magic": 0, "new": True}
    if e["end"] == "left":
        p["row"].insert(0, new_entry)
    else:
        p["row"].append(new_entry)


def _creature_acted(s: State, e: Event) -> None:
    if e["card"] in s["pending"]:
        s["pending"].remove(e["card"])


def _hand_discarded(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    p["discard"].extend(e["cards"])
    p["hand"] = [u for u in p["hand"] if u not in e["cards"]]


def _magic_returned(s: State, e: Event) -> None:
    s["players"][e["seat"]]["magic"] -= e["amount"]


def _card_removed(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    p["discard"].remove(e["card"])
    p["removed"].append(e["card"])
    s["colour"]["remove"] = False


def _wizard_promoted(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    p["level"] = 2
    p["colour"] = e["colour"]
    p["life"] += e["life"]
    s["colour"]["promote"] = []


def _spells_discarded(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    p["discard"].extend(e["cards"])
    p["limbo"] = [u for u in p["limbo"] if u not in e["cards"]]


def _turn_ended(s: State, e: Event) -> None:
    p = s["players"][e["seat"]]
    for row_entry in p["row"]:
        row_entry["new"] = False
    s["phase"] = "end"
    s["pending"] = []
    s["colour"] = None


def _game_ended(s: State, e: Event) -> None:
    s["phase"] = "over"
    s["winner"] = e["winner"]
    s["pending"] = []
    s["colour"] = None


_HANDLERS = {
    "DeckShuffled": _deck_shuffled,
    "ShopShuffled": _shop_shuffled,
    "ShopRefilled": _shop_refilled,
    "CardsDrawn": _cards_drawn,
    "TurnStarted": _turn_started,
    "Damaged": _damaged,
    "CardDestroyed": _card_destroyed,
    "Cursed": _cursed,
    "CursesRemoved": _curses_removed,
    "Frozen": _frozen,
    "Thawed": _thawed,
    "Healed": _life_changed,
    "LifeAdded": _life_changed,
    "MagicGained": _magic_gained,
    "MagicStored": _magic_stored,
    "MagicReleased": _magic_released,
    "MagicDrained": _magic_drained,
    "PhaseStarted": _phase_started,
    "FuryStarted": _fury_started,
    "CardTurnedIntoMagic": _turned_into_magic,
    "CardBought": _bought,
    "ShopSwapped": _shop_swapped,
    "CardLaid": _card_laid,
    "CreatureActed": _creature_acted,
    "HandDiscarded": _hand_discarded,
    "MagicReturned": _magic_returned,
    "CardRemoved": _card_removed,
    "WizardPromoted": _wizard_promoted,
    "SpellsDiscarded": _spells_discarded,
    "TurnEnded": _turn_ended,
    "GameEnded": _game_ended,
}


def evolve(state: State | None, e: Event) -> State:
    """The state after ``e``; the input is left unchanged."""
    if state is None:
        return apply(None, e)
    return apply(_copy_for(state, e), e)


#: The events that change the shop; no other event touches it.
_SHOP_EVENTS = frozenset({"ShopShuffled", "ShopRefilled", "CardBought", "ShopSwapped"})


def _copy_for(state: State, e: Event) -> State:
    """What ``e`` may change of ``state``, copied: of the players only the one of the seat ``e``
    names (no event changes another), the shop only for its own events. A fold that copied every
    player and the shop at every event spent most of its time copying."""
    seat = e.get("seat")
    return _copy(state, () if seat is None else (seat,), shop=e["type"] in _SHOP_EVENTS)
