"""The web processes' table of open connections (:mod:`service.server.balance`), shared across a fork as
gunicorn's master shares it with its workers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from service.server import balance
from service.server.balance import ConnectionTable


@pytest.fixture
def no_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every request may let a connection go, however soon after the last."""
    monkeypatch.setattr(balance, "PAUSE", 0.0)


@contextmanager
def sibling(table: ConnectionTable, connections: int) -> Iterator[int]:
    """A forked process that joins ``table`` and holds ``connections`` until the block ends."""
    ready_r, ready_w = os.pipe()
    done_r, done_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the sibling: join, open, say so, wait until the parent closes its end
        try:
            os.close(done_w)
            table.join()
            for _ in range(connections):
                table.opened()
            os.write(ready_w, b"x")
            os.read(done_r, 1)
        finally:
            os._exit(0)
    try:
        assert os.read(ready_r, 1) == b"x"
        yield pid
    finally:
        os.close(done_w)
        os.waitpid(pid, 0)
        for fd in (ready_r, ready_w, done_r):
            os.close(fd)


def _opened(table: ConnectionTable, n: int) -> list[object]:
    """``n`` connections opened in this process (any object stands for a client's socket)."""
    connections = [object() for _ in range(n)]
    for _ in connections:
        table.opened()
    return connections


@pytest.mark.usefixtures("no_pause")
def test_a_process_over_its_share_lets_go_of_its_excess_once_each() -> None:
    table = ConnectionTable()
    with sibling(table, 2) as other:
        table.join()
        mine = _opened(table, 6)
        assert table.held() == {other: 2, os.getpid(): 6}
        # 8 open over 2 processes: a share of 4, so two of these 6 go, and no more while they leave
        assert table.let_go(mine[0])
        assert not table.let_go(mine[0])  # a request it had sent behind that one: told once is enough
        assert [table.let_go(c) for c in mine[1:]] == [True, False, False, False, False]
        table.closed(mine[0])
        table.closed(mine[1])
        assert table.held()[os.getpid()] == 4
        back = _opened(table, 2)  # both clients connected again, and were hashed here again
        assert [table.let_go(c) for c in mine[2:] + back] == [True, True, False, False, False, False]


@pytest.mark.usefixtures("no_pause")
def test_a_process_within_its_share_keeps_its_connections() -> None:
    table = ConnectionTable()
    with sibling(table, 4):
        table.join()
        mine = _opened(table, 5)  # 5 of 9: a share of 5 (rounded up)
        assert not any(table.let_go(c) for c in mine)


def test_a_dead_processs_slot_is_taken_over_and_its_connections_no_longer_count() -> None:
    table = ConnectionTable()
    with sibling(table, 10) as dead:
        assert table.held() == {dead: 10}
    table.join()  # as a worker started in place of one that was killed
    assert table.held() == {os.getpid(): 0}


@pytest.mark.usefixtures("no_pause")
def test_a_process_that_never_joined_is_never_asked_to_let_go() -> None:
    table = ConnectionTable()
    with sibling(table, 0):
        mine = _opened(table, 10)
        assert not any(table.let_go(c) for c in mine)


def test_a_process_lets_one_connection_go_per_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until each process has counted a burst of new connections, one may look over its share."""
    clock = [0.0]
    monkeypatch.setattr(balance.time, "monotonic", lambda: clock[0])
    table = ConnectionTable()
    with sibling(table, 0):
        table.join()
        mine = _opened(table, 10)
        assert [table.let_go(c) for c in mine[:3]] == [True, False, False]
        clock[0] += balance.PAUSE
        assert [table.let_go(c) for c in mine[3:5]] == [True, False]
