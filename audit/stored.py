"""Auditing a stored game: re-run it from its revealed seed and compare with the log.

The log is read from the database and checked by :func:`audit.verify.check`, the same code
that checks an export offline (``kotlik verify``), so an operator's audit and a player's check
cannot disagree.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import Connection

from audit.export import whole
from audit.verify import check
from projections import lobby


def verify(conn: Connection[Any], game_id: UUID, seed: bytes | None = None) -> list[str]:
    """Discrepancies between the log and a re-run; empty when the game checks out.

    ``seed`` defaults to the game's own, revealed once it is finished.
    """
    row = lobby.get(conn, game_id)
    if row.status != "finished" and seed is None:
        return ["the game is not finished, so its seed is still secret"]
    return [str(problem) for problem in check(whole(conn, game_id, seed)).problems]
