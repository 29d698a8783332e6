"""gunicorn's hooks for ``kotlik web`` (``--config python:service.server.hooks``)."""

from __future__ import annotations

from typing import Any

from service.server import metrics


def child_exit(server: Any, worker: Any) -> None:
    """A dead web process's open streams and waits no longer count in the metrics."""
    metrics.forget_process(worker.pid)
