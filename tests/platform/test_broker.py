"""The default broker on a fresh database: processes that touch it first, all at once, all survive.

kombu creates its tables lazily; before they were created under a lock, a web process, a worker
and its beat racing to create them left one of them with a UniqueViolation, which killed
``kotlik up`` in about one start in five.
"""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import time
from pathlib import Path

from processes import ROOT, alive, descendants, environment, fresh_database, kotlik, stop, wait_for_line

from events.database import sqlalchemy_url
from workers.broker import ALIAS

#: Each process waits for the same instant, then touches the broker: half as ``prepare`` does
#: (``kotlik up``/``worker``/``migrate``), half as a web process sending its first task does.
_TOUCH = """
import sys, time
from kombu import Connection
from workers.broker import prepare
url, queue, start, how = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
while time.time() < start:
    time.sleep(0.001)
if how == "prepare":
    prepare(url, queue)
else:
    with Connection(url) as conn:
        conn.SimpleQueue(queue).put({"hello": "broker"})
"""


def test_processes_touching_a_fresh_broker_at_once_all_succeed(server_url: str) -> None:
    for _ in range(3):
        with fresh_database(server_url) as database:
            url = f"{ALIAS}+{sqlalchemy_url(database)}"
            start = time.time() + 2.0  # after every interpreter has imported kombu
            touches = [
                subprocess.Popen(
                    [sys.executable, "-c", _TOUCH, url, "kotlik", str(start), how],
                    cwd=ROOT,
                    stderr=subprocess.PIPE,
                )
                for how in ("prepare", "send", "prepare", "send")
            ]
            for touch in touches:
                _, err = touch.communicate(timeout=60)
                assert touch.returncode == 0, err.decode()


def test_workers_started_at_once_on_a_fresh_database_all_come_up(server_url: str, tmp_path: Path) -> None:
    with fresh_database(server_url) as database:
        env = environment(DATABASE_URL=database, CELERY_BROKER_URL=None, KOTLIK_QUEUE=secrets.token_hex(4))
        logs = [tmp_path / f"worker-{i}.log" for i in range(3)]
        workers = [kotlik(["worker", "--concurrency", "1"], env, log) for log in logs]
        try:
            for worker, log in zip(workers, logs, strict=True):  # its games' and webhooks' workers
                wait_for_line(worker, log, " ready.", 90, count=2)
            children = [c for w in workers for c in descendants(w.pid)]
            for worker in workers:
                worker.terminate()
            for worker, log in zip(workers, logs, strict=True):
                assert worker.wait(timeout=30) == 0, log.read_text()
                assert "Unrecoverable" not in log.read_text()
            assert not [c for c in children if alive(c)], "a child outlived kotlik worker"
        finally:
            for worker in workers:
                stop(worker)


#: Publishes twice on the default broker and prints what the second publish executed, and how.
_PUBLISH = """
import json, sys
from kombu import Connection
from sqlalchemy import Engine, event
from workers.broker import prepare
url, queue = sys.argv[1], sys.argv[2]
prepare(url, queue)
seen = []
def record(connection, cursor, statement, *args):
    seen.append([statement.split()[0], connection.connection.dbapi_connection.autocommit])
with Connection(url) as conn:
    simple = conn.SimpleQueue(queue)
    simple.put({"first": 1})  # the queue's id is looked up once per channel
    event.listen(Engine, "before_cursor_execute", record)
    simple.put({"second": 2})
    event.remove(Engine, "before_cursor_execute", record)
    got = [simple.get(timeout=10), simple.get(timeout=10)]
    for message in got:
        message.ack()
print(json.dumps({"seen": seen, "got": [m.payload for m in got]}))
"""


def test_a_task_is_published_in_one_statement_committed_on_its_own(server_url: str) -> None:
    """A command that queues a bot's turn or the scoring answers after the publish: one insert in
    autocommit, where ``BEGIN``, the insert and ``COMMIT`` were three round trips."""
    with fresh_database(server_url) as database:
        url = f"{ALIAS}+{sqlalchemy_url(database)}"
        done = subprocess.run(
            [sys.executable, "-c", _PUBLISH, url, "kotlik"], cwd=ROOT, capture_output=True, timeout=60
        )
        assert done.returncode == 0, done.stderr.decode()
        published = json.loads(done.stdout.decode().splitlines()[-1])
    assert published == {"seen": [["INSERT", True]], "got": [{"first": 1}, {"second": 2}]}


#: Declares the queues and publishes, as a web process does, then prints the states of its
#: connections to the database.
_IDLE = """
import json, sys, psycopg
from kombu import Connection
from workers.broker import prepare
url, database, queue = sys.argv[1], sys.argv[2], sys.argv[3]
prepare(url, queue)
with Connection(url) as conn:
    conn.SimpleQueue(queue).put({"hello": "broker"})
    with psycopg.connect(database) as look:
        states = look.execute(
            "SELECT state FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
print(json.dumps(sorted({state for (state,) in states})))
"""


def test_a_process_that_declares_and_publishes_leaves_no_transaction_open(server_url: str) -> None:
    """kombu reads the queues through a session that nothing commits: a web process that only
    publishes kept a connection idle in a transaction, holding its locks on kombu's tables."""
    with fresh_database(server_url) as database:
        url = f"{ALIAS}+{sqlalchemy_url(database)}"
        done = subprocess.run(
            [sys.executable, "-c", _IDLE, url, database, "kotlik"], cwd=ROOT, capture_output=True, timeout=60
        )
        assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout.decode().splitlines()[-1]) == ["idle"]
