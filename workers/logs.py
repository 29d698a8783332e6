"""The worker's log keeps to what happened: a sweep that finds nothing to re-send is not news.

The sweeps (the outbox's, and the one for games stuck waiting on a worker) run every few seconds;
Celery would log three lines for each run (beat sending it, the worker receiving it, its success).
Those lines are dropped; a sweep that does re-send something says so itself, as a warning.
"""

from __future__ import annotations

import logging

SWEEP = "outbox.sweep"
REDRIVE = "games.redrive"
#: The turn clocks' tick (warnings, expiries) and the sweep of webhook retries whose task was lost.
CLOCKS = "clocks.tick"
WEBHOOK_SWEEP = "webhooks.sweep"
#: Open games that waited too long, and seeks that expired or whose bot fallback is due.
LOBBY = "lobby.tick"
SWEEPS = frozenset({SWEEP, REDRIVE, CLOCKS, WEBHOOK_SWEEP, LOBBY})
#: Where Celery logs a task's receipt, its success and beat's sending of it.
_CELERY_LOGGERS = ("celery.worker.strategy", "celery.app.trace", "celery.beat")


class RoutineSweep(logging.Filter):
    """Refuses Celery's INFO records about the sweep tasks; lets everything else through."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        args = record.args
        if isinstance(args, dict):
            return args.get("name") not in SWEEPS
        return not (isinstance(args, tuple) and SWEEPS.intersection(args))


def quiet_routine_sweeps() -> None:
    for name in _CELERY_LOGGERS:
        logging.getLogger(name).addFilter(RoutineSweep())
