"""The event store against a real PostgreSQL: versions, conflicts, immutability, ordering, NOTIFY."""

from __future__ import annotations

import threading
from contextlib import closing
from itertools import islice
from typing import Any
from uuid import UUID, uuid4

import psycopg
import pytest

import commands
from events import CHANNEL, NewEvent, VersionConflict, append, read
from events.notes import CARRIED, LOBBY, carried, parse
from events.outbox import pending, publish_unsent
from projections import lobby


def _game(conn: Any) -> UUID:
    game_id = uuid4()
    lobby.insert(conn, game_id, "test", 1, {}, [], b"seed", "hash")
    return game_id


def _events(n: int, start: int = 0) -> list[NewEvent]:
    return [NewEvent("Happened", {"n": start + i}, {"seat": 0}) for i in range(n)]


def test_append_numbers_versions_without_gaps(pool: Any) -> None:
    with pool.connection() as conn:
        game_id = _game(conn)
        first = append(conn, game_id, 0, _events(2))
        second = append(conn, game_id, 2, _events(3, start=2))
        stored = read(conn, game_id)
        window = read(conn, game_id, after=2, upto=4)
    assert [e.version for e in first + second] == [1, 2, 3, 4, 5]
    assert [e.data["n"] for e in stored] == [0, 1, 2, 3, 4]
    assert [e.version for e in window] == [3, 4]


def test_a_stale_expected_version_writes_nothing(pool: Any) -> None:
    with pool.connection() as conn:
        game_id = _game(conn)
        append(conn, game_id, 0, _events(2))
        with pytest.raises(VersionConflict) as raised, conn.transaction():
            append(conn, game_id, 1, _events(1, start=9))
        assert raised.value.actual == 2
        with pytest.raises(VersionConflict), conn.transaction():
            append(conn, game_id, 5, _events(1, start=9))
        assert [e.data["n"] for e in read(conn, game_id)] == [0, 1]


def test_two_writers_at_one_version_one_wins(pool: Any) -> None:
    """The primary key, not a lock in Python, decides: the second insert of a version fails."""
    with pool.connection() as conn:
        game_id = _game(conn)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def write(n: int) -> None:
        with pool.connection() as conn:
            try:
                with conn.transaction():
                    barrier.wait(timeout=5)
                    append(conn, game_id, 0, _events(1, start=n))
                outcomes.append("ok")
            except VersionConflict:
                outcomes.append("conflict")

    threads = [threading.Thread(target=write, args=(n,)) for n in (10, 20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "ok"]
    with pool.connection() as conn:
        assert len(read(conn, game_id)) == 1


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET data = '{}' WHERE game_id = %s",
        "DELETE FROM events WHERE game_id = %s",
        "TRUNCATE events CASCADE",
    ],
)
def test_the_trigger_refuses_to_rewrite_history(pool: Any, statement: str) -> None:
    with pool.connection() as conn:
        game_id = _game(conn)
        append(conn, game_id, 0, _events(1))
        refused = pytest.raises(psycopg.errors.RestrictViolation, match="events are immutable")
        with refused, conn.transaction():
            conn.execute(statement, (game_id,) if "%s" in statement else None)
        assert len(read(conn, game_id)) == 1


def test_a_command_and_the_work_it_causes_commit_in_one_transaction(pool: Any) -> None:
    """The outbox row of a bot's turn is written by the very transaction that appended the command's
    events (``xmin`` of the row = ``xid`` of the events), so neither can commit without the other."""
    import commands

    with pool.connection() as conn:
        seats = [{"name": "A"}, {"name": "bot", "bot": "random"}]
        game_id = commands.create_game(conn, "kupferkessel", seats, {}).game.id
        played = commands.play(conn, game_id, 0, _first_action(conn, game_id))
        while not played.queued:  # seat 0 plays on until its turn passes to the bot
            played = commands.play(conn, game_id, 0, _first_action(conn, game_id))
        assert [q.task for q in played.queued] == ["bots.play_turn"]
        rows = conn.execute(
            "SELECT xmin::text AS x FROM outbox WHERE id = ANY(%s)", ([q.id for q in played.queued],)
        ).fetchall()
        appended = conn.execute(
            "SELECT DISTINCT (xid::text::bigint %% 4294967296)::text AS x FROM events "
            "WHERE game_id = %s AND version >= %s",
            (game_id, played.events[0].version),
        ).fetchall()
    assert len(appended) == 1 and [r["x"] for r in rows] == [appended[0]["x"]]


def _first_action(conn: Any, game_id: UUID) -> dict[str, Any]:
    import games
    from projections.fold import state_at

    rules = games.load("kupferkessel")
    return dict(rules.legal_actions(state_at(conn, game_id, rules).state, 0)[0])


def test_an_append_notifies_only_if_its_game_is_watched(pool: Any, database_url: str) -> None:
    """An append to a game no process watches notifies nobody (a notifying commit holds a lock of
    the whole server while it flushes); one to a watched game notifies at commit."""
    with psycopg.connect(database_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        with pool.connection() as conn:
            unwatched, watched = _game(conn), _game(conn)
            _watch(conn, watched)
            with conn.transaction():
                append(conn, unwatched, 0, _events(3))
            with conn.transaction():
                append(conn, watched, 0, _events(2))
        # the channel is the database's: the session's worker may be playing other games meanwhile
        with closing(listener.notifies(timeout=5)) as heard:
            ours = (n.payload for n in heard if n.payload.startswith((str(unwatched), str(watched))))
            payloads = list(islice(ours, 1))
    assert [p.split(":")[:2] for p in payloads] == [[str(watched), "2"]]


def _watch(conn: Any, game_id: UUID) -> None:
    conn.execute("INSERT INTO watched (game_id, until) VALUES (%s, now() + interval '1 minute')", (game_id,))


def test_a_watched_game_notifies_what_it_appended_while_it_fits(pool: Any, database_url: str) -> None:
    """A move carries its events and the lobby row after it; an append that leaves the lobby row
    behind carries its events alone; one of more than CARRIED events, its version alone."""
    with psycopg.connect(database_url, autocommit=True) as listener:
        with pool.connection() as conn:
            game_id = commands.create_game(conn, "kupferkessel", [{"name": "A"}, {"name": "B"}], {}).game.id
            plain, long = _game(conn), _game(conn)
            for watched in (game_id, plain, long):
                _watch(conn, watched)
            listener.execute(f"LISTEN {CHANNEL}")
            played = commands.play(conn, game_id, 0, _first_action(conn, game_id))
            appended = append(conn, plain, 0, _events(2))
            append(conn, long, 0, _events(CARRIED + 1))
            row = lobby.get(conn, game_id)
        with closing(listener.notifies(timeout=5)) as heard:  # closed: it holds the connection's lock
            ours = (
                note
                for note in map(parse, (n.payload for n in heard))
                if note.game_id in (game_id, plain, long)
            )
            notes = list(islice(ours, 3))
    assert [(n.game_id, n.version) for n in notes] == [
        (game_id, played.version),
        (plain, 2),
        (long, CARRIED + 1),
    ]
    events, columns = carried(notes[0])
    assert events == played.events
    assert columns == {
        c: getattr(row, "kind" if c == "game" else c) for c in LOBBY
    }  # the row names it ``kind``
    assert carried(notes[1]) == (appended, None)
    assert carried(notes[2]) == ([], None)


def test_the_outbox_sweep_sends_each_row_once_and_keeps_failures(pool: Any) -> None:
    with pool.connection() as conn:
        publish_unsent(conn, lambda task, args: None)  # earlier tests' rows
        conn.execute("INSERT INTO outbox (task, args) VALUES ('t.ok', '[1]'), ('t.fail', '[2]')")
        sent: list[tuple[str, list[Any]]] = []

        def send(task: str, args: list[Any]) -> None:
            if task == "t.fail":
                raise ConnectionError("broker down")
            sent.append((task, args))

        assert publish_unsent(conn, send) == 1
        assert sent == [("t.ok", [1])]
        assert pending(conn) == 1
        assert publish_unsent(conn, lambda task, args: sent.append((task, args))) == 1
        assert sent[-1] == ("t.fail", [2]) and pending(conn) == 0
