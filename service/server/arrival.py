"""How long a request may take to arrive, and how many of one address's connections may wait for
theirs at once.

gunicorn bounds the wait for a request's head (its keep-alive timeout, a couple of seconds) but not
for its body: a client that sent ``Content-Length: 10`` and then nothing held its connection, a
greenlet and a place among the worker's connections for ever, and a few thousand such clients
from one address took a web process's every place. So here:

- the whole request, head and body, must have arrived within ``KOTLIK_REQUEST_TIMEOUT`` seconds
  of the moment the server began to wait for it (the connection's accept, or the end of the
  previous answer on a keep-alive connection). A body read past that ends in :class:`BodyTimeout`,
  which the app answers as a 408 problem (the worker writes one itself if the error comes from
  beneath the app), and the connection is closed after it;
- a connection whose request's head has come without all of its body is *waiting* until the body
  has all been read. One address may hold ``KOTLIK_WAITING_PER_ADDRESS`` waiting connections in a
  web process; a request past that is answered 429 at once, its body unread, and its connection
  closed. A client sends a body with its head, so its requests wait only while the app reads a
  body already here: they are counted for no more than that.

A connection that sends nothing at all is gunicorn's: it closes it once its keep-alive timeout
(two seconds) has passed without a request's head. Streams and long-polls are requests without a
body whose answers take long, so neither bound touches them. Behind reverse proxies
(``KOTLIK_PROXIES``) every connection comes from a proxy, so the count per address is off unless
``KOTLIK_WAITING_PER_ADDRESS`` is set; the proxy is then the place to bound its clients.
"""

from __future__ import annotations

import os
from collections import Counter
from time import monotonic
from typing import Any

import gevent
from werkzeug.exceptions import RequestTimeout

from service.server import settings

#: Seconds a request's head and body together may take to arrive, unless ``KOTLIK_REQUEST_TIMEOUT``
#: says otherwise. A command or a new game is a few hundred bytes, sent at once.
REQUEST_TIMEOUT = 10
#: Connections one address may hold waiting for their requests in one web process, unless
#: ``KOTLIK_WAITING_PER_ADDRESS`` says otherwise: a browser opens a handful, and a request's
#: wait lasts milliseconds, so even a crowd behind one NAT rarely holds a few dozen at once.
WAITING_PER_ADDRESS = 100


class BodyTimeout(RequestTimeout):
    """The request's body did not arrive in time (HTTP 408)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the request did not arrive within {seconds:g} s (KOTLIK_REQUEST_TIMEOUT)")


def refusal(status: int, title: str, detail: str, headers: dict[str, str]) -> bytes:
    """A whole HTTP/1.1 answer, problem details, closing the connection: for a client the app
    never sees."""
    body = (f'{{"type":"about:blank","title":"{title}","status":{status},"detail":"{detail}"}}').encode()
    head = [f"HTTP/1.1 {status} {title}", "Content-Type: application/problem+json"]
    head += [f"Content-Length: {len(body)}", "Connection: close"]
    head += [f"{name}: {value}" for name, value in headers.items()]
    return "\r\n".join(head).encode() + b"\r\n\r\n" + body


class Arrivals:
    """This web process's connections: when each began to wait for its request, and, per address,
    those whose request's body is still to come."""

    def __init__(self, timeout: float, per_address: int | None) -> None:
        self.timeout = timeout
        self.per_address = per_address
        self.waiting: Counter[str] = Counter()
        #: Each connection's address, and when it began to wait for its request.
        self._since: dict[Any, float] = {}
        #: The connections counted in :attr:`waiting`, with their address.
        self._counted: dict[Any, str] = {}

    @classmethod
    def from_environment(cls) -> Arrivals:
        timeout = settings.positive({}, "KOTLIK_REQUEST_TIMEOUT", REQUEST_TIMEOUT, "seconds")
        chosen = os.environ.get("KOTLIK_WAITING_PER_ADDRESS")
        proxied = os.environ.get("KOTLIK_PROXIES", "0").strip() not in ("", "0")
        per_address = None if proxied and chosen is None else WAITING_PER_ADDRESS
        if chosen is not None:
            per_address = settings.positive(
                {}, "KOTLIK_WAITING_PER_ADDRESS", WAITING_PER_ADDRESS, "connections"
            )
        return cls(timeout, per_address)

    def opened(self, connection: Any) -> None:
        """A new connection: the wait for its first request begins."""
        self._since[connection] = monotonic()

    def admit(self, connection: Any, address: str) -> bool:
        """Count the connection as waiting for its request's body; False, uncounted, if its
        address already holds its share of such connections."""
        if self.per_address is not None and self.waiting[address] >= self.per_address:
            return False
        self.waiting[address] += 1
        self._counted[connection] = address
        return True

    def too_many(self) -> bytes:
        """The answer to a request :meth:`admit` refused."""
        detail = (
            f"this address holds {self.per_address} connections whose requests have not arrived "
            "(KOTLIK_WAITING_PER_ADDRESS); send each request's body with its head"
        )
        return refusal(429, "Too Many Requests", detail, {"Retry-After": f"{self.timeout:g}"})

    def deadline(self, connection: Any) -> float:
        """When the request the connection is waiting for must have arrived."""
        return self._since.get(connection, monotonic()) + self.timeout

    def arrived(self, connection: Any) -> None:
        """The connection's request has all arrived: it waits no more."""
        address = self._counted.pop(connection, None)
        if address is not None:
            self.waiting[address] -= 1
            if self.waiting[address] <= 0:
                del self.waiting[address]

    def answered(self, connection: Any) -> None:
        """The connection's answer is sent: the wait for its next request begins."""
        self.arrived(connection)
        self._since[connection] = monotonic()

    def closed(self, connection: Any) -> None:
        self.arrived(connection)
        self._since.pop(connection, None)

    def timed(self, body: Any, connection: Any, on_timeout: Any) -> TimedBody:
        """``body`` (gunicorn's reader of the request's body) read by its deadline."""
        return TimedBody(body, self, connection, on_timeout)


class TimedBody:
    """A request's body whose every read ends by the request's deadline, and which tells the
    :class:`Arrivals` when the body has all been read."""

    __slots__ = ("_body", "_arrivals", "_connection", "_on_timeout", "_deadline")

    def __init__(self, body: Any, arrivals: Arrivals, connection: Any, on_timeout: Any) -> None:
        self._body = body
        self._arrivals = arrivals
        self._connection = connection
        self._on_timeout = on_timeout
        self._deadline = arrivals.deadline(connection)

    def read(self, size: int | None = None) -> bytes:
        return self._timed(self._body.read, size)

    def readline(self, size: int | None = None) -> bytes:
        return self._timed(self._body.readline, size)

    def readlines(self, size: int | None = None) -> list[bytes]:
        lines: list[bytes] = self._timed(self._body.readlines, size)
        return lines

    def __iter__(self) -> TimedBody:
        return self

    def __next__(self) -> bytes:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def _timed(self, read: Any, size: int | None) -> Any:
        timer = gevent.Timeout(max(self._deadline - monotonic(), 0.0))
        timer.start()
        try:
            data = read(size)
        except gevent.Timeout as error:
            if error is not timer:
                raise
            self._on_timeout()
            raise BodyTimeout(self._arrivals.timeout) from None
        finally:
            timer.close()
        if self._ended():
            self._arrivals.arrived(self._connection)
        return data

    def _ended(self) -> bool:
        """Whether the whole body has come off the socket (gunicorn's readers count it down)."""
        reader = self._body.reader
        length = getattr(reader, "length", None)
        if length is not None:
            return bool(length == 0)
        return getattr(reader, "parser", True) is None  # a chunked body's parser, once it ends
