"""Bot reply latency: a human seat plays against the ``default`` bot over HTTP.

After each human 201 that hands the turn to the bot, the figure is the time from that 201's
arrival to the bot's first event arriving on the game's open ``/stream``. The stream is read
independently of the human's requests, so asking ``/actions`` meanwhile does not delay the clock.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

from livepath.client import TIMEOUT, Api, Tally
from livepath.known import GAME, UNDO
from livepath.players import Window
from livepath.sse import Stream

AGAINST_BOT = [{"name": "Human"}, {"name": "Bot", "bot": "default"}]


@dataclass
class Replies:
    waits: Tally = field(default_factory=Tally)  # 201 → the bot's first event on the stream
    calls: Tally = field(default_factory=Tally)  # everything else the human asked
    games: int = 0


class _Game:
    """One game against the bot, with its stream open from the version it was created at."""

    def __init__(self, api: Api, created: dict[str, Any]) -> None:
        self.api = api
        self.id = created["id"]
        self.token = next(s["token"] for s in created["seats"] if s["token"])
        self.stream = Stream(api, self.id, created["version"])
        self.reader = asyncio.create_task(self.stream.run())

    async def actions(self, replies: Replies) -> list[dict[str, Any]] | None:
        answer = await self.api.call("GET", f"/games/{self.id}/actions", token=self.token)
        # the platform's undo is offered beside the rules' moves; a bot only moves on
        return [a for a in answer.body if a != UNDO] if replies.calls.record(answer, 200) else None

    async def over(self) -> bool:
        answer = await self.api.call("GET", f"/games/{self.id}")
        return answer.status != 200 or answer.body["status"] != "active"

    async def close(self) -> None:
        self.reader.cancel()
        await asyncio.gather(self.reader, return_exceptions=True)


async def _play_one(api: Api, game: _Game, replies: Replies, rng: random.Random, window: Window) -> None:
    version = 0
    while window.open:
        actions = await game.actions(replies)
        if actions is None:
            return
        if not actions:  # the bot's turn goes on, or the game is over
            if await game.over() or await game.stream.first_after(version, TIMEOUT) is None:
                return
            version = max(game.stream.arrivals, default=version)
            continue
        answer = await api.call(
            "POST", f"/games/{game.id}/commands", token=game.token, body=rng.choice(actions)
        )
        if not replies.calls.record(answer, 201):
            return
        version = answer.body["version"]
        if await game.actions(replies) == [] and not await game.over():
            await _time_reply(game, version, answer.arrived, replies, window)


async def _time_reply(game: _Game, version: int, sent: float, replies: Replies, window: Window) -> None:
    seen = await game.stream.first_after(version, TIMEOUT)
    if seen is None:
        replies.waits.failures["no bot event within the client timeout"] += 1
    elif seen[1] <= window.deadline:
        replies.waits.seconds.append(seen[1] - sent)


async def measure(api: Api, window: Window, seed: int) -> Replies:
    """Play games against the bot one after another until the window closes."""
    replies, rng = Replies(), random.Random(seed)
    while window.open:
        created = await api.call("POST", "/games", body={"game": GAME, "seats": AGAINST_BOT})
        if not replies.calls.record(created, 201):
            await asyncio.sleep(0.5)
            continue
        replies.games += 1
        game = _Game(api, created.body)
        try:
            await _play_one(api, game, replies, rng, window)
        finally:
            await game.close()
    return replies
