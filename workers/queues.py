"""The task queues: the games' own work, and webhook deliveries (and Web Push messages) apart from it.

A delivery waits on somebody else's server (up to :data:`workers.deliveries.TIMEOUT` seconds, again
on every retry), so it gets a queue and a worker pool of its own: a slow or dead endpoint must never
hold up a bot's turn, a scoring or a clock. ``KOTLIK_QUEUE`` names the games' queue (tests and
benchmarks give each run its own); the webhooks' queue is named after it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping


def games_queue(env: Mapping[str, str] = os.environ) -> str:
    return env.get("KOTLIK_QUEUE") or "kotlik"


def webhooks_queue(env: Mapping[str, str] = os.environ) -> str:
    return of_run(games_queue(env))[1]


def of_run(games: str) -> tuple[str, str]:
    """The queues of the run whose games' queue is ``games``: that one and its webhooks'."""
    return games, f"{games}.webhooks"
