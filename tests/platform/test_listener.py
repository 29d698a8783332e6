"""The process's listener (:mod:`service.live.listener`): a notification wakes the waiters of its game and
no other, and no waiter sleeps through a version the listener has heard."""

from __future__ import annotations

import sys
import threading
import time
import uuid
from typing import Any

import psycopg
import pytest
from moves import first_move, new_game

from events import CHANNEL
from projections.seeks import CHANNEL as SEEKS
from service.live.listener import Listener


@pytest.fixture
def listening(app: Any) -> Listener:
    """The app's own listener, the one its streams and long-polls wait on."""
    listener: Listener = app.extensions["kotlik.listener"]
    assert listener.listening(), "the listener is not connected"
    return listener


def _waiters(listener: Listener, game: uuid.UUID, count: int, after: int, timeout: float) -> list[object]:
    """``count`` threads waiting on ``game`` past ``after``; the list fills with what each got."""
    got: list[object] = []
    parked = listener.waiting() + count
    for _ in range(count):
        threading.Thread(target=lambda: got.append(listener.wait(game, after, timeout)), daemon=True).start()
    deadline = time.monotonic() + 10
    while listener.waiting() < parked and time.monotonic() < deadline:
        time.sleep(0.01)
    assert listener.waiting() == parked
    return got


def test_one_notification_wakes_every_waiter_of_its_game_and_no_other(
    listening: Listener, database_url: str
) -> None:
    game, other = uuid.uuid4(), uuid.uuid4()
    parked = listening.waiting()
    woken = _waiters(listening, game, 40, after=2, timeout=10)
    quiet = _waiters(listening, other, 3, after=0, timeout=1.5)
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game}:3"))
    deadline = time.monotonic() + 5
    while len(woken) < 40 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert woken == [3] * 40
    assert quiet == []
    time.sleep(2)
    assert quiet == [None] * 3
    assert listening.waiting() == parked


def test_a_version_heard_before_the_wait_is_answered_at_once(listening: Listener, database_url: str) -> None:
    game = uuid.uuid4()
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game}:7"))
    deadline = time.monotonic() + 5
    while listening.latest(game) != 7 and time.monotonic() < deadline:
        time.sleep(0.01)
    started = time.monotonic()
    assert listening.wait(game, 6, timeout=5) == 7
    assert listening.wait(game, 7, timeout=0.2) is None
    assert time.monotonic() - started < 1


def test_no_waiter_sleeps_through_a_version_heard_as_it_starts_to_wait() -> None:
    """A waiter and the listener's thread hand versions back and forth 50,000 times, switching as
    often as the interpreter allows: a waiter that looked at the newest version before it joined
    the game's waiters could miss the wake of a version recorded in between, and sleep till its
    timeout."""
    listener = Listener("postgresql://unused")  # its thread is not started: this test is the thread
    game, rounds, late = uuid.uuid4(), 50_000, []
    seen = threading.Semaphore(0)

    def waiter() -> None:
        after = 0
        while after < rounds and (newest := listener.wait(game, after, timeout=10)) is not None:
            after = newest
            seen.release()

    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threading.Thread(target=waiter, daemon=True).start()
        for version in range(1, rounds + 1):
            listener._heard(game, version)
            if not seen.acquire(timeout=3):
                late.append(version)
                break
    finally:
        sys.setswitchinterval(switching)
    assert late == []


def test_a_waiter_hears_of_a_move_made_before_its_game_was_watched(listening: Listener, pool: Any) -> None:
    """The game moves while nobody watches it, so nothing is notified; the listener, when it
    leases the game for its new waiter, reads the version itself and wakes the waiter."""
    with pool.connection() as conn:
        game_id, version = new_game(conn)
        assert first_move(conn, game_id) == version + 1
    assert listening.mark(game_id) is None and listening.latest(game_id) == 0
    assert listening.wait(game_id, version, timeout=5) == version + 1
    assert listening.mark(game_id) is not None


def test_a_move_under_way_as_its_game_is_first_watched_wakes_the_waiter(
    listening: Listener, pool: Any
) -> None:
    """The move's trigger runs before the game is leased, so it notifies nobody, but it commits only
    after the listener has leased the game: the listener's read of the version waits for that
    commit (``FOR SHARE``), so the waiter still hears of the move."""
    with pool.connection() as conn:
        game_id, version = new_game(conn)
    written = threading.Event()

    def move() -> None:
        with pool.connection() as conn, conn.transaction():
            first_move(conn, game_id)
            written.set()
            time.sleep(1)

    mover = threading.Thread(target=move, daemon=True)
    mover.start()
    assert written.wait(10)
    assert listening.wait(game_id, version, timeout=5) == version + 1
    mover.join(timeout=10)


def test_a_seek_closing_wakes_its_waiters_and_no_other_and_a_reconnection_wakes_them_all(
    database_url: str,
) -> None:
    """``kotlik_seeks`` names one seek: its waiters wake, another seek's do not. The listening
    connection cut and made again: every seek waiter wakes (to read again what it may have missed).
    A listener of the test's own, its connection named so that it alone is cut."""
    name = f"seek-listener-{uuid.uuid4().hex[:8]}"
    joiner = "&" if "?" in database_url else "?"
    listener = Listener(f"{database_url}{joiner}application_name={name}").start()
    assert listener.listening()
    seek, other = uuid.uuid4(), uuid.uuid4()
    with listener.signals(seek) as woken, listener.signals(other) as quiet:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute("SELECT pg_notify(%s, %s)", (SEEKS, str(seek)))
            assert woken.wait(5) and not quiet.wait(0.5)
            woken.clear()
            cut = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s", (name,)
            ).fetchall()
            assert cut == [(True,)], "the listener's one connection"
        assert quiet.wait(20) and woken.wait(1), "a reconnection wakes every seek waiter"
    assert listener.listening()
