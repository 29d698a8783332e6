"""What the logs keep, and in what form.

The worker's log keeps to what happened: a sweep that finds nothing to re-send is not news. The
sweeps (the outbox's, and the one for games stuck waiting on a worker) run every few seconds;
Celery would log three lines for each run (beat sending it, the worker receiving it, its success).
Those lines are dropped; a sweep that does re-send something says so itself, as a warning.

The form (``KOTLIK_LOG_FORMAT``): ``json`` writes one JSON object a line (:class:`JsonLines`), for
a log collector; ``text`` writes lines for a person. Unset, a process whose standard error is a
terminal writes text and any other (a service manager's journal, a container's log) JSON. Each JSON
line carries the id of the request it serves (:data:`REQUEST_ID`: the web node's ``X-Request-Id``,
which a task inherits from the request that queued it) and the game's id where it is known.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Mapping
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, TextIO

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


#: The request a log line serves: set by the web node for each request, and by a worker for each
#: task from the id the task was published with (:mod:`workers.traced`).
REQUEST_ID: ContextVar[str | None] = ContextVar("kotlik_request_id", default=None)
#: The game a request or a task is about, where its path or its arguments name one.
GAME_ID: ContextVar[str | None] = ContextVar("kotlik_game_id", default=None)

FORMATS = ("json", "text")


def log_format(env: Mapping[str, str] = os.environ, stream: TextIO | None = None) -> str:
    """``KOTLIK_LOG_FORMAT``, else ``text`` on a terminal and ``json`` anywhere else."""
    chosen = env.get("KOTLIK_LOG_FORMAT", "").strip().lower()
    if chosen:
        if chosen not in FORMATS:
            raise ValueError(f"KOTLIK_LOG_FORMAT must be one of {', '.join(FORMATS)}, not {chosen!r}")
        return chosen
    stream = sys.stderr if stream is None else stream
    try:
        return "text" if stream.isatty() else "json"
    except (AttributeError, ValueError):  # a closed or replaced stream
        return "json"


#: The attributes of a record (``logging``'s ``extra``) copied into its JSON line when present.
FIELDS = ("method", "path", "status", "duration", "task", "task_id", "outcome")


class JsonLines(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, the
    ``request_id`` and ``game_id`` of the request or task it serves, the fields of :data:`FIELDS`
    a record carries, and a traceback as ``exc_info``."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or REQUEST_ID.get(),
        }
        game = getattr(record, "game_id", None) or GAME_ID.get()
        if game:
            line["game_id"] = game
        for name in FIELDS:
            if (value := getattr(record, name, None)) is not None:
                line[name] = value
        if line.get("task") is None:
            line.update(_current_task())
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def _current_task() -> dict[str, str]:
    """The task the record was logged in, if any (Celery's own lines name it only in their text)."""
    from celery import current_task

    task = current_task._get_current_object() if current_task else None
    if task is None or task.request.id is None:
        return {}
    return {"task": task.name, "task_id": task.request.id}


def json_everywhere(loggers: list[logging.Logger]) -> None:
    """Every handler of ``loggers`` formats JSON lines (Celery's, once it has made them)."""
    for logger in loggers:
        for handler in logger.handlers:
            handler.setFormatter(JsonLines())


def json_lines() -> None:
    """In a worker whose log format is ``json``, Celery's handlers (its own lines and its task
    lines) write JSON lines once Celery has set them up."""
    if log_format() != "json":
        return
    from celery import signals

    # Python's warnings (Celery's about running as root, say) come before Celery's handlers exist
    logging.captureWarnings(True)
    warned = logging.getLogger("py.warnings")
    if not warned.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(JsonLines())
        warned.addHandler(handler)
        warned.propagate = False

    def formatted(logger: logging.Logger | None = None, **_: Any) -> None:
        if logger is not None:
            json_everywhere([logger])

    signals.after_setup_logger.connect(formatted, weak=False)
    signals.after_setup_task_logger.connect(formatted, weak=False)


def json_web_node() -> None:
    """In a web node whose log format is ``json``: gunicorn's own lines and the app's (the root
    logger's, at INFO) as JSON lines on standard error. gunicorn's access log stays off (a
    ``logconfig_dict`` would turn it on): the app writes its own lines, with the request's id."""
    if log_format() != "json":
        return
    json_everywhere([logging.getLogger("gunicorn.error")])
    root = logging.getLogger()
    if not any(isinstance(h.formatter, JsonLines) for h in root.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(JsonLines())
        root.addHandler(handler)
    root.setLevel(logging.INFO)
