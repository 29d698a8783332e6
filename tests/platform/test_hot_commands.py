"""A command decided on this process's cache, before the lobby is read, is written only if the game
is still where the cache says; otherwise nothing of it is kept and it is decided again.

"Another process" is played by moving the game and then putting back the cache entry this process
had before, so that its state and lobby row are one version behind the database, while its
listener (``newest``) has heard of nothing newer: the worst case the one-round-trip path can meet.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from typing import Any
from uuid import UUID, uuid4

import psycopg
import pytest
from psycopg.types.json import Jsonb

import commands
from commands import writes
from events import NewEvent, StoredEvent
from games.interface import NotYourTurn
from projections import lobby, players, webhooks
from projections.caches import Caches
from projections.fold import Folded, state_at
from projections.state import EARLIER, RECENT, States
from service.guard.auth import holder, seat_and_game, seat_of

#: This test's process: its caches, and the write side's commands played with them, as a web
#: process plays them with its app's.
CACHES = Caches.sized()
play = partial(commands.play, caches=CACHES)
create_game = partial(commands.create_game, caches=CACHES)


def _deaf(game_id: UUID) -> int:
    """A listener that has heard of no version of any game."""
    return 0


def _log(conn: Any, game_id: UUID) -> dict[str, Any]:
    """What a write could have touched, to compare before and after one that must write nothing."""

    def count(sql: str) -> int:
        return int(conn.execute(sql, (game_id,)).fetchone()["n"])

    lobby = conn.execute(
        "SELECT version, to_move, status, deadline, warned FROM games WHERE id = %s", (game_id,)
    ).fetchone()
    return {
        "lobby": dict(lobby),
        "events": count("SELECT count(*) AS n FROM events WHERE game_id = %s"),
        "keys": count("SELECT count(*) AS n FROM commands WHERE game_id = %s"),
        "outbox": count("SELECT count(*) AS n FROM outbox WHERE args->>0 = %s::text"),
        "deliveries": count("SELECT count(*) AS n FROM deliveries WHERE body->>'game_id' = %s::text"),
    }


def _first_action(game: Any, state: Any, seat: int) -> dict[str, Any]:
    return dict(game.legal_actions(state, seat)[0])


def _turn(conn: Any, game_id: UUID, game: Any, played: Any) -> Any:
    """Play the first legal action of whoever moves until another seat is to move."""
    seat = game.to_move(played.state)[0]
    while game.to_move(played.state)[:1] == [seat]:
        played = play(conn, game_id, seat, _first_action(game, played.state, seat))
    return played


def _new_game(conn: Any) -> tuple[UUID, Any, commands.Played]:
    """A new two-human Kupferkessel game: its id, its rules and its opening as the cache holds it."""
    created = create_game(conn, "kupferkessel", [{"name": "A"}, {"name": "B"}], {})
    hot = CACHES.states.get(created.game.id)
    assert hot is not None
    opening = commands.Played(hot.folded.version, [], created.game, hot.folded.state)
    return created.game.id, created.game.rules, opening


def _hook(conn: Any, *, game_id: UUID | None = None, player_id: UUID | None = None) -> UUID:
    """A ``your_turn`` webhook of the game's own or of a player; its id."""
    hook = uuid4()
    conn.execute(
        "INSERT INTO webhooks (id, game_id, player_id, url, secret, kinds) "
        "VALUES (%s, %s, %s, 'https://hooks.example/kotlik', 'secret', %s)",
        (hook, game_id, player_id, Jsonb(["your_turn"])),
    )
    return hook


@pytest.fixture
def stale_game(pool: Any) -> Any:
    """A two-human Kupferkessel game whose cached entry is one turn behind the database: there it
    is the ``mover``'s turn, in the database the other seat's."""
    with pool.connection() as conn:
        game_id, game, opening = _new_game(conn)
        first = _turn(conn, game_id, game, opening)
        behind = CACHES.states.get(game_id)
        assert behind is not None and behind.row is not None and behind.folded.version == first.version
        mover = game.to_move(first.state)[0]
        moved = _turn(conn, game_id, game, first)
        CACHES.states.clear()
        CACHES.states.put(game_id, behind.folded, behind.recent, row=behind.row)
        return {"id": game_id, "game": game, "behind": behind, "mover": mover, "moved": moved}


def test_a_command_that_fits_only_the_stale_state_writes_nothing_and_is_refused(
    pool: Any, stale_game: dict[str, Any]
) -> None:
    game_id, behind, mover = stale_game["id"], stale_game["behind"], stale_game["mover"]
    replayed = _first_action(stale_game["game"], behind.folded.state, mover)
    with pool.connection() as conn:
        before = _log(conn, game_id)
        with pytest.raises(NotYourTurn):
            play(conn, game_id, mover, replayed, command_id="k-1", newest=_deaf)
        assert _log(conn, game_id) == before


def test_a_command_that_fits_the_fresh_state_is_written_once_at_the_right_version(
    pool: Any, stale_game: dict[str, Any]
) -> None:
    game_id, game, moved = stale_game["id"], stale_game["game"], stale_game["moved"]
    seat = game.to_move(moved.state)[0]
    with pool.connection() as conn:
        before = _log(conn, game_id)
        played = play(conn, game_id, seat, _first_action(game, moved.state, seat), newest=_deaf)
        after = _log(conn, game_id)
    assert played.events[0].version == moved.version + 1
    assert after["lobby"]["version"] == played.version
    assert after["events"] == before["events"] + len(played.events)
    cached = CACHES.states.get(game_id)
    assert cached is not None and cached.folded.version == played.version


def test_a_write_at_a_version_the_game_has_left_writes_no_part_of_itself(
    pool: Any, stale_game: dict[str, Any]
) -> None:
    """Every part of a write hangs on the lobby row's guard: events, lobby, snapshot, idempotency
    key, outbox rows and webhook deliveries alike."""
    game_id, behind = stale_game["id"], stale_game["behind"]
    stale = writes.Write(
        game_id,
        behind.folded.version,
        [NewEvent("Nothing", {}, {})],
        [0],
        "active",
        snapshot=(1, {"any": "state"}),
        clock="set",
        seconds=60.0,
        work=[("bots.play_turn", [str(game_id), 1, behind.folded.version + 1])],
        notice=writes.Notice("your_turn", {"version": behind.folded.version + 1}, None),
        key=("k-stale", "hash", 0),
    )
    with pool.connection() as conn:
        # Webhooks of the game's own and of a player at seat 0, so the notice has two ways to go.
        player, _ = players.create(conn, f"Hooked {uuid4().hex[:6]}")
        players.bind(conn, game_id, 0, player.id)
        _hook(conn, game_id=game_id)
        _hook(conn, player_id=player.id)
        before = _log(conn, game_id)
        snapshots = "SELECT count(*) AS n FROM snapshots WHERE game_id = %s"
        had = conn.execute(snapshots, (game_id,)).fetchone()["n"]
        ahead = replace(stale, at=before["lobby"]["version"] + 5)  # a version the game never reached
        for write in (stale, ahead):
            with pytest.raises(writes.Stale):
                writes.save(conn, write)
            assert _log(conn, game_id) == before
        assert conn.execute(snapshots, (game_id,)).fetchone()["n"] == had


@pytest.mark.parametrize("seats", [[1], None])
def test_a_write_at_the_game_s_version_lands_whole_and_notices_only_the_seats_it_names(
    pool: Any, seats: list[int] | None
) -> None:
    """Events with their data and meta, the outbox work and the webhook deliveries arrive as the
    write gave them; a notice for some seats reaches the hooks of their players and the game's own
    (every bound seat's when it names none)."""
    events = [
        NewEvent("Note", {"text": 'a "quoted" ünïcode', "n": [1, {"k": None}]}, {"seat": 1}),
        NewEvent("Empty", {}, {}),
    ]
    with pool.connection() as conn:
        game_id, _, opening = _new_game(conn)
        hooks: dict[UUID, int | None] = {}
        for seat in (0, 1, None):
            player_id = None
            if seat is not None:
                player_id = players.create(conn, f"Hooked {seat} {uuid4().hex[:6]}")[0].id
                players.bind(conn, game_id, seat, player_id)
            hooks[_hook(conn, game_id=None if seat is not None else game_id, player_id=player_id)] = seat
        work: list[tuple[str, list[Any]]] = [
            ("bots.play_turn", [str(game_id), 1, opening.version + 2]),
            ("scoring.score", [str(game_id)]),
        ]
        write = writes.Write(
            game_id,
            opening.version,
            events,
            [1],
            "active",
            work=work,
            notice=writes.Notice("your_turn", {"version": opening.version + 2}, seats),
        )
        stored, queued = writes.save(conn, write)
        logged = conn.execute(
            "SELECT version, type, data, meta FROM events WHERE game_id = %s AND version > %s "
            "ORDER BY version",
            (game_id, opening.version),
        ).fetchall()
        delivered = conn.execute(
            "SELECT id, webhook_id, body FROM deliveries WHERE body->>'game_id' = %s::text", (str(game_id),)
        ).fetchall()
    assert [(e.version, e.type, e.data, e.meta) for e in stored] == [
        (opening.version + n, e.type, e.data, e.meta) for n, e in enumerate(events, 1)
    ]
    assert [tuple(row.values()) for row in logged] == [(e.version, e.type, e.data, e.meta) for e in stored]
    sends = [q for q in queued if q.task == webhooks.DELIVER]
    assert [(q.task, q.args) for q in queued if q not in sends] == work
    assert sorted(q.args[0] for q in sends) == sorted(row["id"] for row in delivered)
    reached = sorted(
        (hooks[row["webhook_id"]] for row in delivered), key=lambda seat: -1 if seat is None else seat
    )
    assert reached == ([None, 1] if seats == [1] else [None, 0, 1])
    assert {row["body"].get("seat") for row in delivered} == {None, *(seats or [0, 1])}


def test_a_move_updates_its_lobby_row_in_place(pool: Any) -> None:
    """A move's lobby update is HOT: no index covers a column it changes, so PostgreSQL writes no
    index entry for it and a fast game leaves no chain of dead entries in the primary key."""
    updated = (
        "SELECT pg_stat_get_xact_tuples_updated(oid) AS updated, "
        "pg_stat_get_xact_tuples_hot_updated(oid) AS hot FROM pg_class WHERE oid = 'games'::regclass"
    )
    with pool.connection() as conn:
        game_id, game, opening = _new_game(conn)
        with conn.transaction():
            _turn(conn, game_id, game, opening)
            counts = conn.execute(updated).fetchone()
    assert counts["updated"] >= 1
    assert counts["hot"] == counts["updated"]


@pytest.mark.parametrize("newest", [None, _deaf], ids=["no listener", "a listener that heard nothing"])
def test_a_cache_behind_the_database_is_brought_forward_with_the_row_it_is_read_with(
    pool: Any, stale_game: dict[str, Any], newest: Any
) -> None:
    """``with_row`` asks for the events after the cached state in the row's round trip, or after
    it when the listener has heard of nothing newer (the row alone, most often all it needs); the
    state it gives is the one a cold fold of the log gives, whether the cache is behind the row, at
    it, or (the row read before a newer commit) ahead of it."""
    game_id, game, moved = stale_game["id"], stale_game["game"], stale_game["moved"]
    behind = stale_game["behind"].folded.version
    with pool.connection() as conn:

        def at(version: int) -> Any:
            def ask(c: Any) -> Any:
                row_of = lobby.later(c, game_id)
                return lambda: replace(row_of(), version=version)

            return ask

        for version in (moved.version, moved.version, behind):  # behind it, at it, ahead of it
            row, folded = CACHES.states.with_row(conn, game_id, at(version), newest)
            assert row.version == folded.version == version
            assert folded.state == state_at(conn, game_id, game, at=version).state
    cached = CACHES.states.get(game_id)
    assert cached is not None and cached.folded.version == moved.version


def test_a_reader_a_few_commits_behind_the_cache_gets_its_state_without_a_query(pool: Any) -> None:
    """A long-poll woken by one commit often answers after the next: the cache keeps the few
    states before its newest, so the row it read is answered without folding the log again."""
    with pool.connection() as conn:
        game_id, game, played = _new_game(conn)
        versions = [played.version]
        for _ in range(EARLIER + 2):
            seat = game.to_move(played.state)[0]
            played = play(conn, game_id, seat, _first_action(game, played.state, seat))
            versions.append(played.version)
        truth = {v: state_at(conn, game_id, game, at=v).state for v in versions}
    with pool.connection() as spare:
        spare.close()  # any query on it fails
        for version in versions[-EARLIER - 1 :]:
            assert CACHES.states.load(spare, game_id, game, version).state == truth[version]
        too_old = versions[-EARLIER - 2]
        with pytest.raises(psycopg.OperationalError):
            CACHES.states.load(spare, game_id, game, too_old)
    with pool.connection() as conn:
        assert CACHES.states.load(conn, game_id, game, too_old).state == truth[too_old]


def test_a_cache_the_listener_finds_current_reads_the_lobby_row_alone(
    pool: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pipeline of the row and the events after the cache costs psycopg twice one statement, so
    ``with_row`` asks for the row alone when the listener has heard of nothing newer than the cache."""
    with pool.connection() as conn:
        game_id, game, played = _new_game(conn)
        read_row = partial(lobby.later, game_id=game_id)

        def no_pipeline() -> Any:
            raise AssertionError("the row and the events were read in a pipeline")

        monkeypatch.setattr(conn, "pipeline", no_pipeline)
        row, folded = CACHES.states.with_row(conn, game_id, read_row, lambda _: played.version)
        assert row.version == folded.version == played.version
        with pytest.raises(AssertionError, match="pipeline"):  # a newer version heard of: one round trip
            CACHES.states.with_row(conn, game_id, read_row, lambda _: played.version + 1)


def _statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The first words of every statement executed from now on."""
    statements: list[str] = []
    execute = psycopg.Cursor.execute

    def counted(cursor: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        statements.append(" ".join(str(query).split()[:3]))
        return execute(cursor, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", counted)
    return statements


def _one_round_trip(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What broke a single round trip: a statement sent outside a pipeline, or a result taken
    inside one (psycopg then syncs there, and again at the pipeline's end)."""
    broken: list[str] = []

    def watched(name: str) -> None:
        method = getattr(psycopg.Cursor, name)
        outside = name == "execute"

        def wrapper(cursor: Any, *args: Any, **kwargs: Any) -> Any:
            if (cursor.connection._pipeline is None) == outside:
                broken.append(f"{name} {' '.join(str(args[0]).split()[:3]) if outside else ''}")
            return method(cursor, *args, **kwargs)

        monkeypatch.setattr(psycopg.Cursor, name, wrapper)

    for name in ("execute", "fetchone", "fetchall"):
        watched(name)
    return broken


def _with_row_in_one_round_trip(pool: Any, game_id: UUID, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``States.with_row`` of the game, checked to have made one round trip."""
    broken = _one_round_trip(monkeypatch)
    with pool.connection() as conn:
        row, folded = CACHES.states.with_row(conn, game_id, partial(lobby.later, game_id=game_id))
    monkeypatch.undo()
    assert broken == []
    return row, folded


def test_a_game_not_in_the_cache_is_loaded_with_its_row_in_one_round_trip(
    pool: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game another process made or played: its newest state and its lobby row are asked for in
    one pipeline and taken after it, and the state is the fold of its log under the row's rules."""
    with pool.connection() as conn:
        game_id, game, played = _new_game(conn)
        played = _turn(conn, game_id, game, played)
    CACHES.states.clear()
    row, folded = _with_row_in_one_round_trip(pool, game_id, monkeypatch)
    assert row.version == folded.version == played.version
    with pool.connection() as conn:
        assert folded.state == state_at(conn, game_id, game).state == played.state


def test_a_cached_game_another_process_moved_is_brought_forward_in_one_round_trip(
    pool: Any, stale_game: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The row and the events after the cached state: one pipeline, its results taken after it."""
    game_id, moved = stale_game["id"], stale_game["moved"]
    row, folded = _with_row_in_one_round_trip(pool, game_id, monkeypatch)
    assert row.version == folded.version == moved.version


def test_a_game_loaded_while_another_process_moves_it_has_the_state_of_its_row(pool: Any) -> None:
    """The state is asked for before the row, so a move committed in between leaves the row newer:
    the state is then brought to the row's version."""
    with pool.connection() as conn:
        game_id, game, played = _new_game(conn)
    CACHES.states.clear()

    def moved_meanwhile(conn: Any) -> Any:
        with pool.connection() as other:
            seat = game.to_move(played.state)[0]
            play(other, game_id, seat, _first_action(game, played.state, seat))
            CACHES.states.clear()  # as another process would: this one has heard of nothing
            row = lobby.get(other, game_id)
        return lambda: row

    with pool.connection() as conn:
        row, folded = CACHES.states.with_row(conn, game_id, moved_meanwhile)
        assert row.version == folded.version > played.version
        assert folded.state == state_at(conn, game_id, game).state


def _each_seats_first_command_writes_alone(
    pool: Any, monkeypatch: pytest.MonkeyPatch, created: commands.Created, state: Any
) -> None:
    """Play from ``state`` until every human seat has moved, each command checked to be its
    write alone: no token, no lobby row, no event read (the seat's token as this process knows it,
    the write guarded by the game's count of reissued tokens it knew it at)."""
    game_id, game, moved = created.game.id, created.game.rules, set()
    while moved != set(created.tokens):
        seat = game.to_move(state)[0]
        statements = _statements(monkeypatch)
        with pool.connection() as conn:
            seated = holder(conn, CACHES, game_id, created.tokens[seat])
            assert seated is not None and seated.seat == seat and seated.credentials == 0
            played = play(conn, game_id, seat, _first_action(game, state, seat), newest=_deaf, credentials=0)
        monkeypatch.undo()
        assert statements == ["WITH lobby AS"], (seat, statements)
        state = played.state
        moved.add(seat)


def test_a_new_games_first_command_of_each_seat_is_its_write_alone(
    pool: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process that creates a game knows its row (seed included) and its seats' tokens, so
    the first command of each seat there reads neither, as no later command does."""
    with pool.connection() as conn:
        created = create_game(conn, "kupferkessel", [{"name": "A"}, {"name": "B"}], {})
    hot = CACHES.states.get(created.game.id)
    assert hot is not None and hot.row is not None and hot.row.seed is not None
    _each_seats_first_command_writes_alone(pool, monkeypatch, created, hot.folded.state)


def test_a_game_another_process_made_costs_its_first_command_one_round_trip_more(
    pool: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where neither the game nor its tokens are known yet, the first request's seat is asked in
    the same round trip as the game's row and state; its command then writes alone, and so does
    the other seat's first command here: it reads no token."""
    with pool.connection() as conn:
        created = create_game(conn, "kupferkessel", [{"name": "A"}, {"name": "B"}], {})
    game_id, seat = created.game.id, created.game.to_move[0]
    CACHES.states.clear()
    CACHES.tokens.clear()
    broken = _one_round_trip(monkeypatch)
    with pool.connection() as conn:
        found, row, folded = seat_and_game(conn, CACHES, game_id, created.tokens[seat])
    monkeypatch.undo()
    assert broken == [] and found is not None and found.seat == seat and row.seed is not None
    _each_seats_first_command_writes_alone(pool, monkeypatch, created, folded.state)


def test_a_token_of_no_seat_in_a_game_whose_tokens_are_known_reads_none(
    pool: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A forged token is no seat, whether it comes first (and reads the game's tokens) or later
    (and reads none, by a lobby row read at the count the tokens were known at); a player key
    reads only whom it binds. Without a row to check by, the tokens are read."""
    with pool.connection() as conn:
        created = create_game(conn, "kupferkessel", [{"name": "A"}, {"name": "B"}], {})
        player, key = players.create(conn, f"Ada {uuid4().hex[:6]}")
        players.bind(conn, created.game.id, 1, player.id)
    game_id = created.game.id
    CACHES.tokens.clear()
    with pool.connection() as conn:
        row = lobby.get(conn, game_id)
        assert seat_of(conn, CACHES, game_id, "forged", row) is None  # reads the game's tokens
        assert seat_of(conn, CACHES, game_id, created.tokens[0], row) == 0
        statements = _statements(monkeypatch)
        assert seat_of(conn, CACHES, game_id, "forged", row) is None
        assert holder(conn, CACHES, game_id, "forged") is None
        assert statements == ["SELECT min(gp.seat) AS"] * 2
        statements.clear()
        assert seat_of(conn, CACHES, game_id, key, row) == 1
        assert statements == ["SELECT min(gp.seat) AS"]
        statements.clear()
        assert seat_of(conn, CACHES, game_id, created.tokens[0]) == 0
        assert statements == ["SELECT t.token_hash, t.seat,"]


def test_an_entry_keeps_its_newest_events_and_all_of_its_last_writes() -> None:
    """Streams one write behind are served from memory, whatever the size of that write; older
    events are left to the database, so the collector has fewer to walk."""
    cache, game_id, now = States(4), uuid4(), datetime.now(UTC)

    def write(first: int, count: int) -> int:
        """Put ``count`` events from version ``first`` on; the version after them."""
        last = first + count - 1
        events = [StoredEvent(v, game_id, v, "Moved", {}, {}, now) for v in range(first, last + 1)]
        cache.put(game_id, Folded(None, last), events)
        return last

    def held(after: int, upto: int) -> list[int] | None:
        events = cache.events(game_id, after, upto)
        return None if events is None else [e.version for e in events]

    version = 0
    while version < 2 * RECENT:
        version = write(version + 1, 1)
    assert held(version - RECENT, version) == list(range(version - RECENT + 1, version + 1))
    assert held(version - RECENT - 1, version) is None  # older: the database's
    big = write(version + 1, 3 * RECENT)
    assert held(version, big) == list(range(version + 1, big + 1))
