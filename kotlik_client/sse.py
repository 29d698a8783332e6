"""Server-sent events: parsing the ``text/event-stream`` format, and a stream that resumes.

The server closes a stream after a while (and a proxy or a network may cut it sooner); the
client then reconnects with ``Last-Event-ID`` set to the last ``id`` it received, and the server
continues from the next version, so no event is lost or repeated.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from kotlik_client.errors import ProblemError
from kotlik_client.transport import BROKEN


@dataclass(frozen=True)
class Message:
    """One server-sent event: its ``event`` name, ``id`` and ``data`` (the text)."""

    event: str
    data: str
    id: str | None

    def json(self) -> Any:
        return json.loads(self.data) if self.data else None


def parse(lines: Iterable[bytes]) -> Iterator[Message]:
    """The messages in a stream's lines (the WHATWG event-stream grammar; comments skipped)."""
    event, last_id = "", None
    data: list[str] = []
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield Message(event or "message", "\n".join(data), last_id)
            event, data = "", []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            event = value
        elif name == "data":
            data.append(value)
        elif name == "id" and "\0" not in value:
            last_id = value


def resuming(
    connect: Callable[[str | None], Iterable[bytes]], last_id: str | None, reconnects: int
) -> Iterator[Message]:
    """Messages from ``connect(last_id)``, reconnecting from the last id whenever the stream ends
    or breaks, until an ``end`` message; ``reconnects`` bounds reconnections in a row without a
    message between them."""
    failures = 0
    while True:
        try:
            for message in parse(connect(last_id)):
                failures = 0
                if message.id is not None:
                    last_id = message.id
                yield message
                if message.event == "end":
                    return
        except BROKEN as e:
            if failures >= reconnects:
                raise ProblemError(
                    {"type": "about:blank", "status": 0, "title": "Stream broken", "detail": str(e)}
                ) from e
        else:
            if failures >= reconnects:
                return
        failures += 1
