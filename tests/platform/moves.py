"""A game to move and its first move, played in the database beside the app (as another process
would), for the tests of what a process hears of moves it did not play."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import commands
from projections import lobby
from projections.fold import state_at


def new_game(conn: Any) -> tuple[UUID, int]:
    """A two-seat Kupferkessel game with no bots: its id and version."""
    created = commands.create_game(conn, "kupferkessel", [{"name": "A"}, {"name": "B"}], {})
    return created.game.id, created.game.version


def first_move(conn: Any, game_id: UUID) -> int:
    """Play the first legal command of the first seat to move; the version it brought."""
    row = lobby.get(conn, game_id)
    state = state_at(conn, game_id, row.rules).state
    seat = row.rules.to_move(state)[0]
    return commands.play(conn, game_id, seat, dict(row.rules.legal_actions(state, seat)[0])).version
