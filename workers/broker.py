"""The default broker: kombu's SQLAlchemy transport on Kotlík's own PostgreSQL, woken by NOTIFY.

kombu polls a database queue (once a second by default), so every Celery hop of a bot's move
waited for the next poll. Here a trigger on the message table NOTIFYs at every insert and an idle
worker waits on that notification (:class:`Doorbell`), so it fetches a task as soon as it is
committed; the poll stays as a safety net. A fetched message is deleted rather than hidden (kombu
keeps every delivered row for ever), and workers skip the rows another is taking. Registered as
the transport alias ``kotlik-sqla``.

kombu creates its tables (and their sequences) lazily, in whichever process touches the broker
first. On a fresh database the web process, a worker and its beat all do so at once, and all but
one fail with a duplicate key in PostgreSQL's catalog, which kills the worker. So the tables are
created under an advisory lock, and ``kotlik up``/``worker``/``migrate`` :func:`prepare` them
before any of those processes starts.
"""

from __future__ import annotations

import json
import logging
import time
from queue import Empty
from typing import Any

import psycopg
from kombu import Connection
from kombu.transport import TRANSPORT_ALIASES, sqlalchemy
from kombu.transport.sqlalchemy.models import metadata
from kombu.utils.encoding import bytes_to_str
from kombu.utils.json import loads
from sqlalchemy import Engine, create_engine, make_url, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import NullPool

from workers import queues

log = logging.getLogger(__name__)

ALIAS = "kotlik-sqla"

#: Advisory lock key (``pg_advisory_xact_lock``) held while kombu's tables are created.
TABLES_LOCK = 0x6B6F746C696B01  # "kotlik" + 1
#: The channel a new message NOTIFYs, from a trigger on kombu's message table.
DOORBELL = "kotlik_tasks"

_RING = f"""
CREATE OR REPLACE FUNCTION kotlik_ring() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{DOORBELL}', '');
    RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER kotlik_ring AFTER INSERT ON kombu_message
    FOR EACH STATEMENT EXECUTE FUNCTION kotlik_ring();
"""
#: Whether the tables are made: the trigger comes last, in the same transaction.
_MADE = "SELECT EXISTS (SELECT FROM pg_trigger WHERE tgname = 'kotlik_ring' AND NOT tgisinternal)"


def create_tables(engine: Engine) -> None:
    """kombu's tables, created by at most one process at a time; a no-op once they exist."""
    if engine.dialect.name != "postgresql":
        metadata.create_all(engine)
        return
    with engine.begin() as conn:
        if conn.execute(text(_MADE)).scalar():
            return  # the service role, which may use the tables but not create them, stops here
        # CREATE TABLE/SEQUENCE has no IF NOT EXISTS in SQLAlchemy's create_all, which checks
        # first: two checks that both see nothing both create, and one fails. The lock makes the
        # second wait and then see the first one's committed tables.
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": TABLES_LOCK})
        metadata.create_all(conn)
        conn.execute(text(_RING))


class Channel(sqlalchemy.Channel):
    _queue_ids: dict[str, int]

    def _engine_from_config(self) -> Engine:
        # kombu calls metadata.create_all on this engine right after; with the tables already
        # made here under the lock, its call finds them all and creates nothing.
        engine: Engine = super()._engine_from_config()
        create_tables(engine)
        return engine

    def _get_or_create(self, queue: str) -> Any:
        try:
            return super()._get_or_create(queue)
        except IntegrityError:
            # Another process inserted the same queue between kombu's look-up and its insert
            # (kombu only forgives OperationalError); the row is there now.
            self.session.rollback()
            return super()._get_or_create(queue)

    def _queue_id(self, queue: str) -> int:
        ids = self.__dict__.setdefault("_queue_ids", {})
        if queue not in ids:
            ids[queue] = self._get_or_create(queue).id
            self._done_reading()
        return int(ids[queue])

    def _new_queue(self, queue: str, **kwargs: Any) -> None:
        super()._new_queue(queue, **kwargs)
        self._done_reading()

    def _size(self, queue: str) -> int:
        size = int(super()._size(queue))
        self._done_reading()
        return size

    def _done_reading(self) -> None:
        """End the transaction kombu's session began to read the queues. Nothing else would: a
        process that only publishes (or only declared its queues, as ``prepare`` does) kept a
        connection idle in a transaction for good, holding its locks on kombu's tables."""
        if self.session.in_transaction():
            self.session.commit()

    # kombu's virtual channel and its SQLAlchemy channel name the message differently.
    def _put(self, queue: str, message: Any, **kwargs: Any) -> None:  # type: ignore[override]
        """Insert the message with one statement, committed on its own: one round trip.

        kombu's own insert goes through the ORM and looks the queue up first, costing the sender
        more CPU a task than a web process spends on a whole command (figures: docs/performance.md,
        "Both workers at work, and less around each command"). Through the session it was still
        three round trips (``BEGIN``, the insert, ``COMMIT``), all of them in the answer of a
        command that queues a bot's turn or the scoring.
        """
        queue_id = self._queue_id(queue)
        engine, _ = self._open()
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(
                text(
                    f"INSERT INTO {self.message_tablename} (id, visible, payload, version, queue_id) "
                    "VALUES (nextval('message_id_sequence'), true, :payload, 1, :queue)"
                ),
                {"payload": json.dumps(message), "queue": queue_id},
            )

    def _get(self, queue: str, timeout: Any = None) -> Any:
        """Take the oldest message: deleted, not hidden, and never one another worker is taking.

        Once fetched, kombu keeps an unacknowledged message in the worker's memory and puts it
        back itself if the task is rejected, so the row has served its purpose.
        """
        try:
            row = self.session.execute(
                text(
                    f"DELETE FROM {self.message_tablename} WHERE id = ("
                    f"SELECT id FROM {self.message_tablename} WHERE queue_id = :queue AND visible "
                    "ORDER BY timestamp, id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING payload"
                ),
                {"queue": self._queue_id(queue)},
            ).first()
        finally:
            self.session.commit()
        if row is None:
            raise Empty()
        return loads(bytes_to_str(row.payload))


class Doorbell:
    """A LISTEN connection that an idle worker waits on instead of sleeping between polls."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self._conn: psycopg.Connection[Any] | None = None

    def wait(self, timeout: float) -> None:
        """Return when a message may have arrived, or after ``timeout`` seconds."""
        try:
            if self._conn is None or self._conn.closed:
                self._conn = psycopg.connect(self.url, autocommit=True)
                self._conn.execute(f"LISTEN {DOORBELL}")
                return  # anything sent before LISTEN took effect is found by the next poll
            for _ in self._conn.notifies(timeout=timeout, stop_after=1):
                pass
            for _ in self._conn.notifies(timeout=0):  # the rest of a burst rang for the same look
                pass
        except psycopg.Error:
            log.warning("the broker's doorbell lost the database; polling meanwhile")
            self._conn = None
            time.sleep(timeout)


#: Seconds a worker whose prefetch slots are all taken pauses before letting Celery send its acks.
ACK_BREATH = 0.002


class Transport(sqlalchemy.Transport):
    Channel = Channel
    #: Only a safety net: a new message rings the doorbell.
    polling_interval = 1.0
    cycle: Any
    client: Any
    channels: Any

    def drain_events(self, connection: Any, timeout: float | None = None, **kwargs: Any) -> None:
        """kombu's loop, with the sleep between empty polls replaced by a wait for the doorbell.

        While every prefetch slot holds an unacknowledged task there is nothing to wait for here:
        Celery's loop sends the acknowledgements between calls, so the call ends at once (after a
        breath) and lets it; waiting on the doorbell then would stall a busy worker a second a task.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                self.cycle.get(self._deliver, timeout=timeout)
                return
            except Empty:
                if not any(channel.qos.can_consume() for channel in self.channels):
                    time.sleep(ACK_BREATH)
                    if timeout is not None:
                        raise TimeoutError() from None
                    continue
                remaining = self.polling_interval if deadline is None else deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError() from None
                self._doorbell().wait(min(remaining, self.polling_interval))

    def _doorbell(self) -> Doorbell:
        bell = self.__dict__.get("_bell")
        if bell is None:
            bell = self.__dict__["_bell"] = Doorbell(self.client.hostname)
        return bell


TRANSPORT_ALIASES[ALIAS] = f"{__name__}:Transport"


def is_default(url: str) -> bool:
    """Whether ``url`` names this transport (the database itself) rather than Redis or RabbitMQ."""
    return url.startswith(f"{ALIAS}+")


def prepare(url: str, queue: str) -> None:
    """Create the tables and declare the games' ``queue`` and the queues beside it now, before
    workers and web processes race to.

    Only the default broker needs it: Redis and RabbitMQ create what they need atomically.
    """
    if not is_default(url):
        return
    with Connection(url) as conn:
        for name in queues.of_run(queue):
            conn.default_channel.queue_declare(queue=name)


def check(url: str, timeout: float = 2.0) -> None:
    """Raise unless the broker answers within about ``timeout`` seconds (for ``/ready``)."""
    if is_default(url):
        _check_database(url.removeprefix(f"{ALIAS}+"), timeout)
        return
    options = {"socket_connect_timeout": timeout, "socket_timeout": timeout}  # Redis's names
    with Connection(url, connect_timeout=timeout, transport_options=options) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=timeout)


def _check_database(database: str, timeout: float) -> None:
    # A throwaway engine rather than kombu's cached one, so the probe's timeouts are its own.
    # Missing tables are no fault: the transport creates them when it is first used.
    engine = create_engine(
        database,
        poolclass=NullPool,
        connect_args={
            "connect_timeout": max(1, round(timeout)),
            "options": f"-c statement_timeout={int(timeout * 1000)}",
        },
    )
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    finally:
        engine.dispose()
