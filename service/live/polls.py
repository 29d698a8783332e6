"""Long-polls: ``GET /games/{id}/state?wait=N`` answered once the game passes the version the caller
knows, or with 304 after N seconds.

When a game moves, every long-poll of it is answered and comes straight back for the next version,
so the watchers of a busy server send most of its requests. Two things keep them cheap:

- One version's state as one seat sees it is rendered once and shared by every poll that asks for
  it: a hundred spectators cost one view and one encoding.
- :class:`Spectators`, a WSGI layer in front of the app, answers a spectator's long-poll whose query
  is plainly right without Flask. The framework's part of a request (its context, routing, hooks and
  webargs) cost more than the rest of such an answer. Everything else goes on to the app: a seat
  token (its seat, and the limits on wrong tokens, are checked there), an unknown game, a query the
  schema must judge, ``?at=``. The app answers those as it always did, with the same
  :class:`LongPolls`, so the OpenAPI document, the schemas and the problems stay the app's.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl
from uuid import UUID

from flask import current_app
from psycopg import Connection
from psycopg import Error as DatabaseError
from psycopg_pool import PoolTimeout

from games import UnknownGame, UnknownRulesVersion
from projections import seen
from projections.fold import Folded
from projections.lobby import GameNotFound, GameRow
from projections.state import States
from service.context import answering_within, take
from service.contract import bodies
from service.guard.cors import Cors
from service.live.rows import Rows
from service.server.metrics import watching

#: Rendered answers kept for the polls that wake on the same version, unless
#: ``KOTLIK_POLL_ANSWERS`` says otherwise.
ANSWERS_KEPT = 4096
#: The longest ``wait`` a caller may ask for, in seconds (``StateQuerySchema``).
LONGEST_WAIT = 60
#: Seconds past its ``wait`` a poll may take to read the state a move brought at the last moment;
#: while the database is away, a poll is answered 503 by then.
GRACE = 1.0


def state_body(
    row: GameRow, folded: Folded, seat: int | None, *, over: bool, deadline: Any, view: Any
) -> dict[str, Any]:
    """The body of ``GET /state`` (``StateSchema``)."""
    return {
        "id": row.id,
        "version": folded.version,
        "seat": seat,
        "to_move": [] if over else row.rules.to_move(folded.state),
        "over": over,
        "deadline": deadline,
        "view": view,
    }


def current_state(row: GameRow, folded: Folded, seat: int | None) -> dict[str, Any]:
    """The state at the row's version as ``seat`` sees it. A game ended by a resignation or a
    forfeit is over though its rules would play on."""
    over = row.rules.is_over(folded.state) or row.over
    return state_body(
        row, folded, seat, over=over, deadline=row.deadline, view=seen.view(row.rules, folded.state, seat)
    )


def tagged_version(header: str | None) -> int | None:
    """The version an ``If-None-Match`` header names (the ``ETag`` this API gave), if it names one."""
    tag = (header or "").strip().removeprefix("W/").strip('"')
    return int(tag) if is_version(tag) else None


def is_version(text: str) -> bool:
    """ASCII digits that fit a version (``str.isdigit`` alone would take ``²`` or 5,000 digits)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


@dataclass(frozen=True)
class Rendered:
    """A state answer, encoded: its version (the ``ETag``) and its JSON body."""

    version: int
    body: bytes


def current() -> LongPolls:
    """The running app's long-polls (put in ``app.extensions`` by :func:`service.app.create_app`)."""
    return current_app.extensions["kotlik.polls"]  # type: ignore[no-any-return]


class LongPolls:
    """Waits for games to pass a version, and renders what the waiters see then."""

    def __init__(
        self,
        rows: Rows,
        states: States,
        connect: Callable[[], AbstractContextManager[Connection[Any]]],
        size: int = ANSWERS_KEPT,
    ) -> None:
        self.rows = rows
        self.states = states
        self.size = size
        self.connect = connect
        self._answers: OrderedDict[tuple[Any, ...], Rendered] = OrderedDict()
        self._lock = threading.Lock()
        self._rendering = [threading.Lock() for _ in range(64)]

    def next(self, game_id: UUID, known: int, wait: float, seat: int | None) -> Rendered | None:
        """The state once the game passes ``known``, as ``seat`` sees it; ``None`` after ``wait``
        seconds. It waits with no connection held.

        Raises :class:`projections.lobby.GameNotFound` for a game that does not exist.
        """
        rows = self.rows
        row = rows.past(game_id, known)
        if row is None:
            with watching("long-polls"):
                woke = rows.listener.wait(game_id, known, wait)
            if woke is not None:
                row = rows.past(game_id, known)
        if row is None:
            return None
        entry = self.states.get(game_id)
        if entry is not None and entry.folded.version > row.version:
            # The game moved on again while this poll waited: answer with the newest state this
            # process holds, so the caller does not come straight back for a version already here.
            row = rows.past(game_id, entry.folded.version - 1) or row
        return self._rendered(row, seat)

    def __len__(self) -> int:
        """How many entries it holds now."""
        return len(self._answers)

    def clear(self) -> None:
        """Forget the rendered answers, as a restart does."""
        with self._lock:
            self._answers.clear()

    def _rendered(self, row: GameRow, seat: int | None) -> Rendered:
        key = (row.id, row.version, seat, row.status, row.deadline)
        rendering = self._rendering[hash(key) % len(self._rendering)]
        take(rendering)  # no longer than the poll may wait
        try:
            with self._lock:
                rendered = self._answers.get(key)
            if rendered is not None:
                return rendered
            folded = self.states.held(row.id, row.version)
            if folded is None:
                with self.connect() as conn:
                    folded = self.states.load(conn, row.id, row.rules, row.version)
            rendered = Rendered(folded.version, bodies.encode(current_state(row, folded, seat)))
            with self._lock:
                self._answers[key] = rendered
                while len(self._answers) > self.size:
                    self._answers.popitem(last=False)
        finally:
            rendering.release()
        return rendered


def etag(version: int) -> dict[str, str]:
    """The version as the ETag; what it tags depends on whose token asked, hence ``Vary``."""
    return {"ETag": f'"{version}"', "Vary": "Authorization"}


StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

UUID_PATTERN = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"


class Spectators:
    """WSGI: a spectator's long-poll with a plain query, answered here; every other request is
    passed to ``app`` untouched."""

    def __init__(self, app: WSGIApp, polls: LongPolls, prefix: str, cors: Cors | None) -> None:
        self.app = app
        self.polls = polls
        self.cors = cors
        self._path = re.compile(f"{re.escape(prefix)}/games/({UUID_PATTERN})/state")

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        asked = self._asked(environ)
        if asked is None:
            return self.app(environ, start_response)
        game_id, known, wait = asked
        with answering_within(wait + GRACE):
            try:
                rendered = self.polls.next(game_id, known, wait, None)
            except (GameNotFound, UnknownGame, UnknownRulesVersion, DatabaseError, PoolTimeout):
                # The app answers these with their problems; in an outage, at once, the time up.
                return self.app(environ, start_response)
        headers = etag(known if rendered is None else rendered.version)
        if self.cors is not None:
            headers = self.cors.annotated(headers, environ.get("HTTP_ORIGIN"))
        if rendered is None:
            start_response("304 NOT MODIFIED", list(headers.items()))
            return []
        start_response(
            "200 OK",
            [
                ("Content-Type", "application/json"),
                ("Content-Length", str(len(rendered.body))),
                *headers.items(),
            ],
        )
        return [rendered.body]

    def _asked(self, environ: dict[str, Any]) -> tuple[UUID, int, int] | None:
        """``(game, known version, wait)`` of a spectator's plainly right long-poll, else ``None``."""
        if environ.get("REQUEST_METHOD") != "GET" or "HTTP_AUTHORIZATION" in environ:
            return None
        found = self._path.fullmatch(environ.get("PATH_INFO", ""))
        if found is None:
            return None
        query = parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True)
        asked = dict(query)
        if len(asked) != len(query) or not set(asked) <= {"wait", "since"} or "wait" not in asked:
            return None
        if not all(is_version(value) for value in asked.values()):
            return None
        wait = int(asked["wait"])
        known = int(asked["since"]) if "since" in asked else tagged_version(environ.get("HTTP_IF_NONE_MATCH"))
        if known is None or not 0 < wait <= LONGEST_WAIT:
            return None
        return UUID(found.group(1)), known, wait
