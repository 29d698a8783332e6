"""A command decided on this process's cache, before the lobby is read, is written only if the game
is still where the cache says; otherwise nothing of it is kept and it is decided again.

"Another process" is played by moving the game and then putting back the cache entry this process
had before, so that its state and lobby row are one version behind the database, while its
listener (``newest``) has heard of nothing newer: the worst case the one-round-trip path can meet.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from games.interface import NotYourTurn
from projections import commands
from projections.cache import CACHE


def _deaf(game_id: UUID) -> int:
    """A listener that has heard of no version of any game."""
    return 0


def _log(conn: Any, game_id: UUID) -> dict[str, Any]:
    """What a write could have touched, to compare before and after one that must write nothing."""

    def count(sql: str) -> int:
        return int(conn.execute(sql, (game_id,)).fetchone()["n"])

    lobby = conn.execute("SELECT version, to_move, status FROM games WHERE id = %s", (game_id,)).fetchone()
    return {
        "lobby": dict(lobby),
        "events": count("SELECT count(*) AS n FROM events WHERE game_id = %s"),
        "keys": count("SELECT count(*) AS n FROM commands WHERE game_id = %s"),
        "outbox": count("SELECT count(*) AS n FROM outbox WHERE args->>0 = %s::text"),
    }


def _first_action(game: Any, state: Any, seat: int) -> dict[str, Any]:
    return dict(game.legal_actions(state, seat)[0])


def _turn(conn: Any, game_id: UUID, game: Any, played: Any) -> Any:
    """Play the first legal action of whoever moves until another seat is to move."""
    seat = game.to_move(played.state)[0]
    while game.to_move(played.state)[:1] == [seat]:
        played = commands.play(conn, game_id, seat, _first_action(game, played.state, seat))
    return played


@pytest.fixture
def stale_game(pool: Any) -> Any:
    """A two-human Kupferkessel game whose cached entry is one turn behind the database: there it
    is the ``mover``'s turn, in the database the other seat's."""
    with pool.connection() as conn:
        created = commands.create_game(conn, "kupferkessel", [{"name": "A"}, {"name": "B"}], {})
        game_id, game = created.game.id, created.game.rules
        hot = CACHE.get(game_id)
        assert hot is not None
        opening = commands.Played(hot.folded.version, [], created.game, hot.folded.state)
        first = _turn(conn, game_id, game, opening)
        behind = CACHE.get(game_id)
        assert behind is not None and behind.row is not None and behind.folded.version == first.version
        mover = game.to_move(first.state)[0]
        moved = _turn(conn, game_id, game, first)
        CACHE.clear()
        CACHE.put(game_id, behind.folded, behind.recent, row=behind.row)
        return {"id": game_id, "game": game, "behind": behind, "mover": mover, "moved": moved}


def test_a_command_that_fits_only_the_stale_state_writes_nothing_and_is_refused(
    pool: Any, stale_game: dict[str, Any]
) -> None:
    game_id, behind, mover = stale_game["id"], stale_game["behind"], stale_game["mover"]
    replayed = _first_action(stale_game["game"], behind.folded.state, mover)
    with pool.connection() as conn:
        before = _log(conn, game_id)
        with pytest.raises(NotYourTurn):
            commands.play(conn, game_id, mover, replayed, command_id="k-1", newest=_deaf)
        assert _log(conn, game_id) == before


def test_a_command_that_fits_the_fresh_state_is_written_once_at_the_right_version(
    pool: Any, stale_game: dict[str, Any]
) -> None:
    game_id, game, moved = stale_game["id"], stale_game["game"], stale_game["moved"]
    seat = game.to_move(moved.state)[0]
    with pool.connection() as conn:
        before = _log(conn, game_id)
        played = commands.play(conn, game_id, seat, _first_action(game, moved.state, seat), newest=_deaf)
        after = _log(conn, game_id)
    assert played.events[0].version == moved.version + 1
    assert after["lobby"]["version"] == played.version
    assert after["events"] == before["events"] + len(played.events)
    assert CACHE.get(game_id).folded.version == played.version
