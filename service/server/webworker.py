"""The web processes' gunicorn worker: gevent's, taking every connection that waits at once and
writing a short answer in one piece.

When several workers share one listening socket, gunicorn has each accept one connection per
wake-up, so that a busy worker does not take a burst that an idle one could serve. ``kotlik web``
gives each worker a socket of its own (``SO_REUSEPORT``): the kernel has already chosen the
worker, and one connection per wake-up only made a burst wait a turn of the busy event loop per
connection, so the streams a game's watchers open together were accepted late under load (figures:
docs/performance.md, "Figures formerly quoted in the code").

gunicorn writes a response's head and its body with a ``sendall`` each, and gevent's asks the
kernel for the socket's buffer size before each: every short answer (a command's 201, a
long-poll's state) cost four system calls and reached the client as two segments, each waking
it. The worker hands gunicorn the client's socket as :class:`ResponseSocket`, which sends the head
together with what follows it, in one plain send.

gunicorn reads its settings many times a request, each read a lookup by name; once forked, the
worker reads them through :class:`SettledConfig`, which keeps what it has read.

Each request must arrive in time, and one address may hold only so many connections waiting for
theirs (:mod:`service.server.arrival`).
"""

from __future__ import annotations

import re
import socket
from functools import partial
from typing import Any

from gevent.server import StreamServer
from gunicorn.workers import ggevent

from service.server.arrival import Arrivals, BodyTimeout, refusal
from service.server.balance import ConnectionTable


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
    """gunicorn's gevent worker; on a socket of its own, it serves it with :class:`BurstServer`,
    keeps its share of the connections (:mod:`service.server.balance`), and it writes each response
    through a :class:`ResponseSocket`, reading its settings through a :class:`SettledConfig`; each
    request's arrival is bounded (:class:`service.server.arrival.Arrivals`)."""

    #: The workers' connections, when each has a socket of its own (made in the master).
    table: ConnectionTable | None = None
    #: gunicorn's settings: its ``Config`` in the master, a :class:`SettledConfig` once forked.
    cfg: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # in gunicorn's master, before the fork
        self.arrivals = Arrivals.from_environment()
        if Worker.table is None and self.cfg.reuse_port and self.cfg.workers > 1:
            Worker.table = ConnectionTable()

    def init_process(self) -> None:
        self.cfg = SettledConfig(self.cfg)
        if self.table is not None:
            self.table.join()
        super().init_process()

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        self.arrivals.opened(client)
        try:
            if self.table is None:
                return super().handle(listener, client, addr)
            self.table.opened()
            try:
                super().handle(listener, client, addr)
            finally:
                self.table.closed(client)
        finally:
            self.arrivals.closed(client)

    def handle_request(self, listener_name: str, req: Any, sock: Any, addr: Any) -> Any:
        if self.table is not None and self.table.let_go(sock):
            req.must_close = True  # gunicorn answers with ``Connection: close`` and closes
        body = req.body
        if not _body_here(req):
            address = addr[0] if isinstance(addr, tuple) else str(addr)
            if not self.arrivals.admit(sock, address):
                _refuse(sock, self.arrivals.too_many())
                raise StopIteration
            req.body = self.arrivals.timed(body, sock, partial(setattr, req, "must_close", True))
        response = ResponseSocket(sock)
        try:
            return super().handle_request(listener_name, req, response, addr)
        except BodyTimeout:  # from beneath the app, before it answered: the answer is the worker's
            response.flush()
            detail = BodyTimeout(self.arrivals.timeout).description or ""
            _refuse(sock, refusal(408, "Request Timeout", detail, {}))
            raise StopIteration from None
        finally:
            response.flush()
            req.body = body  # what is left of it is gunicorn's to skip, under its keep-alive timeout
            self.arrivals.answered(sock)

    def run(self) -> Any:
        if self.cfg.reuse_port and hasattr(socket, "SO_REUSEPORT"):  # as gunicorn's arbiter asks
            ggevent.StreamServer = BurstServer  # gunicorn makes its servers in run(), by this name
        return super().run()


def _body_here(req: Any) -> bool:
    """Whether the request's body (if it has one) has all come off the socket already: read with
    its head, as a client sends it. A chunked body is counted as still to come."""
    reader = req.body.reader
    length = getattr(reader, "length", None)
    if length is None:
        return False
    if length == 0:
        return True
    with reader.unreader.buf.getbuffer() as buffered:
        return bool(buffered.nbytes >= length)


def _refuse(client: Any, answer: bytes) -> None:
    """Send ``answer`` to a client the app never sees, and close the connection."""
    try:
        client.sendall(answer)
    except OSError:
        pass  # it went away first
    finally:
        client.close()


class SettledConfig:
    """gunicorn's settings as a forked worker reads them: each looked up once.

    gunicorn's ``Config`` finds a setting by name at every read, once Python's own lookup has
    failed (``__getattr__``), and a request reads about 25 (its limits, the forwarded headers'
    trust, the hooks, keep-alive). Nothing changes the settings of a running worker: a reload
    forks new ones.
    """

    def __init__(self, config: Any) -> None:
        self._config = config

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._config, name)
        setattr(self, name, value)
        return value


class ResponseSocket:
    """A client's socket while gunicorn writes one response to it: the head is held back and goes
    out with the next write, or when the request is done (:meth:`flush`). Every write is a send.

    A chunked head (a stream's) is sent at once: its first chunk may come much later.
    """

    __slots__ = ("_socket", "_head", "_started")

    def __init__(self, client: Any) -> None:
        self._socket = client
        self._head = b""
        self._started = False

    def sendall(self, data: bytes) -> None:
        if not self._started:
            self._started = True
            if not _CHUNKED.search(data):
                self._head = bytes(data)
                return
        if self._head:
            data, self._head = self._head + data, b""
        self._send(data)

    def sendfile(self, file: Any, offset: int = 0, count: int | None = None) -> int:
        self.flush()
        return int(self._socket.sendfile(file, offset, count))

    def shutdown(self, how: int) -> None:
        """gunicorn gives up on a response that failed after its head: the head goes nowhere."""
        self._head = b""
        self._socket.shutdown(how)

    def flush(self) -> None:
        """Send a head still held (a response with no body)."""
        if self._head:
            head, self._head = self._head, b""
            self._send(head)

    def _send(self, data: bytes) -> None:
        """``sendall`` as plain sends: gevent's own asks the kernel for the socket's buffer size
        before every write, to cut large payloads into pieces (for PyPy); an answer is small."""
        view = memoryview(data)
        while view:
            view = view[self._socket.send(view) :]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._socket, name)


_CHUNKED = re.compile(rb"\r\ntransfer-encoding:[^\r]*chunked", re.IGNORECASE)
