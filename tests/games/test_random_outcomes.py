"""Every random outcome of seeded games of all four kinds, recomputed from ``docs/random.md`` alone.

The games are played here through the engines as the platform plays them (the same labels, the key
from the seed and the seats' entropy) and written as an export's lines; ``independent_random``,
which imports nothing of Kotlík, recomputes each shuffle and draw and must find every one as
logged. A changed outcome must be caught, so the check cannot pass by checking nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

import pytest
from independent_random import check

import games
from games.rng import Rng, game_key

#: Commands played at most per game: enough for several reshuffles, bounded in time.
MAX_COMMANDS = 1500


def _entropy(label: str) -> str:
    return hashlib.sha256(label.encode()).hexdigest()


def export(kind: str, bots: list[str | None], options: dict[str, Any], seed: bytes) -> list[dict[str, Any]]:
    """A seeded game's export lines: people (``None``) give entropy and play as the random bot."""
    rules = games.load(kind)
    seats = []
    for i, bot in enumerate(bots):
        seat: dict[str, Any] = {"seat": i, "name": f"Seat {i}", "bot": bot}
        if bot is None:
            seat["entropy"] = _entropy(f"{kind} {seed.hex()} {i}")
        seats.append(seat)
    key = game_key(seed, [s.get("entropy") for s in seats])
    lines: list[dict[str, Any]] = [{"game": kind, "seed": seed.hex(), "seats": seats}]
    created = {"game": kind, "seats": seats, "options": options}
    lines.append({"version": 1, "type": "kotlik.GameCreated", "data": created, "meta": {}})
    state = None

    def add(events: list[Any], meta: dict[str, Any]) -> None:
        nonlocal state
        for event in json.loads(json.dumps(events)):
            data = {k: v for k, v in event.items() if k != "type"}
            lines.append({"version": len(lines), "type": event["type"], "data": data, "meta": meta})
            state = rules.evolve(state, event)

    add(rules.setup(dict(options), len(bots), Rng(key, "setup")), {})
    for _ in range(MAX_COMMANDS):
        if rules.is_over(state):
            break
        seat = rules.to_move(state)[0]
        at = len(lines) - 1
        bot = rules.BOTS[bots[seat] or "random"]
        command = bot(rules.view(state, seat), rules.legal_actions(state, seat), Rng(key, f"bot:v{at}"))
        add(rules.decide(state, seat, command, Rng(key, f"v{at}")), {"at": at, "seat": seat})
    return lines


CASES = [
    ("skodakouzla", [None, "random"], {}),
    ("skodakouzla", [None, None], {"two_colours": True}),
    ("kupferkessel", [None, "random"], {}),
    ("kupferkessel", [None, "random"], {"recipes": True}),
    ("carcassonne", [None, "random", None], {}),
    ("carcassonne", [None, "random"], {"mage_witch": False}),
    ("carodeni", [None, "random", None], {}),
    ("carodeni", [None, "ostara"], {"solo": True}),
]

#: What each game must have had recomputed over its seeded games: every kind of draw it makes.
MUST = {
    "skodakouzla": {"starter deck", "shop deck", "shop colours", "reshuffled discard pile",
                    "reshuffled removed shop cards"},
    "kupferkessel": {"grid", "first cauldron card", "deck", "recipes"},
    "carcassonne": {"tile"},
    "carodeni": {"witch deck", "potion deck", "goal row", "board ingredients", "ingredient",
                 "refreshed ingredients", "Ostara's starting potion", "Ostara's tokens"},
}  # fmt: skip

SEEDS = [bytes([n]) * 32 for n in (1, 2, 3)]


@pytest.mark.parametrize("kind", sorted(MUST))
def test_every_random_outcome_follows_from_the_page(kind: str) -> None:
    checked: Counter[str] = Counter()
    for game, bots, options in CASES:
        if game != kind:
            continue
        for seed in SEEDS:
            report = check(export(game, bots, options, seed))
            assert not report.wrong, "\n".join(report.wrong[:5])
            checked += report.checked
    assert MUST[kind] <= set(checked), f"never recomputed: {MUST[kind] - set(checked)}; {dict(checked)}"


def test_a_changed_reshuffle_is_caught() -> None:
    lines = export("skodakouzla", [None, "random"], {}, SEEDS[0])
    reshuffle = next(e for e in lines[1:] if e["type"] == "DeckShuffled" and "at" in e["meta"])
    reshuffle["data"]["deck"] = list(reversed(reshuffle["data"]["deck"]))
    wrong = check(lines).wrong
    assert wrong and wrong[0].startswith(f"version {reshuffle['version']}: reshuffled discard pile")
