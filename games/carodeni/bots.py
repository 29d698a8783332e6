"""Bots: ``random``; ``default``, a greedy heuristic for any seat of a multiplayer game; ``strong``,
the search of :mod:`games.search` over what the seat may see (``search.py`` here lends it what it
needs), with ``default`` playing the others; and ``ostara``, whose every choice is made by the
automaton inside ``decide`` (her one command)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.carodeni import content
from games.carodeni.search import searchable
from games.interface import Bot, Command
from games.rng import Rng
from games.search import bot


def random_bot(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    return rng.choice(actions)


def ostara_bot(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    """Ostara's choices are rules, not preferences: they are made and logged by ``decide``."""
    return actions[0]


def _me(view: Mapping[str, Any]) -> dict[str, Any]:
    return dict(view["players"][view["seat"]])


def _tool_kinds(me: dict[str, Any]) -> set[str]:
    return {content.potions()[c]["back"] for c in me["tools"] + me["clan_tools"]}


def _wanted(me: dict[str, Any]) -> Counter[str]:
    """Ingredients still missing for the potions held, weighted by how close each potion is."""
    have = Counter({k: n for k, n in me["ingredients"].items() if n})
    want: Counter[str] = Counter()
    for p in sorted(me["potions"], key=lambda c: -content.potion_card(c)["points"]):
        need = Counter(content.potion_card(p)["ingredients"])
        for k, n in need.items():
            use = min(n, have[k])
            have[k] -= use
            if n > use:
                want[k] += n - use
    return want


def _value(view: Mapping[str, Any], me: dict[str, Any], want: Counter[str], a: Command) -> float:
    t = a["type"]
    if t == "brew":
        pairs = sum(1 for x in a["payment"] if x.startswith("pair:"))
        return 100 + content.potion_card(a["potion"])["points"] - 2 * pairs
    if t == "tame":
        return 90
    if t == "end_turn":
        return 0
    if t == "refresh":
        return -5
    if t == "rest":
        real = [w for w in me["hand"] if not content.is_novice(w)]
        return 20 if not real and any(not content.is_novice(w) for w in me["played"]) else -10
    if t == "play":
        w = a["witch"]
        card = content.witch_card(w)
        score = float(sum(card["ap"].values()))
        if not content.is_novice(w):
            colours = content.banners(w)
            matching = [
                p for p in me["potions"] if content.potion_card(p)["colour"] in colours + (content.PALE,)
            ]
            score += 2 * len(matching)
            if matching and sum(want.values()) <= 2:
                score += 4
        return score
    b = view["board"][content.LOCATIONS.index(a["location"])]
    item = a["item"]
    if item == "ingredient":
        kind = b["ingredients"][a["slot"]]
        if want[kind]:
            return 10 + want[kind]
        return 3 if me["ingredients"][kind] == 0 else 1
    if item == "potion":
        if len(me["potions"]) >= 3:
            return 0.5
        return 4 + content.potions()[b["potion"]]["points"] / 3
    if item == "tool":
        kind = content.potions()[b["potion"]]["back"]
        needed = {content.potion_card(p).get("tool") for p in me["potions"]}
        if kind in needed and kind not in _tool_kinds(me):
            return 9
        return 2.5 if kind not in _tool_kinds(me) else 0
    if item == "witch":
        real = [w for w in me["hand"] + me["played"] if not content.is_novice(w)]
        return (6 if len(real) < 3 else 1.5) + content.witches()[b["witch"]]["points"] / 10
    return 2


def default_bot(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    """Greedy: brew the best potion, play the witch that collects most for potions it can brew,
    take what the potions held still lack, keep a few witches and potions in play."""
    if len(actions) == 1:
        return actions[0]
    me = _me(view)
    want = _wanted(me)
    values = [_value(view, me, want, a) for a in actions]
    best = max(values)
    top = [a for a, v in zip(actions, values, strict=True) if v == best]
    return top[0] if len(top) == 1 else rng.choice(top)


BOTS: dict[str, Bot] = {
    "random": random_bot,
    "default": default_bot,
    "strong": bot(searchable),
    "ostara": ostara_bot,
}
