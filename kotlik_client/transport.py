"""HTTP for the client: JSON in and out, problem details raised, safe calls retried.

A call is *safe to repeat* when it is a GET or carries an ``Idempotency-Key`` (the server then
answers a repeated command with its first result): such a call is retried after a broken
connection and after a 503, and any call is retried after a 429 or a refused connection (the
server did nothing then). Each retry waits the answer's ``Retry-After`` (or a short backoff
without one); a ``Retry-After`` beyond ``max_wait``, or more than ``retries`` retries, gives up
with the last problem.
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kotlik_client.errors import ProblemError
from kotlik_client.types import Problem

#: Answers that mean "nothing was done, come back later".
RETRY_STATUSES = (429, 503)
#: Errors of a connection that broke before its answer was read.
BROKEN = (OSError, http.client.HTTPException)


@dataclass
class Response:
    """An answer: status, headers (names as sent), and the raw body; ``json()`` parses it."""

    status: int
    headers: Mapping[str, str]
    body: bytes
    #: The open response of a stream (``Transport.open``), read line by line.
    stream: Any = None

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


@dataclass
class Transport:
    """Requests to one server, as one seat (``token``) or a spectator (``None``)."""

    base: str
    token: str | None = None
    #: Seconds a request may take (a long-poll adds its own wait to this).
    timeout: float = 30.0
    #: Retries of one call before giving up.
    retries: int = 5
    #: The longest ``Retry-After`` honoured; a longer one gives up at once.
    max_wait: float = 30.0
    #: The first backoff without a ``Retry-After``; it doubles per retry.
    backoff: float = 0.2
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        headers: Mapping[str, str] | None = None,
        ok: tuple[int, ...] = (200, 201),
        timeout: float | None = None,
        stream: bool = False,
    ) -> Response:
        """Send, retrying what is safe to retry; an answer outside ``ok`` raises ProblemError."""
        all_headers = {"Accept": "application/json", **(headers or {})}
        if self.token:
            all_headers["Authorization"] = f"Bearer {self.token}"
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        repeatable = method == "GET" or "Idempotency-Key" in all_headers
        attempt = 0
        while True:
            try:
                response = self._send(method, path, data, all_headers, timeout or self.timeout, stream)
            except BROKEN as e:
                refused = isinstance(e, ConnectionRefusedError) or isinstance(
                    getattr(e, "reason", None), ConnectionRefusedError
                )
                if attempt >= self.retries or not (repeatable or refused):
                    raise ProblemError(_broken(e)) from e
                self.sleep(self.backoff * 2**attempt)
                attempt += 1
                continue
            if response.status in ok:
                return response
            problem = _problem(response)
            wait = _retry_after(response.headers, self.backoff * 2**attempt)
            retry = response.status == 429 or (response.status == 503 and repeatable)
            if not retry or attempt >= self.retries or wait > self.max_wait:
                raise ProblemError(problem, dict(response.headers))
            self.sleep(wait)
            attempt += 1

    def _send(
        self,
        method: str,
        path: str,
        data: bytes | None,
        headers: dict[str, str],
        timeout: float,
        stream: bool,
    ) -> Response:
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            reply = urllib.request.urlopen(request, timeout=timeout)
        except urllib.error.HTTPError as error:
            with error:
                return Response(error.code, _headers(error.headers), error.read())
        if stream and reply.status == 200:
            return Response(reply.status, _headers(reply.headers), b"", stream=reply)
        with reply:
            return Response(reply.status, _headers(reply.headers), reply.read())


def _headers(message: Any) -> dict[str, str]:
    return {name.title(): value for name, value in message.items()}


def _problem(response: Response) -> Problem:
    """The answer's problem details; an answer that is not one (a proxy's page) becomes one."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and "status" in body:
        return body  # type: ignore[return-value]
    text = response.body.decode(errors="replace").strip()[:300]
    return {
        "type": "about:blank",
        "status": response.status,
        "title": f"HTTP {response.status}",
        "detail": text,
    }


def _broken(error: BaseException) -> Problem:
    return {
        "type": "about:blank",
        "status": 0,
        "title": "No answer",
        "detail": str(error) or type(error).__name__,
    }


def _retry_after(headers: Mapping[str, str], default: float) -> float:
    """``Retry-After`` in seconds (an HTTP date is not sent by Kotlík; it falls back to ``default``)."""
    value = headers.get("Retry-After", "").strip()
    return float(value) if value.isdigit() else default
