"""Auditing a finished game: re-run it from its revealed seed and compare with the log.

Setup is re-run with the ``setup`` stream; each command is decided again at the version it was
decided at, with the same ``v<version>`` stream, from the state folded so far. Any difference
means the log was not produced by these rules from this seed.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any
from uuid import UUID

from psycopg import Connection

import games
from events import read
from games.rng import Rng
from projections import lobby
from projections.commands import plain
from projections.fold import PLATFORM


def verify(conn: Connection[Any], game_id: UUID, seed: bytes | None = None) -> list[str]:
    """Discrepancies between the log and a re-run; empty when the game checks out.

    ``seed`` defaults to the game's own, revealed once it is finished.
    """
    row = lobby.get(conn, game_id)
    if row.status != "finished" and seed is None:
        return ["the game is not finished, so its seed is still secret"]
    seed = seed or row.seed
    game = games.load(row.game)
    events = [e for e in read(conn, game_id) if not e.type.startswith(PLATFORM)]
    opening = plain(game.setup(dict(row.options), len(row.seats), Rng(seed, "setup")))
    problems = []
    if [e.body() for e in events[: len(opening)]] != opening:
        problems.append("the opening events do not follow from the seed")
    state = None
    for event in events[: len(opening)]:
        state = game.evolve(state, event.body())
    for at, group in groupby(events[len(opening) :], key=lambda e: e.meta.get("at")):
        stored = list(group)
        logged = [e.body() for e in stored]
        head = stored[0]
        try:
            decided = plain(game.decide(state, head.meta["seat"], head.meta["command"], Rng(seed, f"v{at}")))
        except games.GameError as refused:
            decided = [{"refused": refused.reason}]
        if decided != logged:
            problems.append(f"the command decided at version {at} does not give the logged events")
        for body in logged:
            state = game.evolve(state, body)
    return problems
