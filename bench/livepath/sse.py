"""One open ``GET /games/{id}/stream``: when each version arrived, and who played it."""

from __future__ import annotations

import asyncio
import json
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
        self.seats: dict[int, int | None] = {}
        self.ended = False
        #: True once the stream is over for the client: ended, failed, or cancelled.
        self.closed = False
        self._news = asyncio.Condition()

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
        fields: dict[str, str] = {}
        async for raw in reply.content:
            line = raw.decode().rstrip("\r\n")
            if line:
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")
                continue
            await self._dispatch(fields, time.monotonic())
            fields = {}
            if self.ended:
                return

    async def _dispatch(self, fields: dict[str, str], arrived: float) -> None:
        if fields.get("event") == "end":
            self.ended = True
        if fields.get("id", "").isdigit() and "data" in fields:
            version = int(fields["id"])
            self.arrivals[version] = arrived
            self.seats[version] = json.loads(fields["data"]).get("seat")
            async with self._news:
                self._news.notify_all()

    async def first_after(self, version: int, timeout: float) -> tuple[int, float] | None:
        """The first version past ``version`` and its arrival; ``None`` if none came in time."""

        def beyond() -> bool:
            return (
                any(v > version for v in self.arrivals)
                or self.ended
                or self.status not in (200, "connecting")
            )

        try:
            async with asyncio.timeout(timeout), self._news:
                await self._news.wait_for(beyond)
        except TimeoutError:
            return None
        later = [v for v in self.arrivals if v > version]
        return (min(later), self.arrivals[min(later)]) if later else None
