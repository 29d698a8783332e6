"""One keep-alive HTTP/1.1 connection on raw asyncio streams, for the watchers' long-polls.

A long-poll's answer matters to the driver only by its status and ``ETag``, and 500 of them are
answered about ten times per command. Through aiohttp each cost the driver about 0.08 ms of CPU,
on the two cores it shares with the server it measures. The server sees the same requests either
way: a GET with a ``Host`` header on a connection kept open, its whole answer read.
"""

from __future__ import annotations

import asyncio
import time
from urllib.parse import urlsplit

from livepath.client import Answer


class KeepAlive:
    """GETs on one connection, one at a time, reconnecting when the server has closed it."""

    def __init__(self, base: str) -> None:
        url = urlsplit(base)
        self.host, self.port = url.hostname or "127.0.0.1", url.port or 80
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def get(self, target: str, timeout: float) -> Answer:
        """``target`` (a path and query); the body is read, not kept (``Answer.body`` is ``None``)."""
        start = time.monotonic()
        try:
            async with asyncio.timeout(timeout):
                try:
                    status, etag = await self._exchange(target, fresh=False)
                except (ConnectionError, asyncio.IncompleteReadError):
                    status, etag = await self._exchange(target, fresh=True)  # closed while idle
        except TimeoutError:
            self.close()
            return Answer("timeout", None, None, time.monotonic() - start, time.monotonic())
        except (OSError, asyncio.IncompleteReadError, ValueError) as e:
            self.close()
            return Answer(f"error:{type(e).__name__}", None, None, time.monotonic() - start, time.monotonic())
        now = time.monotonic()
        return Answer(status, None, etag, now - start, now)

    async def _exchange(self, target: str, *, fresh: bool) -> tuple[int, str | None]:
        if fresh or self._streams is None:
            self.close()
            self._streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self._streams
        writer.write(f"GET {target} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if "chunked" in headers.get("transfer-encoding", ""):
            raise ValueError("a chunked answer to a long-poll")
        await reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers.get("etag")

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None
