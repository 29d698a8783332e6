"""One open ``GET /games/{id}/stream``: when each version arrived."""

from __future__ import annotations

import asyncio
import time

import aiohttp

from livepath.client import TIMEOUT, Api


class Stream:
    """Reads a server-sent-events stream until it ends, fails or is cancelled.

    ``status`` is "connecting", then the HTTP status (200 once open), "timeout" when no answer came
    within the client timeout, or "error:<kind>".
    """

    def __init__(self, api: Api, game_id: str, after: int) -> None:
        self.api = api
        self.game_id = game_id
        self.after = after
        self.status: int | str = "connecting"
        self.arrivals: dict[int, float] = {}
        self.ended = False
        #: True once the stream is over for the client: ended, failed, or cancelled.
        self.closed = False
        self._news = asyncio.Condition()
        self._waiting = 0

    async def run(self) -> None:
        url = f"{self.api.root}/games/{self.game_id}/stream"
        try:
            async with asyncio.timeout(TIMEOUT):
                reply = await self.api.session.get(url, params={"after": str(self.after)})
            self.status = reply.status
            async with reply:
                if reply.status == 200:
                    await self._read(reply)
        except TimeoutError:
            self.status = "timeout"
        except aiohttp.ClientError as e:
            self.status = f"error:{type(e).__name__}"
        finally:
            self.closed = True
            async with self._news:
                self._news.notify_all()

    async def _read(self, reply: aiohttp.ClientResponse) -> None:
        """Whole chunks, split into frames: the driver shares the server's cores, so it reads a
        thousand streams as cheaply as it can (no line-by-line reading, no JSON)."""
        buffer = b""
        async for chunk in reply.content.iter_any():
            arrived = time.monotonic()
            *frames, buffer = (buffer + chunk).split(b"\n\n")  # Kotlík ends its lines with \n
            for frame in frames:
                self._dispatch(frame, arrived)
            if self._waiting and frames:
                async with self._news:
                    self._news.notify_all()
            if self.ended:
                return

    def _dispatch(self, frame: bytes, arrived: float) -> None:
        for line in frame.split(b"\n"):
            name, _, value = line.partition(b": ")
            if name == b"id" and value.isdigit():
                self.arrivals[int(value)] = arrived
            elif name == b"event" and value == b"end":
                self.ended = True

    async def first_after(self, version: int, timeout: float) -> tuple[int, float] | None:
        """The first version past ``version`` and its arrival; ``None`` if none came in time."""

        def beyond() -> bool:
            return (
                any(v > version for v in self.arrivals)
                or self.ended
                or self.status not in (200, "connecting")
            )

        self._waiting += 1
        try:
            async with asyncio.timeout(timeout), self._news:
                await self._news.wait_for(beyond)
        except TimeoutError:
            return None
        finally:
            self._waiting -= 1
        later = [v for v in self.arrivals if v > version]
        return (min(later), self.arrivals[min(later)]) if later else None
