"""A game's long-polls share one read of its lobby row per version (:mod:`service.live.rows`), the
shared row never holds back a version the caller has seen or the listener did not hear, and a move
whose notification carries it (:mod:`events.notes`) costs the process that hears it no read."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any
from uuid import UUID

import pytest
from httpclient import Client, Reply, create, events_until, game_path
from moves import first_move, new_game
from processes import ROOT

import commands
from projections import lobby

POLLS = 30


def _first_command(api: Client, game: dict[str, Any]) -> tuple[Client, dict[str, Any]]:
    seats = {s["seat"]: api.seat(s["token"]) for s in game["seats"]}
    mover = seats[api.get(game_path(game)).body["to_move"][0]]
    return mover, mover.get(game_path(game, "/actions")).body[0]


@pytest.fixture
def reads(app: Any, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the lobby reads of the app's shared rows, one entry per read."""
    rows = app.extensions["kotlik.polls"].rows
    connect, counted = rows.connect, []

    @contextmanager
    def counting() -> Iterator[Any]:
        counted.append(1)
        with connect() as conn:
            yield conn

    monkeypatch.setattr(rows, "connect", counting)
    return counted


def _checkouts(app: Any, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the connections taken besides the shared rows' reads: from the commands' pool, and by
    the streams and long-polls from theirs. One entry per checkout."""
    taken: list[int] = []
    pool, polls = app.extensions["kotlik.pool"], app.extensions["kotlik.polls"]
    for owner, name in ((pool, "connection"), (polls, "connect")):
        checkout = getattr(owner, name)
        monkeypatch.setattr(owner, name, lambda *a, c=checkout, **kw: taken.append(1) or c(*a, **kw))
    return taken


def _until_waiting(app: Any, count: int) -> None:
    listener = app.extensions["kotlik.listener"]
    deadline = time.monotonic() + 20
    while listener.waiting() < count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert listener.waiting() >= count


def _until_leased(app: Any, game_id: str) -> None:
    """Until the app's listener has leased the game as watched, so that its moves carry themselves,
    and covers it (it has read the game's version since)."""
    deadline = time.monotonic() + 10
    leased = "SELECT count(*) AS n FROM watched WHERE game_id = %s AND until > now()"
    listener = app.extensions["kotlik.listener"]
    with app.extensions["kotlik.pool"].connection() as conn:
        while not conn.execute(leased, (game_id,)).fetchone()["n"] or listener.mark(UUID(game_id)) is None:
            assert time.monotonic() < deadline, "the listener did not lease the watched game"
            time.sleep(0.05)


def test_the_long_polls_of_a_game_read_its_lobby_row_once_per_version(
    app: Any, live_url: str, reads: list[int]
) -> None:
    api = Client(live_url)
    game = create(api, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    version = game["version"]
    answers: list[Reply] = []
    poll = game_path(game, f"/state?wait=30&since={version}")
    waiters = [threading.Thread(target=lambda: answers.append(api.get(poll))) for _ in range(POLLS)]
    for waiter in waiters:
        waiter.start()
    _until_waiting(app, POLLS)
    _until_leased(app, game["id"])
    mover, command = _first_command(api, game)
    assert mover.post(game_path(game, "/commands"), command).status == 201
    for waiter in waiters:
        waiter.join(timeout=30)
    assert [a.status for a in answers] == [200] * POLLS
    assert {a.body["version"] for a in answers} == {version + 1}
    # One read to learn the game is at ``version``; then the others wait on the listener's word,
    # and the move comes with the notification. A long-poll used to cost two reads each.
    assert len(reads) == 1, len(reads)


def test_a_game_moved_elsewhere_answers_polls_behind_it_and_holds_those_at_it(
    app: Any, live_url: str
) -> None:
    """Moved beside the app (as another process would), the game is past the shared row: a poll
    for the version before answers at once, and a poll for the new one waits for the next."""
    api = Client(live_url)
    game = create(api, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    version = game["version"]
    assert api.get(game_path(game, f"/state?wait=1&since={version}")).status == 304  # shared: at version
    _, command = _first_command(api, game)
    game_id = UUID(game["id"])
    with app.extensions["kotlik.pool"].connection() as conn:
        played = commands.play(conn, game_id, lobby.get(conn, game_id).to_move[0], command)
    assert played.version == version + 1
    behind = api.get(game_path(game, f"/state?wait=5&since={version}"), timeout=3)
    assert behind.body["version"] == version + 1
    started = time.monotonic()
    assert api.get(game_path(game, f"/state?wait=1&since={version + 1}")).status == 304
    assert time.monotonic() - started >= 0.9


def _listening_backends(conn: Any) -> set[int]:
    rows = conn.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %%'"
    ).fetchall()
    return {int(r["pid"]) for r in rows}


def test_a_row_read_before_the_listener_lost_the_database_is_not_trusted(pool: Any) -> None:
    """The listener's connection is cut (its backend terminated) and the game moves while nobody
    listens: the shared row is at the old version and the listener never heard of the new one, so
    only knowing that the row was read before the break keeps the poll from waiting in vain."""
    from service.app import create_app

    with pool.connection() as conn:
        before = _listening_backends(conn)
    app = create_app(pool, TESTING=True, KOTLIK_RATE_LIMITS="off")
    listener, client = app.extensions["kotlik.listener"], app.test_client()
    with pool.connection() as conn:
        ours = _listening_backends(conn) - before
        assert len(ours) == 1, ours
        game_id, version = new_game(conn)
        path = f"/api/v1/games/{game_id}/state"
        assert client.get(f"{path}?wait=1&since={version}").status_code == 304  # the row, shared
        conn.execute("SELECT pg_terminate_backend(%s)", (ours.pop(),))
        assert first_move(conn, game_id) == version + 1
    deadline = time.monotonic() + 20
    while not listener.listening() and time.monotonic() < deadline:
        time.sleep(0.05)
    started = time.monotonic()
    answer = client.get(f"{path}?wait=5&since={version}")
    assert answer.status_code == 200 and answer.get_json()["version"] == version + 1
    assert time.monotonic() - started < 4


#: Plays one command in a process of its own: argv is the database, the game and the command.
_ELSEWHERE = """
import json, sys
from uuid import UUID
from events.database import create_pool
from projections import lobby
import commands
with create_pool(sys.argv[1], max_size=1).connection() as conn:
    game_id = UUID(sys.argv[2])
    commands.play(conn, game_id, lobby.get(conn, game_id).to_move[0], json.loads(sys.argv[3]))
"""


def test_a_move_played_by_another_process_reaches_polls_and_streams_without_a_read(
    app: Any, live_url: str, database_url: str, reads: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    api = Client(live_url)
    game = create(api, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    version, url = game["version"], f"{api.base}{game_path(game)}/stream?after={game['version']}"
    assert api.get(game_path(game, f"/state?wait=1&since={version}")).status == 304  # the row, shared
    _, command = _first_command(api, game)
    with urllib.request.urlopen(url, timeout=10) as stream:
        _until_waiting(app, 1)
        _until_leased(app, game["id"])
        taken = _checkouts(app, monkeypatch)
        subprocess.run(
            [sys.executable, "-c", _ELSEWHERE, database_url, game["id"], json.dumps(command)],
            cwd=ROOT,
            check=True,
        )
        polled = api.get(game_path(game, f"/state?wait=10&since={version}"))
        streamed = events_until(stream, version + 1)
        assert (len(reads), len(taken)) == (1, 0), "the move was read back, not taken from its notification"
    assert (polled.status, polled.body["version"]) == (200, version + 1)
    assert [e["version"] for e in streamed] == [version + 1]

    # What the note brought forward is what a read finds.
    app.extensions["kotlik.caches"].states.clear()
    assert api.get(game_path(game, "/state")).body == polled.body
    with urllib.request.urlopen(url, timeout=10) as stream:
        assert events_until(stream, version + 1) == streamed


STREAMS = 10


def test_the_spectators_streams_opened_on_a_game_share_one_read_of_its_row(
    app: Any, live_url: str, reads: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's watchers open their streams together (a new game on a busy table): each used to
    take a pool connection of its own to read the row, and waited its turn for one."""
    api = Client(live_url)
    game = create(api, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    version, url = game["version"], f"{api.base}{game_path(game)}/stream?after={game['version']}"
    taken = _checkouts(app, monkeypatch)
    streams = [urllib.request.urlopen(url, timeout=10) for _ in range(STREAMS)]
    try:
        assert (len(reads), len(taken)) == (1, 0)
        mover, command = _first_command(api, game)
        assert mover.post(game_path(game, "/commands"), command).status == 201
        seen = [[e["version"] for e in events_until(stream, version + 1)] for stream in streams]
    finally:
        for stream in streams:
            stream.close()
    assert seen == [[version + 1]] * STREAMS


def test_a_row_remembered_past_its_games_cover_is_read_again(
    app: Any, pool: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading a game's row covers it (:mod:`service.live.listener`) until its lease runs out; a game no
    process watches then moves without a notification, so the listener cannot say that nothing has
    happened since the row was read: the row is read again before it answers."""
    from service.live import listener

    monkeypatch.setattr(listener, "LEASE", 2.0)
    monkeypatch.setattr(listener, "MARGIN", 0.5)
    rows = app.extensions["kotlik.polls"].rows
    with pool.connection() as conn:
        game_id, version = new_game(conn)
        assert rows.past(game_id, version) is None  # remembered, at ``version``, and covered
        assert rows.listener.mark(game_id) is not None
        time.sleep(2.2)
        assert rows.listener.mark(game_id) is None
        assert first_move(conn, game_id) == version + 1
    time.sleep(0.3)
    assert rows.listener.latest(game_id) == version, "an unwatched game's move was heard"
    moved = rows.past(game_id, version)
    assert moved is not None and moved.version == version + 1
    assert rows.current(game_id).version == version + 1


def test_streams_and_long_polls_open_and_hear_a_move_while_the_commands_take_every_connection(
    app: Any, live_url: str, database_url: str
) -> None:
    """The watchers read through a pool of their own (``service.app.WATCHERS_POOL``). Through the
    commands' pool, a stream opening on a busy server, and the read a move's watchers share,
    queued behind every command that waited for a connection."""
    api = Client(live_url)
    game = create(api, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    version, url = game["version"], f"{api.base}{game_path(game)}/stream?after={game['version']}"
    _, command = _first_command(api, game)
    pool = app.extensions["kotlik.pool"]
    with ExitStack() as held:
        for _ in range(pool.max_size):
            held.enter_context(pool.connection())
        started = time.monotonic()
        with urllib.request.urlopen(url, timeout=5) as stream:
            answers: list[Reply] = []
            poll = threading.Thread(
                target=lambda: answers.append(api.get(game_path(game, f"/state?wait=20&since={version}")))
            )
            poll.start()
            _until_waiting(app, 2)
            subprocess.run(
                [sys.executable, "-c", _ELSEWHERE, database_url, game["id"], json.dumps(command)],
                cwd=ROOT,
                check=True,
            )
            streamed = events_until(stream, version + 1)
            poll.join(timeout=20)
        waited = time.monotonic() - started
    assert [e["version"] for e in streamed] == [version + 1]
    assert [(a.status, a.body["version"]) for a in answers] == [(200, version + 1)]
    assert waited < 5, f"the watchers waited {waited:.1f} s for the commands' pool"
