"""The Celery application: bot turns, end-game scoring, turn clocks, webhooks, Web Push and the sweeps.

The broker is ``CELERY_BROKER_URL``, or by default the same PostgreSQL through kombu's
SQLAlchemy transport, so one database is all a single machine needs.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery

from commands import THINK
from events.database import database_url, sqlalchemy_url
from events.privileges import service_url
from projections.caches import Caches
from projections.push import SEND
from projections.webhooks import DELIVER
from workers import broker
from workers.logs import CLOCKS, LOBBY, REDRIVE, SWEEP, WEBHOOK_SWEEP, quiet_routine_sweeps
from workers.queues import games_queue, of_run

#: Seconds between outbox sweeps: the longest a bot turn waits if its relay was lost.
SWEEP_EVERY = 5.0
#: Seconds between looks for games stuck waiting on a worker (a task lost with its worker or broker).
REDRIVE_EVERY = 10.0
#: Seconds between looks at the turn clocks (``KOTLIK_CLOCK_EVERY``): the most a deadline is overrun.
CLOCK_EVERY = float(os.environ.get("KOTLIK_CLOCK_EVERY", "1"))
#: Seconds between looks for webhook retries that are due but whose task was lost.
WEBHOOK_SWEEP_EVERY = 30.0
#: Seconds between looks at the open games and the seeks (``KOTLIK_LOBBY_EVERY``): the most an
#: expiry or a bot fallback is late.
LOBBY_EVERY = float(os.environ.get("KOTLIK_LOBBY_EVERY", "2"))


def broker_url(database: str | None = None) -> str:
    """``CELERY_BROKER_URL``, else the database itself (see :mod:`workers.broker`), reached as the
    service role unless ``database`` names the connection."""
    configured = os.environ.get("CELERY_BROKER_URL")
    return configured or f"{broker.ALIAS}+{sqlalchemy_url(database or service_url(database_url()))}"


def _route(name: str, *args: Any, **kwargs: Any) -> dict[str, str] | None:
    """Webhook deliveries and Web Push messages, and searching bots' turns, go to their queues beside
    whatever games' queue the app is set to (a Celery router: the task's name, then what Celery adds)."""
    queues = of_run(app.conf.task_default_queue)
    if name in (DELIVER, SEND):
        return {"queue": queues.webhooks}
    if name == THINK:
        return {"queue": queues.search}
    return None


class KotlikCelery(Celery):
    """The Celery app, holding the worker process's caches, as a web app holds its own."""

    caches: Caches


app = KotlikCelery("kotlik", include=["workers.tasks"])
app.caches = Caches.sized()
# A promise, read when the app is first used: importing this module (every blueprint that hands
# work to the queue does) must not start the embedded database that the default broker lives in.
app.add_defaults(lambda: {"broker_url": broker_url()})
app.conf.update(
    task_ignore_result=True,
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    broker_connection_retry_on_startup=True,
    beat_schedule={
        "outbox-sweep": {"task": SWEEP, "schedule": SWEEP_EVERY},
        "redrive": {"task": REDRIVE, "schedule": REDRIVE_EVERY},
        "clocks": {"task": CLOCKS, "schedule": CLOCK_EVERY},
        "webhook-sweep": {"task": WEBHOOK_SWEEP, "schedule": WEBHOOK_SWEEP_EVERY},
        "lobby": {"task": LOBBY, "schedule": LOBBY_EVERY},
    },
    task_default_queue=games_queue(),
    task_routes=(_route,),
    worker_hijack_root_logger=False,
)
quiet_routine_sweeps()
