"""gunicorn's hooks for ``kotlik web`` (``--config python:service.server.hooks``)."""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from service.server import metrics
from workers.logs import json_web_node


class JsonLogger(Logger):
    """gunicorn's logger, its lines and the app's as JSON lines unless ``KOTLIK_LOG_FORMAT`` (or a
    terminal) says text; the web processes, forked after, inherit its handlers."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        json_web_node()


logger_class = JsonLogger


def child_exit(server: Any, worker: Any) -> None:
    """A dead web process's open streams and waits no longer count in the metrics."""
    metrics.forget_process(worker.pid)
