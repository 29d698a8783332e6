"""One open ``GET /games/{id}/stream``: when each version arrived.

The driver shares the server's two cores and reads a thousand streams, so a frame must cost it as
little as it can: each stream is an asyncio protocol on its own connection that notes the ``id:``
lines of whatever bytes arrive, stamped when they arrive, with no task woken, no chunk decoding
and no JSON. (Through aiohttp a frame cost the driver a task step and a copy per layer.)
"""

from __future__ import annotations

import asyncio
import re
import time
from urllib.parse import urlsplit

from livepath.client import TIMEOUT, Api
from livepath.keepalive import address, request_head

#: An event's id line, or the end of the stream. Each follows a newline: of the frame before, of
#: the chunk size, or of the head. Chunk framing never looks like either.
_LINE = re.compile(rb"\n(?:id: (\d+)|event: (end))(?=\n)")


class Stream:
    """Reads a server-sent-events stream until it ends, fails or is cancelled.

    ``status`` is "connecting", then the HTTP status (200 once open), "timeout" when no answer came
    within the client timeout, or "error:<kind>".
    """

    def __init__(self, api: Api, game_id: str, after: int) -> None:
        self.host, self.port = address(api.root)
        self.path = f"{urlsplit(api.root).path}/games/{game_id}/stream"
        self.game_id = game_id
        self.after = after
        self.status: int | str = "connecting"
        self.arrivals: dict[int, float] = {}
        #: When the request was sent, and when the head of the answer arrived.
        self.asked_at: float | None = None
        self.answered_at: float | None = None
        self.ended = False
        #: True once the stream is over for the client: ended, failed, or cancelled.
        self.closed = False
        self._news: set[asyncio.Future[None]] = set()

    async def run(self) -> None:
        target = f"{self.path}?after={self.after}"
        request = (request_head("GET", target, self.host, self.port) + "\r\n").encode()
        loop = asyncio.get_running_loop()
        reader = _Reader(self, loop)
        transport: asyncio.Transport | None = None
        try:
            async with asyncio.timeout(TIMEOUT):
                transport, _ = await loop.create_connection(lambda: reader, self.host, self.port)
                transport.write(request)
                self.asked_at = time.monotonic()
                await asyncio.shield(reader.answered)
            if self.status == 200:
                await asyncio.shield(reader.finished)
        except TimeoutError:
            self.status = "timeout"
        except OSError as e:
            self.status = f"error:{type(e).__name__}"
        finally:
            if transport is not None:
                transport.close()
            self.closed = True
            self._tell()

    def _tell(self) -> None:
        for waiter in self._news:
            if not waiter.done():
                waiter.set_result(None)
        self._news.clear()

    def heard(self, data: bytes, arrived: float) -> None:
        for found in _LINE.finditer(data):
            if found.group(1) is not None:
                self.arrivals[int(found.group(1))] = arrived
            else:
                self.ended = True
        if self._news:
            self._tell()

    async def first_after(self, version: int, timeout: float) -> tuple[int, float] | None:
        """The first version past ``version`` and its arrival; ``None`` if none came in time."""

        def beyond() -> bool:
            return (
                any(v > version for v in self.arrivals)
                or self.ended
                or self.status not in (200, "connecting")
            )

        try:
            async with asyncio.timeout(timeout):
                while not beyond():
                    news = asyncio.get_running_loop().create_future()
                    self._news.add(news)
                    await news
        except TimeoutError:
            return None
        later = [v for v in self.arrivals if v > version]
        return (min(later), self.arrivals[min(later)]) if later else None


class _Reader(asyncio.Protocol):
    """The bytes of one stream: the status line of its head, then its lines as they come. What
    ends in the middle of a line waits for the rest."""

    def __init__(self, stream: Stream, loop: asyncio.AbstractEventLoop) -> None:
        self.stream = stream
        self.answered: asyncio.Future[None] = loop.create_future()
        self.finished: asyncio.Future[None] = loop.create_future()
        self._buffer = b""

    def data_received(self, data: bytes) -> None:
        arrived = time.monotonic()
        data = self._buffer + data
        if not self.answered.done():
            if b"\r\n" not in data:
                self._buffer = data
                return
            status = data.split(b" ", 2)[1]
            self.stream.status = int(status) if status.isdigit() else "error:status"
            self.stream.answered_at = arrived
            self.answered.set_result(None)
            if self.stream.status != 200:
                return
        cut = data.rfind(b"\n")
        if cut < 0:
            self._buffer = data
            return
        self._buffer = data[cut:]  # keeps the newline a line found next begins with
        self.stream.heard(data[: cut + 1], arrived)
        if self.stream.ended and not self.finished.done():
            self.finished.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        for future in (self.answered, self.finished):
            if not future.done():
                future.set_result(None)
        if self.stream.status == "connecting":
            self.stream.status = "error:ServerDisconnected"
