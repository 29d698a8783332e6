"""Bots: ``random`` and ``default``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.interface import Bot, Command
from games.rng import Rng


def random_bot(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    return rng.choice(actions)


BOTS: dict[str, Bot] = {"random": random_bot, "default": random_bot}
