"""The web processes' gunicorn worker: gevent's, taking every connection that waits at once.

When several workers share one listening socket, gunicorn has each accept one connection per
wake-up, so that a busy worker does not take a burst that an idle one could serve. ``kotlik web``
gives each worker a socket of its own (``SO_REUSEPORT``): the kernel has already chosen the
worker, and one connection per wake-up only made a burst wait a turn of the busy event loop per
connection. The twenty streams a game's watchers open together waited up to two seconds to be
accepted under load (p50 1.0 s, p99 2.1 s, against 0.2 and 1.2 s here).
"""

from __future__ import annotations

import socket
from typing import Any

from gevent.server import StreamServer
from gunicorn.workers import ggevent


class BurstServer(StreamServer):  # type: ignore[misc]
    """gevent's stream server, accepting as many waiting connections per wake-up as gevent's
    default allows, whatever gunicorn sets."""

    @property
    def max_accept(self) -> int:
        return int(StreamServer.max_accept)

    @max_accept.setter
    def max_accept(self, value: int) -> None:
        """gunicorn's one-at-a-time for a shared socket; this worker's socket is its own."""


class Worker(ggevent.GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker; on a socket of its own, it serves it with :class:`BurstServer`."""

    def run(self) -> Any:
        if self.cfg.reuse_port and hasattr(socket, "SO_REUSEPORT"):  # as gunicorn's arbiter asks
            ggevent.StreamServer = BurstServer  # gunicorn makes its servers in run(), by this name
        return super().run()
