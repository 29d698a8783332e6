"""The web worker accepts, in one wake-up, every connection waiting on its own socket."""

from __future__ import annotations

import socket
from typing import Any

import gevent
from gevent import socket as green
from gevent.server import StreamServer

from service.webworker import BurstServer

BURST = 20


class _Counting(BurstServer):
    """Notes how many connections had been accepted when the first one was handled."""

    def __init__(self, listener: Any) -> None:
        super().__init__(listener, handle=self._handled)
        self.accepted = 0
        self.seen_first: int | None = None
        self.handled = 0

    def do_read(self) -> Any:
        taken = super().do_read()
        self.accepted += taken is not None
        return taken

    def _handled(self, client: Any, address: Any) -> None:
        if self.seen_first is None:
            self.seen_first = self.accepted
        self.handled += 1
        client.close()


def test_a_burst_is_accepted_in_one_wake_up_whatever_gunicorn_sets() -> None:
    """gunicorn sets ``max_accept = 1`` for several workers (meant for a shared socket): each
    connection of a burst then waited a turn of a busy event loop. Here the handlers start only
    after the whole burst is in."""
    listener = green.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(BURST * 2)
    server = _Counting(listener)
    server.max_accept = 1
    clients = [socket.create_connection(listener.getsockname(), timeout=10) for _ in range(BURST)]
    try:
        server.start()
        with gevent.Timeout(10):
            while server.handled < BURST:
                gevent.sleep(0.01)
    finally:
        server.stop()
        for client in clients:
            client.close()
    assert server.seen_first == BURST
    assert server.max_accept == StreamServer.max_accept > 1
