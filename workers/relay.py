"""Publishing work to the broker: right after a commit (:func:`publish`), by the periodic outbox
sweep (:func:`publish_unsent`), and again for games stalled on a lost task (:func:`redrive`).

This is the one module that hands tasks to the broker; the tasks themselves are
:mod:`workers.tasks`', and the web service publishes through here without importing them."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from psycopg import Connection

import commands
from events import outbox
from projections import lobby
from workers.app import app

log = logging.getLogger(__name__)

#: Give up quickly when the broker is down: the row stays in the outbox for the sweep.
_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}


def publish_task(task: str, args: list[Any]) -> None:
    """Hand one task to the broker by name, retrying briefly."""
    app.send_task(task, args=args, retry=True, retry_policy=_RETRY)


def publish(conn: Connection[Any], queued: Sequence[outbox.Queued]) -> None:
    """Publish what the caller has just committed; a broker outage leaves it to the sweep."""
    if not queued:
        return
    try:
        sent = outbox.publish(conn, queued, publish_task)
    except Exception:  # the commit is done; the sweep sends what is left
        log.warning("handing the outbox to the broker failed; the sweep will resend", exc_info=True)
        return
    if sent < len(queued):
        log.warning("the broker refused %d task(s); the sweep will resend", len(queued) - sent)


def publish_unsent(conn: Connection[Any]) -> int:
    """Publish what no process handed over after its commit (:func:`events.outbox.publish_unsent`)."""
    return outbox.publish_unsent(conn, publish_task)


def redrive(conn: Connection[Any], idle_seconds: float) -> int:
    """Publish again the tasks of games waiting on a worker for ``idle_seconds``; how many were sent.

    A task can die with a killed worker or an emptied broker after its outbox row was marked
    sent. Tasks carry the version they expect, so one that was only slow still runs once.
    """
    resent = 0
    for row in lobby.stalled(conn, idle_seconds):
        for task, args in commands.work_for(row):
            publish_task(task, args)
            resent += 1
    return resent
