"""What a worker node is doing, for an operator: its tasks counted and timed, served in the
Prometheus text format at ``GET /metrics`` on a port of the worker's own.

The figures (names in ``docs/scaling.md``): tasks run, by name and outcome (``success``;
``no effect``, a task that found nothing to do — a duplicate, a turn already played, a webhook
attempt that failed and is scheduled again; ``retry``; ``failure``); seconds a task ran, by name
(a bot's turn, a webhook delivery); seconds from a task's publishing to its start (the queue's
wait, from the publisher's clock: across machines only as good as their clocks agree).

Off unless ``KOTLIK_WORKER_METRICS_PORT`` is set: then the worker that takes the games' queue
serves ``http://KOTLIK_WORKER_METRICS_HOST:PORT/metrics`` (host ``127.0.0.1`` unless given),
under the web nodes' rule: ``Authorization: Bearer $KOTLIK_METRICS_TOKEN``, 401 without it, 404
for anything else, and no server at all without a token. The tasks run in Celery's pool processes,
so the figures go through prometheus-client's multiprocess mode: ``PROMETHEUS_MULTIPROC_DIR``, or
a folder made here before prometheus-client is first imported. ``kotlik worker`` gives its two
Celery workers (the games' and the webhooks') one folder, so one scrape has both.
"""

from __future__ import annotations

import hmac
import logging
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

PORT = "KOTLIK_WORKER_METRICS_PORT"
HOST = "KOTLIK_WORKER_METRICS_HOST"


def _folder() -> None:
    """Multiprocess mode for a worker that serves its metrics: chosen by prometheus-client when it is
    imported, and a pool's figures are only summed in it."""
    chosen = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if os.environ.get(PORT) and not chosen and "prometheus_client" not in sys.modules:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="kotlik-worker-metrics-")


_folder()

from celery import signals  # noqa: E402 - after the folder is chosen
from prometheus_client import (  # noqa: E402
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

from workers.traced import header  # noqa: E402

log = logging.getLogger(__name__)

TASKS = Counter("kotlik_tasks", "Celery tasks run, by name and outcome", ["task", "outcome"])
TASK_SECONDS = Histogram(
    "kotlik_task_seconds",
    "Seconds a task ran",
    ["task"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
QUEUE_SECONDS = Histogram(
    "kotlik_task_queue_seconds",
    "Seconds from a task's publishing to its start",
    ["task"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)

#: When each task running in this process began, by task id.
_started: dict[str, float] = {}


@signals.task_prerun.connect
def _began(task_id: str = "", task: Any = None, **_: Any) -> None:
    _started[task_id] = time.perf_counter()
    published = header(task, "published")
    if task is not None and isinstance(published, (int, float)):
        QUEUE_SECONDS.labels(task.name).observe(max(0.0, time.time() - published))


@signals.task_postrun.connect
def _ended(
    task_id: str = "", task: Any = None, retval: Any = None, state: str | None = None, **_: Any
) -> None:
    began = _started.pop(task_id, None)
    if task is None:
        return
    if began is not None:
        TASK_SECONDS.labels(task.name).observe(time.perf_counter() - began)
    TASKS.labels(task.name, outcome(state, retval)).inc()


def outcome(state: str | None, retval: Any) -> str:
    """A finished task's outcome label, from Celery's state and the task's result."""
    if state == "SUCCESS":
        return "no effect" if retval is None or retval is False else "success"
    return (state or "unknown").lower()


def exposition() -> bytes:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest(REGISTRY)


def metrics_app(secret: str) -> Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]:
    """``GET /metrics`` for ``Authorization: Bearer <secret>``; 401 without it, 404 elsewhere."""

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != "/metrics" or environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not found\n"]
        given = environ.get("HTTP_AUTHORIZATION", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {secret}".encode()):
            start_response(
                "401 Unauthorized",
                [("Content-Type", "text/plain"), ("WWW-Authenticate", 'Bearer realm="metrics"')],
            )
            return [b"GET /metrics needs Authorization: Bearer $KOTLIK_METRICS_TOKEN\n"]
        start_response("200 OK", [("Content-Type", CONTENT_TYPE_LATEST)])
        return [exposition()]

    return app


class _Quiet(WSGIRequestHandler):
    """A scrape every few seconds is not news for the worker's log."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Threaded(WSGIServer):
    daemon_threads = True


def serve(port: int, host: str, secret: str) -> WSGIServer:
    """The metrics server, answering in a thread of its own; the caller may ``shutdown()`` it."""
    server = make_server(host, port, metrics_app(secret), server_class=_Threaded, handler_class=_Quiet)
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    return server


@signals.worker_ready.connect
def _serve(sender: Any = None, **_: Any) -> None:
    """In the worker that takes the games' queue, once it is ready, if a port is configured."""
    port = os.environ.get(PORT)
    if not port or sender is None:
        return
    app = sender.app
    if app.conf.task_default_queue not in app.amqp.queues.consume_from:
        return  # the webhooks' worker: its figures are in the folder the games' worker serves
    secret = os.environ.get("KOTLIK_METRICS_TOKEN")
    if not secret:
        log.warning("%s is set but KOTLIK_METRICS_TOKEN is not: the worker serves no metrics", PORT)
        return
    host = os.environ.get(HOST, "127.0.0.1")
    serve(int(port), host, secret)
    log.info("metrics at http://%s:%s/metrics", host, port)


@signals.worker_process_shutdown.connect
def _forget(pid: int | None = None, **_: Any) -> None:
    """A pool process that ends no longer counts in the live gauges (multiprocess mode)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(pid or os.getpid())
