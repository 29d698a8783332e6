"""The Kotlík API as Python calls: one ``Client`` per server and seat."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, cast
from urllib.parse import quote, urlencode

from kotlik_client.sse import Message, resuming
from kotlik_client.transport import Transport
from kotlik_client.types import Appended, Command, CreatedGame, Event, SeatRequest, State, Summary

API = "/api/v1"
#: Seconds a stream may stay silent before it counts as broken (the server sends a keep-alive
#: comment every 15).
STREAM_SILENCE = 60.0
#: The longest long-poll the server accepts, in seconds.
MAX_WAIT = 60


class Client:
    """Calls to one Kotlík server (``url`` without ``/api/v1``) as one seat (``token``) or a spectator.

    Calls that are safe to repeat are retried on broken connections, 429 and 503 (see
    :mod:`kotlik_client.transport`); every error answer raises :class:`ProblemError`.
    """

    def __init__(
        self,
        url: str,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        retries: int = 5,
        max_wait: float = 30.0,
    ) -> None:
        self.transport = Transport(
            url.rstrip("/"), token, timeout=timeout, retries=retries, max_wait=max_wait
        )

    @property
    def url(self) -> str:
        return self.transport.base

    @property
    def token(self) -> str | None:
        return self.transport.token

    def seat(self, token: str | None) -> Client:
        """The same server as another seat (its token) or as a spectator (``None``)."""
        other = Client.__new__(Client)
        other.transport = Transport(**{**vars(self.transport), "token": token})
        return other

    def _get(self, path: str, **kw: Any) -> Any:
        return self.transport.request("GET", API + path, **kw).json()

    def catalog(self, game: str | None = None) -> Any:
        """The hosted games, or one game's content (names in cs/pl/en, its options schema)."""
        return self._get("/catalog" + (f"/{quote(game)}" if game else ""))

    def create(
        self, game: str, seats: Sequence[SeatRequest], options: dict[str, Any] | None = None
    ) -> CreatedGame:
        """A new game; each human seat's token is in ``seats`` (shown only here). Not retried after a
        broken connection, since it might have been created: a retry would make a second game."""
        body = {"game": game, "seats": list(seats), "options": options or {}}
        return cast(CreatedGame, self.transport.request("POST", API + "/games", body).json())

    def summary(self, game_id: str) -> Summary:
        """Status, version, seats, who is to move, the result once finished."""
        return cast(Summary, self._get(f"/games/{game_id}"))

    def state(self, game_id: str, at: int | None = None) -> State:
        """This seat's view now, or at version ``at`` (a replay)."""
        query = "" if at is None else f"?at={at}"
        return cast(State, self._get(f"/games/{game_id}/state{query}"))

    def wait(self, game_id: str, since: int, timeout: int = 30) -> State | None:
        """The state once the game is past version ``since``; ``None`` if ``timeout`` seconds
        (at most 60) pass first. One long-poll: ``?wait=`` with ``If-None-Match: "<since>"``."""
        timeout = max(0, min(timeout, MAX_WAIT))
        response = self.transport.request(
            "GET",
            f"{API}/games/{game_id}/state?wait={timeout}",
            headers={"If-None-Match": f'"{since}"'},
            ok=(200, 304),
            timeout=self.transport.timeout + timeout,
        )
        return None if response.status == 304 else cast(State, response.json())

    def actions(self, game_id: str) -> list[Command]:
        """The commands this seat may play now, each a body ready for :meth:`play`."""
        return cast(list[Command], self._get(f"/games/{game_id}/actions"))

    def play(
        self, game_id: str, command: Command, *, expected_version: int | None = None, key: str | None = None
    ) -> Appended:
        """Play ``command`` as this seat: the new version, the events it caused and the seats to
        move next.

        It carries an ``Idempotency-Key`` (``key``, or a fresh one) kept across its retries, so a
        command whose answer was lost is answered with its first result, never played twice.
        ``expected_version`` makes it fail with 409 if the game has moved on.
        """
        body = {k: v for k, v in command.items() if k != "expected_version"}
        if expected_version is not None:
            body["expected_version"] = expected_version
        headers = {"Idempotency-Key": key or uuid.uuid4().hex}
        response = self.transport.request("POST", f"{API}/games/{game_id}/commands", body, headers=headers)
        return cast(Appended, response.json())

    def events(self, game_id: str, after: int = 0) -> list[Event]:
        """The log after version ``after`` as this seat may see it (whole once the game is over)."""
        return cast(list[Event], self._get(f"/games/{game_id}/events?{urlencode({'after': after})}"))

    def stream(self, game_id: str, after: int = 0) -> Iterator[Event]:
        """Each event past ``after`` as it happens, until the game is scored.

        A stream the server or the network cuts is opened again from the last event received
        (``Last-Event-ID``), so every event comes exactly once.
        """
        for message in self.messages(game_id, after):
            if message.event != "end":
                yield cast(Event, message.json())

    def messages(self, game_id: str, after: int = 0) -> Iterator[Message]:
        """The stream's raw server-sent events, ``end`` included (see :meth:`stream`)."""

        def connect(last_id: str | None) -> Iterable[bytes]:
            response = self.transport.request(
                "GET",
                f"{API}/games/{game_id}/stream",
                headers={"Accept": "text/event-stream", "Last-Event-ID": last_id or str(after)},
                timeout=STREAM_SILENCE,
                stream=True,
            )
            with response.stream as lines:
                yield from lines

        return resuming(connect, None, self.transport.retries)

    def export(self, game_id: str) -> list[dict[str, Any]]:
        """The game as ``GET /export`` gives it: the header line, then one line per event (the
        signature line that ends the file left out; ``kotlik verify --key`` checks it)."""
        body = self.transport.request("GET", f"{API}/games/{game_id}/export").body
        lines = [json.loads(line) for line in body.splitlines() if line.strip()]
        return lines[:-1] if lines and set(lines[-1]) == {"signature"} else lines

    def score(self, game_id: str) -> dict[str, Any]:
        """The final breakdown per seat (a 404 ProblemError until the game is scored)."""
        return cast(dict[str, Any], self._get(f"/games/{game_id}/score"))
