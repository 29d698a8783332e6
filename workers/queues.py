"""The task queues: the games' own work, webhook deliveries (and Web Push messages), and the
searching bots' turns.

A delivery waits on somebody else's server (up to :data:`workers.deliveries.TIMEOUT` seconds, again
on every retry), so it gets a queue and a worker pool of its own: a slow or dead endpoint must never
hold up a bot's turn, a scoring or a clock. A searching bot (``strong``, :mod:`games.search`) spends
its whole budget of a core on each turn, so its turns get a queue and a pool of their own too: the
quick work of every other game (greedy bots, scorings, clocks) never waits behind a search, and the
searches share only the cores the operator gives them (``KOTLIK_SEARCH_PROCESSES``). ``KOTLIK_QUEUE``
names the games' queue (tests and benchmarks give each run its own); the others are named after it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NamedTuple


class Queues(NamedTuple):
    """The queues of one run."""

    games: str
    webhooks: str
    search: str


def games_queue(env: Mapping[str, str] = os.environ) -> str:
    return env.get("KOTLIK_QUEUE") or "kotlik"


def webhooks_queue(env: Mapping[str, str] = os.environ) -> str:
    return of_run(games_queue(env)).webhooks


def search_queue(env: Mapping[str, str] = os.environ) -> str:
    return of_run(games_queue(env)).search


def of_run(games: str) -> Queues:
    """The queues of the run whose games' queue is ``games``."""
    return Queues(games, f"{games}.webhooks", f"{games}.search")
