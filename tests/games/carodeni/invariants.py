"""Invariants every reachable Čarodění state keeps, checked by the random-game tests: ``check_state``
(everything conserved), ``check_views`` and ``check_redacted`` (nothing hidden shown), ``check_score``
and ``check_legal_actions`` (``decide`` accepts exactly what ``legal_actions`` lists)."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from typing import Any

from games import carodeni as game
from games.carodeni import content
from games.interface import GameError
from games.rng import Rng

_CARD = re.compile(r'"([WP]\d\d)"')


def check_state(s: dict[str, Any]) -> None:
    """Every witch, potion, novice and ingredient is in exactly one place."""
    witches: list[str] = list(s["witch_deck"]) + list(s["witch_aside"])
    potions: list[str] = list(s["potion_deck"]) + list(s["potion_aside"])
    kinds: Counter[str] = Counter(s["bag"])
    for b in s["board"]:
        witches += [b["witch"]] if b["witch"] else []
        potions += [b["potion"]] if b["potion"] else []
        kinds.update(k for k in b["ingredients"] if k)
    novices: list[str] = []
    starting: list[str] = []
    for p in s["players"]:
        for card in p["hand"] + p["played"]:
            (novices if content.is_novice(card) else witches).append(card)
        witches += p["clan_witches"] + p["animals"] + p["clan_animals"]
        for card in p["potions"] + p["clan_potions"]:
            (starting if card.startswith("S") else potions).append(card)
        potions += p["tools"] + p["clan_tools"]
        kinds.update(p["ingredients"])
        assert all(n >= 0 for n in p["ingredients"].values())
    assert sorted(witches) == sorted(content.witches()), Counter(witches).most_common(2)
    assert sorted(potions) == sorted(content.potions()), Counter(potions).most_common(2)
    seats = s["seats"] - (1 if s["solo"] else 0)
    assert sorted(novices) == sorted(f"N{i + 1}{x}" for i in range(seats) for x in "ab")
    assert len(set(starting)) == len(starting) == s["seats"]
    assert dict(kinds) == content.ingredient_counts()
    assert all(n >= 0 for n in s["bag"].values())
    for p in s["players"]:
        animals = [content.witches()[c]["animal"] for c in p["clan_animals"]]
        assert len(set(animals)) == len(animals), "never two of the same animal in a clan"
    claimed = [i for p in s["players"] for i in p["goals"]]
    assert sorted(claimed) == sorted(i for i, g in enumerate(s["goals"]) if g["claimed_by"] is not None)


def visible_cards(s: dict[str, Any], seat: int | None) -> set[str]:
    out: set[str] = set()
    for b in s["board"]:
        out |= {c for c in (b["witch"], b["potion"]) if c}
    for i, p in enumerate(s["players"]):
        for name in (
            "played",
            "potions",
            "tools",
            "animals",
            "clan_witches",
            "clan_potions",
            "clan_tools",
            "clan_animals",
        ):
            out |= set(p[name])
        if i == seat:
            out |= set(p["hand"])
    return out


def check_views(s: dict[str, Any]) -> None:
    """No view names a card another seat holds in hand, or a card in a deck or set aside."""
    for seat in [None, *range(s["seats"])]:
        v = game.view(s, seat)
        text = json.dumps(v)
        assert set(_CARD.findall(text)) <= visible_cards(s, seat)
        for p in v["players"]:
            assert ("hand" in p) == (p["seat"] == seat)
        assert isinstance(v["witch_deck"], int) and isinstance(v["bag"], int)


def check_score(s: dict[str, Any]) -> dict[str, Any]:
    result = game.score(s)
    for entry in result["seats"]:
        assert entry["total"] == sum(entry["breakdown"].values())
        assert set(entry["breakdown"]) == {"potions", "witches", "tools", "goals", "ingredients", "animals"}
    best = max(e["total"] for e in result["seats"])
    assert result["winners"] == [e["seat"] for e in result["seats"] if e["total"] == best]
    return result


def _candidates(s: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """A superset of the commands a seat might send now: every shape, every card it could name."""
    p = s["players"][seat]
    out: list[dict[str, Any]] = [{"type": "rest"}, {"type": "end_turn"}, {"type": "ostara_turn"}]
    named = p["hand"] + p["played"] + p["clan_witches"] + [b["witch"] for b in s["board"] if b["witch"]]
    out += [{"type": "play", "witch": w} for w in named]
    out += [{"type": "refresh", "target": t} for t in ("witches", "potions", "none")]
    for loc in content.LOCATIONS:
        out.append({"type": "refresh", "target": "ingredients", "location": loc})
        out += [{"type": "take", "item": "ingredient", "location": loc, "slot": i} for i in range(3)]
        out += [
            {"type": "take", "item": item, "location": loc} for item in ("potion", "tool", "witch", "animal")
        ]
    out += [{"type": "tame", "animal": c} for c in p["animals"] + p["clan_animals"]]
    pairs = ["pair:" + k for k in content.kinds()]
    for potion in p["potions"]:
        reqs = content.requirements(potion)
        if len(reqs) > 3:
            continue
        options = [[r, *pairs] + (list(content.tools()) if r not in content.kinds() else []) for r in reqs]
        out += [
            {"type": "brew", "potion": potion, "payment": list(pay)} for pay in itertools.product(*options)
        ]
    return out


def check_legal_actions(s: dict[str, Any], seat: int, listed: list[dict[str, Any]], rng: Rng) -> None:
    """``decide`` accepts exactly what ``legal_actions`` lists (probed with every candidate)."""
    for command in listed:
        game.decide(s, seat, command, rng)
    for command in _candidates(s, seat):
        if command in listed:
            continue
        try:
            game.decide(s, seat, command, rng)
        except GameError:
            continue
        raise AssertionError(f"decide accepted an unlisted command {command}")


def check_redacted(after: dict[str, Any], event: dict[str, Any]) -> None:
    """A redacted event names no card in a deck, set aside or in another seat's hand (cards a
    refresh returns to the bottom of a deck were face up until then)."""
    if event["type"] == "OfferRefreshed":
        event = dict(event, returned=[])
    for seat in [None, *range(after["seats"])]:
        text = json.dumps(game.redact(after, event, seat))
        named = set(_CARD.findall(text))
        assert named <= visible_cards(after, seat), (event["type"], seat, named - visible_cards(after, seat))
