"""One keep-alive HTTP/1.1 connection on raw asyncio streams, for the calls the driver makes most:
the watchers' long-polls and the players' commands and ``/actions``.

The driver shares the machine's two cores with the server it measures, so what a call costs the
driver is taken from the server. Through aiohttp a call cost the driver 0.25–0.4 ms of CPU, a
third of what the server spent on a command; here it costs about a quarter of that. The server
sees the same requests either way: HTTP/1.1 on a connection kept open, with ``Host``, the seat's
``Authorization`` and a JSON body with its length, the whole answer read.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any
from urllib.parse import urlsplit

from livepath.client import TIMEOUT, Answer


def address(url: str) -> tuple[str, int]:
    """The host and port a base URL of the API names."""
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 80


def request_head(method: str, target: str, host: str, port: int) -> str:
    """A request's first lines, to which a caller adds its headers and the blank line."""
    return f"{method} {target} HTTP/1.1\r\nHost: {host}:{port}\r\n"


class KeepAlive:
    """Calls on one connection, one at a time, reconnecting when the server has closed it. A call
    given up on (cancelled, timed out, failed) closes the connection: HTTP/1.1 cannot take a request
    back, so its answer would otherwise be read as the answer to the next call."""

    def __init__(self, base: str) -> None:
        self.host, self.port = address(base)
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def get(self, target: str, timeout: float) -> Answer:
        """``target`` (a path and query); the body is read, not kept (``Answer.body`` is ``None``)."""
        return await self.call("GET", target, timeout=timeout, decode=False)

    async def call(
        self,
        method: str,
        target: str,
        *,
        token: str | None = None,
        body: Any = None,
        timeout: float = TIMEOUT,
        decode: bool = True,
    ) -> Answer:
        """``method`` on ``target``; the answer's JSON body if ``decode``. A connection the server
        closed while it was idle is opened again and the call sent on the new one: the server
        had read nothing of it."""
        head = request_head(method, target, self.host, self.port)
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        payload = b"" if body is None else json.dumps(body).encode()
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        request = (head + "\r\n").encode() + payload
        start = time.monotonic()
        try:
            async with asyncio.timeout(timeout):
                reused = self._streams is not None
                try:
                    status, etag, raw = await self._exchange(request)
                except (ConnectionError, asyncio.IncompleteReadError) as e:
                    if not reused or (isinstance(e, asyncio.IncompleteReadError) and e.partial):
                        raise
                    self.close()
                    status, etag, raw = await self._exchange(request)
                data = json.loads(raw) if decode and raw else None
        except asyncio.CancelledError:
            self.close()  # its answer may still come, and would be read as the next call's
            raise
        except TimeoutError:
            self.close()
            return Answer("timeout", None, None, time.monotonic() - start, time.monotonic())
        except (OSError, asyncio.IncompleteReadError, ValueError) as e:
            self.close()
            return Answer(f"error:{type(e).__name__}", None, None, time.monotonic() - start, time.monotonic())
        now = time.monotonic()
        return Answer(status, data, etag, now - start, now)

    async def _exchange(self, request: bytes) -> tuple[int, str | None, bytes]:
        if self._streams is None:
            self._streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self._streams
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if "chunked" in headers.get("transfer-encoding", ""):
            raise ValueError("a chunked answer")
        raw = await reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, headers.get("etag"), raw

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None
