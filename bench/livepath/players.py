"""Two-human Kupferkessel games played over HTTP by clients that drive both seats.

Two client modes: ``asking`` GETs ``/actions`` of the seat to move (as the last answer, the
201 of the game or of its last command, named it) before each command and picks one body with a
seeded random; ``knowing`` plays a game it computed beforehand (:mod:`livepath.known`) and sends
only the POSTs. Either way only the POST ``/commands`` is timed; a game that ends (or fails) is
replaced by a new one at the same table until the window closes or the game cap is reached.

Each table calls on a keep-alive connection of its own (:mod:`livepath.keepalive`), as a player's
client would; creating the games goes through aiohttp.

The commands section brings each table's first game to a random point before the window
(``stagger``), as a server's live games are; ``--together`` starts them all at their beginning.

Unpaced, every table plays as fast as the server answers: the rate is the server's limit and the
latency is that of a saturated server (50 clients waiting in turn). Paced, the tables together
offer a fixed rate, as players who think between moves do, and the latency is the server's at
that load.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from livepath.client import Answer, Api, Tally
from livepath.keepalive import KeepAlive
from livepath.known import GAME, UNDO, Script

ASKING, KNOWING = "actions+post", "post-only"
TWO_HUMANS = [{"name": "White"}, {"name": "Black"}]


@dataclass(frozen=True)
class Window:
    """The timed window: calls are timed when their answer arrives before ``deadline``."""

    start: float
    deadline: float

    @classmethod
    def of(cls, seconds: float) -> Window:
        now = time.monotonic()
        return cls(now, now + seconds)

    @property
    def open(self) -> bool:
        return time.monotonic() < self.deadline

    def holds(self, answer: Answer) -> bool:
        return answer.arrived <= self.deadline


@dataclass
class Table:
    """One live game slot: the game now at it and when each of its versions reached the client."""

    game_id: str
    tokens: list[str]
    version: int
    script: Script | None
    #: Shared by every table: game id → version → arrival of the 201 that carried it.
    history: dict[str, dict[int, float]]
    #: The table's own connection for its commands and ``/actions``.
    connection: KeepAlive
    #: Set when the game at this table is replaced; watchers then follow the new one.
    replaced: asyncio.Event = field(default_factory=asyncio.Event)
    #: The seats to move, as the last 201 named them (``asking`` asks the first).
    to_move: list[int] = field(default_factory=list)

    def seen(self, answer: Answer) -> None:
        arrivals = self.history.setdefault(self.game_id, {})
        for event in answer.body.get("events", []):
            arrivals[event["version"]] = answer.arrived
        self.version = answer.body["version"]
        self.to_move = answer.body["to_move"]

    def take(self, created: Answer, script: Script | None) -> None:
        old = self.replaced
        self.game_id = created.body["id"]
        self.tokens = [s["token"] for s in created.body["seats"]]
        self.version = created.body["version"]
        self.script = script
        self.to_move = created.body["to_move"]
        self.replaced = asyncio.Event()
        old.set()


#: How far past its slot a command may start and still count as on time.
LATE = 0.005


@dataclass
class Pace:
    """One table's share of an offered rate: a command every ``interval`` seconds, one at a time.

    A table that falls behind starts its next command at once and does not catch up with a burst
    (one player makes one move at a time); such a start counts as ``late``.
    """

    interval: float
    due: float
    late: int = 0

    async def turn(self) -> None:
        now = time.monotonic()
        if now > self.due + LATE:
            self.late += 1
        start = max(now, self.due)
        await asyncio.sleep(start - now)
        self.due = start + self.interval


class Driver:
    """Plays ``concurrency`` games at once in one client mode and tallies the POSTs; ``rate``,
    if given, is the commands/s the tables offer together; ``stagger`` plays a random share of
    each table's first game before the window."""

    def __init__(
        self,
        api: Api,
        mode: str,
        scripts: list[Script],
        max_games: int,
        seed: int,
        rate: float | None = None,
        *,
        stagger: bool = False,
    ) -> None:
        self.api = api
        self.mode = mode
        self.rate = rate
        self.paces: list[Pace] = []
        self.posts = Tally()
        self.other = Tally()
        self.history: dict[str, dict[int, float]] = {}
        self.tables: list[Table] = []
        self.games = 0
        self._max_games = max_games
        self.stagger = stagger
        #: How many commands a game takes, about (the length of a known game).
        self._length = len(scripts[0].moves)
        self._scripts: Iterator[Script] = itertools.cycle(scripts)
        self._rng = random.Random(seed)
        self._root = urlsplit(api.root).path

    async def _create(self, script: Script | None) -> Answer | None:
        if self.games >= self._max_games:
            return None
        self.games += 1
        body: dict[str, Any] = {"game": GAME, "seats": TWO_HUMANS}
        if script is not None:
            body["options"] = script.options
        answer = await self.api.call("POST", "/games", body=body)
        return answer if self.other.record(answer, 201) else None

    def _next_script(self) -> Script | None:
        return next(self._scripts) if self.mode == KNOWING else None

    async def prepare(self, concurrency: int) -> None:
        """Open the tables before the window, so it times play rather than game creation, and
        bring each game to a point of its own, as a server's live games are.

        Started together, equal games also ended together: every table then created its next game
        in the same few milliseconds, a burst that a server's live games (each begun whenever its
        players met) do not make.
        """
        for _ in range(concurrency):
            script = self._next_script()
            created = await self._create(script)
            if created is not None:
                table = Table("", [], 0, None, self.history, KeepAlive(self.api.base))
                table.take(created, script)
                self.tables.append(table)
        if self.stagger:
            await asyncio.gather(*(self._advance(t) for t in self.tables))

    async def _advance(self, table: Table) -> None:
        """Play a random share of the table's first game before the window, untimed."""
        moves = self._rng.randrange(self._length)
        if self.mode == KNOWING:
            assert table.script is not None
            for move in table.script.moves[:moves]:
                if (await self._post(table, move.seat, move.body, None)).status != 201:
                    return
            return
        for _ in range(moves):
            if not await self._ask_and_post(table, None):
                return

    async def _replace(self, table: Table) -> bool:
        script = self._next_script()
        created = await self._create(script)
        if created is None:
            return False
        table.take(created, script)
        return True

    async def _post(self, table: Table, seat: int, body: dict[str, Any], window: Window | None) -> Answer:
        """POST a command; timed if its answer came within ``window`` (``None``: before the window)."""
        answer = await table.connection.call(
            "POST", f"{self._root}/games/{table.game_id}/commands", token=table.tokens[seat], body=body
        )
        if answer.status != 201 or (window is not None and window.holds(answer)):
            self.posts.record(answer, 201)  # a failure counts even when it comes after the window
        if answer.status == 201:
            table.seen(answer)
        return answer

    async def _play_known(self, table: Table, window: Window, pace: Pace | None) -> None:
        assert table.script is not None
        for move in table.script.moves:
            if move.version <= table.version:  # played before the window (:meth:`prepare`)
                continue
            if pace is not None:
                await pace.turn()
            if not window.open:
                return
            answer = await self._post(table, move.seat, move.body, window)
            if answer.status != 201:
                return
            if answer.body["version"] != move.version:
                self.posts.failures["diverged from the script"] += 1
                return

    async def _actions(self, table: Table, seat: int) -> list[dict[str, Any]] | None:
        target = f"{self._root}/games/{table.game_id}/actions"
        answer = await table.connection.call("GET", target, token=table.tokens[seat])
        if not self.other.record(answer, 200):
            await asyncio.sleep(0.1)  # a failing server is not hammered in a tight loop
            return None
        return [a for a in answer.body if a != UNDO]  # a player here only moves on

    async def _play_asking(self, table: Table, window: Window, pace: Pace | None) -> None:
        while window.open:
            if pace is not None:
                await pace.turn()
            if not await self._ask_and_post(table, window):
                return

    async def _ask_and_post(self, table: Table, window: Window | None) -> bool:
        """Ask the seat to move for its commands and post one of them; false once the game is over."""
        if not table.to_move:
            return False
        seat = table.to_move[0]
        actions = await self._actions(table, seat)
        if actions is None:
            return True
        if not actions:
            self.other.failures["no commands for the seat to move"] += 1
            return False
        await self._post(table, seat, self._rng.choice(actions), window)
        return True

    async def play(self, table: Table, window: Window, pace: Pace | None) -> None:
        """Play at ``table`` until the window closes, a new game each time one ends."""
        while window.open:
            if self.mode == KNOWING:
                await self._play_known(table, window, pace)
            else:
                await self._play_asking(table, window, pace)
            if window.open and not await self._replace(table):
                return

    async def run(self, window: Window) -> None:
        if self.rate:
            interval = len(self.tables) / self.rate
            self.paces = [Pace(interval, window.start + self._rng.uniform(0, interval)) for _ in self.tables]
        paces: list[Pace | None] = [*self.paces] or [None] * len(self.tables)
        try:
            await asyncio.gather(*(self.play(t, window, p) for t, p in zip(self.tables, paces, strict=True)))
        finally:
            for table in self.tables:
                table.connection.close()

    @property
    def late(self) -> int:
        """Commands that started late on a paced run: the server did not keep up with the rate."""
        return sum(p.late for p in self.paces)
