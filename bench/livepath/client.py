"""A minimal asyncio HTTP client for the API: one call, its status, body and how long it took.

Failures are answers too: a timeout or a broken connection comes back as a status string, so a
choking server yields figures instead of hanging or crashing the run.
"""

from __future__ import annotations

import resource
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import aiohttp

#: Seconds a client waits for a whole answer before it counts a timeout.
TIMEOUT = 15.0


@dataclass(frozen=True)
class Answer:
    status: int | str  # an HTTP status, or "timeout" / "error:<kind>"
    body: Any
    etag: str | None
    seconds: float
    arrived: float  # time.monotonic() when the answer was read

    @property
    def version(self) -> int | None:
        tag = (self.etag or "").strip('"')
        return int(tag) if tag.isdigit() else None


@dataclass
class Tally:
    """Latencies of the successful calls and a count of every other outcome."""

    seconds: list[float] = field(default_factory=list)
    failures: Counter[str] = field(default_factory=Counter)

    def record(self, answer: Answer, expected: int) -> bool:
        if answer.status == expected:
            self.seconds.append(answer.seconds)
            return True
        self.failures[str(answer.status)] += 1
        return False

    @property
    def failed(self) -> int:
        return sum(self.failures.values())


class Api:
    """``/api/v1`` on one keep-alive session; a seat's token per call."""

    def __init__(self, session: aiohttp.ClientSession, base: str) -> None:
        self.session = session
        self.base = base
        self.root = f"{base}/api/v1"

    async def call(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: Any = None,
        params: dict[str, str] | None = None,
        timeout: float = TIMEOUT,
        root: str | None = None,
    ) -> Answer:
        """``path`` under ``/api/v1``, or under ``root`` (``""``: the server's own, for ``/health``)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        start = time.monotonic()
        try:
            async with self.session.request(
                method,
                f"{self.root if root is None else self.base + root}{path}",
                json=body,
                params=params,
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=timeout),
            ) as reply:
                data = await reply.json(content_type=None) if reply.status != 304 else None
                status: int | str = reply.status
                etag = reply.headers.get("ETag")
        except TimeoutError:
            status, data, etag = "timeout", None, None
        except (aiohttp.ClientError, ValueError) as e:
            status, data, etag = f"error:{type(e).__name__}", None, None
        now = time.monotonic()
        return Answer(status, data, etag, now - start, now)


def session() -> aiohttp.ClientSession:
    """A session with no cap on open connections (each watcher holds one) and room for big SSE lines."""
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    return aiohttp.ClientSession(connector=connector, read_bufsize=2**20)


def raise_open_files(needed: int) -> int:
    """Lift this process's open-file limit towards ``needed`` (up to the hard limit); the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft
