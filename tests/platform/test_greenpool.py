"""The web processes' connection pool (:mod:`service.server.greenpool`): its line on gevent's loop, and
the pool behind it in a gevent-patched process on real PostgreSQL, as ``kotlik web`` runs it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import gevent

from service.server.greenpool import Line


def _holders(line: Line, count: int, entered: list[int]) -> list[gevent.Greenlet]:
    """``count`` greenlets that wait in ``line``, each noting its number in ``entered`` once in."""

    def wait(number: int) -> None:
        if line.enter(timeout=5):
            entered.append(number)

    greenlets = [gevent.spawn(wait, number) for number in range(count)]
    gevent.sleep(0)  # each now waits in the line, in the order spawned
    return greenlets


def test_places_go_to_the_waiters_in_the_order_they_came() -> None:
    line, entered = Line(1), list[int]()
    assert line.enter(timeout=0)
    waiters = _holders(line, 3, entered)
    for _ in range(3):
        line.leave()
        gevent.sleep(0)
    gevent.joinall(waiters, timeout=1)
    assert entered == [0, 1, 2]


def test_a_place_given_up_goes_to_the_first_waiter_and_not_to_one_arriving_then() -> None:
    line, entered = Line(1), list[int]()
    assert line.enter(timeout=0)
    waiters = _holders(line, 1, entered)
    line.leave()
    assert not line.enter(timeout=0)  # the place is the waiter's, though it has not run yet
    gevent.joinall(waiters, timeout=1)
    assert entered == [0]


def test_a_waiter_whose_time_is_up_leaves_the_line() -> None:
    line = Line(1)
    assert line.enter(timeout=0)
    started = gevent.get_hub().loop.now()
    assert not line.enter(timeout=0.05)
    assert gevent.get_hub().loop.now() - started >= 0.04
    line.leave()
    assert line.enter(timeout=0)  # no waiter left behind to take the place


def test_a_place_handed_to_a_waiter_as_it_gives_up_goes_on_to_the_next() -> None:
    line, entered = Line(1), list[int]()
    assert line.enter(timeout=0)
    first, second = _holders(line, 2, entered)
    first.kill(block=False)  # thrown into it on the hub's next turn, after the place is handed
    line.leave()
    gevent.joinall([first, second], timeout=1)
    assert entered == [1]
    assert not line.enter(timeout=0)  # the second holds the only place


_IN_GEVENT = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()

    import json, sys, time

    import gevent
    from psycopg_pool import PoolTimeout

    from events.database import create_pool
    from service.server import greenpool

    pool = create_pool(sys.argv[1], min_size=2, max_size=2, kind=greenpool.pool_class())
    order, at_once, most = [], [0], [0]

    def play(number):
        with pool.connection() as conn:
            order.append(number)
            at_once[0] += 1
            most[0] = max(most[0], at_once[0])
            conn.execute("SELECT pg_sleep(0.02)")
            at_once[0] -= 1

    greenlets = []
    for number in range(8):
        greenlets.append(gevent.spawn(play, number))
        gevent.sleep(0.001)
    with pool.connection(), pool.connection():
        started = time.monotonic()
        try:
            pool.getconn(timeout=0.1)
            timed_out = None
        except PoolTimeout:
            timed_out = time.monotonic() - started
    gevent.joinall(greenlets)
    with pool.connection(timeout=1) as a, pool.connection(timeout=1) as b:
        both = a.execute("SELECT 1").fetchone() is not None and b.execute("SELECT 1").fetchone() is not None
    print(json.dumps({"kind": type(pool).__name__, "order": order, "most": most[0],
                      "timed_out": timed_out, "both": both}))
    pool.close()
    """
)


def test_in_a_gevent_process_the_pool_serves_requests_in_order_and_times_out(database_url: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _IN_GEVENT, database_url], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["kind"] == "GreenPool"
    assert seen["order"] == list(range(8))  # first come, first served while connections are scarce
    assert seen["most"] <= 2
    assert seen["timed_out"] is not None and seen["timed_out"] >= 0.09
    assert seen["both"]  # no place lost to the request that timed out
