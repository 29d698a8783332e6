"""What a task carries from whoever queued it: the id of the request that caused it, and when it
was queued.

Publishing (Celery's ``before_task_publish``, in a web node or in a worker) adds two message
headers: ``request_id``, the :data:`workers.logs.REQUEST_ID` of the request being served, and
``published``, the wall-clock time. A worker sets :data:`workers.logs.REQUEST_ID` from the header
while the task runs (``task_prerun`` to ``task_postrun``), so the task's log lines carry the id of
the request whose answer had it in ``X-Request-Id`` — and so does every task the task queues in
turn: a bot's next turn, the scoring. A task re-sent by a sweep or a redrive carries none: no
request caused it.
"""

from __future__ import annotations

import time
from contextvars import Token
from typing import Any

from celery import signals

from workers.logs import GAME_ID, REQUEST_ID

#: The tasks whose first argument is a game's id.
_ABOUT_A_GAME = frozenset({"bots.play_turn", "bots.think", "scoring.score_game"})

#: The context tokens of the tasks running in this process, by task id, to reset at their end.
_running: dict[str, tuple[Token[str | None], Token[str | None]]] = {}


@signals.before_task_publish.connect
def _stamp(headers: dict[str, Any] | None = None, **_: Any) -> None:
    if headers is None:
        return
    request_id = REQUEST_ID.get()
    if request_id is not None and not headers.get("request_id"):
        headers["request_id"] = request_id
    headers.setdefault("published", time.time())


def header(task: Any, name: str) -> Any:
    """A header the task was published with (Celery gives them to the task as its request's
    attributes), or None."""
    return getattr(task.request, name, None)


@signals.task_prerun.connect
def _enter(task_id: str = "", task: Any = None, args: Any = None, **_: Any) -> None:
    game = str(args[0]) if task is not None and task.name in _ABOUT_A_GAME and args else None
    _running[task_id] = (REQUEST_ID.set(header(task, "request_id")), GAME_ID.set(game))


@signals.task_postrun.connect
def _leave(task_id: str = "", **_: Any) -> None:
    tokens = _running.pop(task_id, None)
    try:
        if tokens is not None:
            REQUEST_ID.reset(tokens[0])
            GAME_ID.reset(tokens[1])
            return
    except ValueError:  # ended in another context than it began in: nothing to restore there
        pass
    REQUEST_ID.set(None)
    GAME_ID.set(None)
