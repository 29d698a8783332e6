"""psycopg waiting on gevent's hub (:mod:`service.server.greenwait`), in a process gevent has patched as
gunicorn's gevent worker patches its own."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()

    import json, sys, time

    import gevent
    import psycopg
    from psycopg import waiting

    from service.server import greenwait

    url = sys.argv[1]
    found = {"installed": greenwait.install(), "wait": waiting.wait.__module__}
    with psycopg.connect(url, autocommit=True) as conn, psycopg.connect(url, autocommit=True) as other:
        found["rows"] = conn.execute("SELECT g FROM generate_series(1, 3) g").fetchall()
        ticks = []
        ticker = gevent.spawn(lambda: [ticks.append(gevent.sleep(0.02)) for _ in range(5)])
        conn.execute("SELECT pg_sleep(0.3)")
        found["ticks_during_a_slow_query"] = len(ticks)
        ticker.join()

        conn.execute("LISTEN greenwait")
        start = time.monotonic()
        found["heard_in_silence"] = list(conn.notifies(timeout=0.2))
        found["silence_lasted"] = time.monotonic() - start
        gevent.spawn_later(0.05, other.execute, "NOTIFY greenwait, 'hello'")
        found["heard"] = [n.payload for n in conn.notifies(timeout=5, stop_after=1)]
        try:
            conn.execute("SET statement_timeout = 50")
            conn.execute("SELECT pg_sleep(1)")
        except psycopg.errors.QueryCanceled:
            found["cancelled"] = True
        found["after_an_error"] = conn.execute("SELECT 1").fetchone()

        parked = []
        ready = greenwait._ready
        greenwait._ready = lambda *args: parked.append(args[2]) or ready(*args)
        with conn.pipeline():
            first = conn.execute("SELECT 1")
            second = conn.execute("SELECT 2")
        found["pipelined"] = [first.fetchone(), second.fetchone()]
        found["parked_for_a_pipeline"] = parked
    print(json.dumps(found))
    """
)


def test_psycopg_waits_on_the_hub_and_lets_other_greenlets_run(database_url: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, database_url], capture_output=True, text=True, timeout=60, check=True
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["installed"] is True and found["wait"] == "service.server.greenwait"
    assert found["rows"] == [[1], [2], [3]]
    assert found["ticks_during_a_slow_query"] >= 4  # the other greenlet ran while this one waited
    assert found["heard_in_silence"] == [] and 0.15 <= found["silence_lasted"] < 2
    assert found["heard"] == ["hello"]
    assert found.get("cancelled") is True and found["after_an_error"] == [1]
    # A pipeline parks at most once, for its results (1: reading); never to learn that its socket is
    # writable (3: either way), which it is at once: each park is a pass of the hub's loop, on a
    # busy process a wait behind every other request.
    assert found["pipelined"] == [[1], [2]] and found["parked_for_a_pipeline"] in ([], [1])


def test_an_unpatched_process_keeps_psycopg_s_own_wait() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from service.server import greenwait; from psycopg import waiting;"
            "print(greenwait.install(), waiting.wait.__module__)",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    installed, module = done.stdout.split()
    assert installed == "False" and module != "service.server.greenwait"
