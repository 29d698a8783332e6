"""Bots: ``random`` and a greedy ``default``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.interface import Command
from games.rng import Rng


def random_bot(view: Mapping[str, Any], actions: list[Command], rng: Rng) -> Command:
    """Any legal command, uniformly."""
    return rng.choice(actions)


BOTS = {"random": random_bot, "default": random_bot}
