"""Two-human Kupferkessel games played over HTTP by clients that drive both seats.

Two client modes: ``asking`` GETs ``/actions`` before each command and picks one body with a
seeded random; ``knowing`` plays a game it computed beforehand (:mod:`livepath.known`) and sends
only the POSTs. Either way only the POST ``/commands`` is timed; a game that ends (or fails) is
replaced by a new one at the same table until the window closes or the game cap is reached.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from livepath.client import Answer, Api, Tally
from livepath.known import GAME, Script

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
    #: Set when the game at this table is replaced; watchers then follow the new one.
    replaced: asyncio.Event = field(default_factory=asyncio.Event)

    def seen(self, answer: Answer) -> None:
        arrivals = self.history.setdefault(self.game_id, {})
        for event in answer.body.get("events", []):
            arrivals[event["version"]] = answer.arrived
        self.version = answer.body["version"]

    def take(self, created: Answer, script: Script | None) -> None:
        old = self.replaced
        self.game_id = created.body["id"]
        self.tokens = [s["token"] for s in created.body["seats"]]
        self.version = created.body["version"]
        self.script = script
        self.replaced = asyncio.Event()
        old.set()


class Driver:
    """Plays ``concurrency`` games at once in one client mode and tallies the POSTs."""

    def __init__(self, api: Api, mode: str, scripts: list[Script], max_games: int, seed: int) -> None:
        self.api = api
        self.mode = mode
        self.posts = Tally()
        self.other = Tally()
        self.history: dict[str, dict[int, float]] = {}
        self.tables: list[Table] = []
        self.games = 0
        self._max_games = max_games
        self._scripts: Iterator[Script] = itertools.cycle(scripts)
        self._rng = random.Random(seed)

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
        """Open the tables before the window, so it times play rather than game creation."""
        for _ in range(concurrency):
            script = self._next_script()
            created = await self._create(script)
            if created is not None:
                table = Table("", [], 0, None, self.history)
                table.take(created, script)
                self.tables.append(table)

    async def _replace(self, table: Table) -> bool:
        script = self._next_script()
        created = await self._create(script)
        if created is None:
            return False
        table.take(created, script)
        return True

    async def _post(self, table: Table, seat: int, body: dict[str, Any], window: Window) -> Answer:
        answer = await self.api.call(
            "POST", f"/games/{table.game_id}/commands", token=table.tokens[seat], body=body
        )
        if answer.status != 201 or window.holds(answer):
            self.posts.record(answer, 201)  # a failure counts even when it comes after the window
        if answer.status == 201:
            table.seen(answer)
        return answer

    async def _play_known(self, table: Table, window: Window) -> None:
        assert table.script is not None
        for move in table.script.moves:
            if not window.open:
                return
            answer = await self._post(table, move.seat, move.body, window)
            if answer.status != 201:
                return
            if answer.body["version"] != move.version:
                self.posts.failures["diverged from the script"] += 1
                return

    async def _actions(self, table: Table, seat: int) -> list[dict[str, Any]] | None:
        answer = await self.api.call("GET", f"/games/{table.game_id}/actions", token=table.tokens[seat])
        if not self.other.record(answer, 200):
            await asyncio.sleep(0.1)  # a failing server is not hammered in a tight loop
            return None
        return list(answer.body)

    async def _play_asking(self, table: Table, window: Window) -> None:
        """Ask the last mover first (a turn is several commands), then the other seat."""
        seat = 0
        while window.open:
            actions = await self._actions(table, seat)
            if actions == []:
                seat = 1 - seat
                actions = await self._actions(table, seat)
            if actions is None:
                continue
            if not actions:
                return  # the game is over
            await self._post(table, seat, self._rng.choice(actions), window)

    async def play(self, table: Table, window: Window) -> None:
        """Play at ``table`` until the window closes, a new game each time one ends."""
        while window.open:
            if self.mode == KNOWING:
                await self._play_known(table, window)
            else:
                await self._play_asking(table, window)
            if window.open and not await self._replace(table):
                return

    async def run(self, window: Window) -> None:
        await asyncio.gather(*(self.play(table, window) for table in self.tables))
