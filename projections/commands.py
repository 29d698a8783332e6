"""The write side: create a game, play a command, let a bot play, score a finished game.

Each is one transaction that appends events and brings the lobby row, seat tokens, snapshots
and outbox along, so no read model disagrees with the log and no bot turn or scoring is lost to
a crash between the append and the enqueue. What it returns carries everything an answer needs
(the state after, the outbox rows to hand to the broker), so nothing is read again after commit.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any
from uuid import UUID, uuid4

import orjson
from psycopg import Connection, errors

import games
from events import NewEvent, StoredEvent, VersionConflict, append, read
from events.outbox import Queued, enqueue
from games.interface import Event, GameError, IllegalMove, InvalidOptions
from games.rng import Rng
from projections import lobby, tokens
from projections.cache import CACHE
from projections.fold import PLATFORM, Folded, fold, remember

#: ``check(rules, state, seat, command)``: raises a :class:`GameError` for a command to refuse.
Check = Callable[[ModuleType, Any, int, dict[str, Any]], None]


class GameOver(GameError):
    """The game has ended; it takes no more commands (HTTP 409)."""


class KeyReused(GameError):
    """An idempotency key came back with a different command (HTTP 422)."""


@dataclass(frozen=True)
class Created:
    game: lobby.GameRow
    #: Bearer tokens of the human seats, shown once.
    tokens: dict[int, str]
    #: Outbox rows (a bot's first turn) to hand to the broker now that they are committed.
    queued: list[Queued]


@dataclass(frozen=True)
class Played:
    version: int
    events: list[StoredEvent]
    #: The lobby row as the command found it (its static parts: game, options, seats).
    game: lobby.GameRow
    #: The game's state now: at ``version``, or later for a replayed idempotent command.
    state: Any
    #: True when an idempotency key matched an earlier command and nothing was appended.
    replayed: bool = False
    queued: list[Queued] = field(default_factory=list)


def create_game(
    conn: Connection[Any], game_id: str, seats: list[dict[str, Any]], options: dict[str, Any]
) -> Created:
    game = games.load(game_id)
    _check_seats(game, seats)
    seed = secrets.token_bytes(32)
    seed_sha256 = hashlib.sha256(seed).hexdigest()
    opening = plain(game.setup(dict(options), len(seats), Rng(seed, "setup")))
    new_id = uuid4()
    seats = [{"seat": i, "name": s["name"], "bot": s.get("bot")} for i, s in enumerate(seats)]
    created = {
        "game": game_id,
        "seats": seats,
        "options": options,
        "seed_sha256": seed_sha256,
        "rules_version": game.INFO.rules_version,
    }
    meta = {"rules_version": game.INFO.rules_version}
    with conn.transaction():
        lobby.insert(conn, new_id, game_id, game.INFO.rules_version, options, seats, seed, seed_sha256)
        issued = {s["seat"]: tokens.issue(conn, new_id, s["seat"]) for s in seats if not s["bot"]}
        stored = append(
            conn,
            new_id,
            0,
            [NewEvent(f"{PLATFORM}GameCreated", created, meta), *(_new(e, meta) for e in opening)],
        )
        after = Folded(fold(game, (e.body() for e in stored)), stored[-1].version)
        arranged = bool(opening and opening[0].get("arranged"))
        queued = _project(conn, new_id, game, seats, 0, after, arranged=arranged)
        row = lobby.get(conn, new_id)
    CACHE.put(new_id, after, stored)
    return Created(row, issued, queued)


def play(
    conn: Connection[Any],
    game_id: UUID,
    seat: int,
    command: dict[str, Any],
    *,
    expected_version: int | None = None,
    command_id: str | None = None,
    bot: str | None = None,
    check: Check | None = None,
) -> Played:
    """Decide ``command`` for ``seat`` and append what it caused; nothing is written on error.

    A hot game costs one read (its lobby row) and the writes: its state comes from the cache.
    ``check`` sees the command just before the rules do (after the version, game-over and
    idempotency checks), so a body it refuses gets its answer in the same order of errors.
    """
    request_hash = hashlib.sha256(json.dumps([seat, command], sort_keys=True).encode()).hexdigest()
    if command_id is not None:
        earlier = _replay(conn, game_id, command_id, request_hash)
        if earlier is not None:
            return earlier
    try:
        with conn.transaction():
            row = lobby.get(conn, game_id, secret=True)
            if expected_version is not None and expected_version != row.version:
                raise VersionConflict(game_id, expected_version, row.version)
            if row.over:
                raise GameOver("the game is over")
            game = row.rules
            before = CACHE.state(conn, game_id, game, row.version)
            if check is not None:
                check(game, before.state, seat, command)
            decided = plain(game.decide(before.state, seat, command, Rng(_seed(row), f"v{before.version}")))
            if not decided:
                raise IllegalMove("that command changes nothing")
            meta = {
                "seat": seat,
                "command": command,
                "at": before.version,
                "command_id": command_id,
                "bot": bot,
                "rules_version": game.INFO.rules_version,
            }
            stored = append(conn, game_id, before.version, [_new(e, meta) for e in decided])
            after = Folded(fold(game, decided, before.state), stored[-1].version)
            queued = _project(conn, game_id, game, row.seats, before.version, after)
            if command_id is not None:
                conn.execute(
                    "INSERT INTO commands (game_id, command_id, request_hash, seat, first_version, "
                    "last_version) VALUES (%s, %s, %s, %s, %s, %s)",
                    (game_id, command_id, request_hash, seat, stored[0].version, after.version),
                )
    except (errors.UniqueViolation, GameError, VersionConflict):
        # The same key racing its first use loses at the append or at the key, or (having read
        # the game after the winner's commit) finds its command no longer fits; either way it
        # gets the winner's answer, if there is one.
        earlier = _replay(conn, game_id, command_id, request_hash) if command_id else None
        if earlier is None:
            raise
        return earlier
    CACHE.put(game_id, after, stored)
    return Played(after.version, stored, row, after.state, queued=queued)


def play_bot(conn: Connection[Any], game_id: UUID, seat: int, expected: int) -> Played | None:
    """Let the bot at ``seat`` move if the game is still at ``expected``; else do nothing.

    The bot sees only its seat's view and legal actions. Its rng is labelled by the version, so a
    redelivered task chooses the same command and the append at ``expected`` can succeed once.
    """
    row = lobby.get(conn, game_id, secret=True)
    name = row.seats[seat]["bot"]
    if row.version != expected or row.over or seat not in row.to_move or not name:
        return None
    game = row.rules
    state = CACHE.state(conn, game_id, game, row.version).state
    actions = game.legal_actions(state, seat)
    command = game.BOTS[name](game.view(state, seat), actions, Rng(_seed(row), f"bot:v{expected}"))
    try:
        return play(conn, game_id, seat, command, expected_version=expected, bot=name)
    except VersionConflict:
        return None


def score_game(conn: Connection[Any], game_id: UUID, expected: int) -> dict[str, Any] | None:
    """Write the final breakdown of a game that has ended, once; reveal its seed."""
    with conn.transaction():
        row = lobby.get(conn, game_id, lock=True, secret=True)
        if row.status != "scoring" or row.version != expected:
            return None
        game = row.rules
        folded = CACHE.state(conn, game_id, game, row.version)
        result = game.score(folded.state)
        meta = {"rules_version": game.INFO.rules_version}
        scored = NewEvent(f"{PLATFORM}GameScored", {"score": result, "seed": _seed(row).hex()}, meta)
        stored = append(conn, game_id, folded.version, [scored])
        lobby.finish(conn, game_id, stored[-1].version, result, row.seed)
    CACHE.put(game_id, Folded(folded.state, stored[-1].version), stored)
    return dict(result)


def _seed(row: lobby.GameRow) -> bytes:
    """The seed of a row read with ``secret=True``; only the deciding code reads one."""
    if row.seed is None:
        raise LookupError(f"game {row.id} has no seed in game_seeds")
    return row.seed


def plain(events: list[Event]) -> list[Event]:
    """Events as they come back from jsonb (tuples as lists), so the cached fold equals a cold one."""
    return list(orjson.loads(orjson.dumps(events, option=orjson.OPT_NON_STR_KEYS)))


def _check_seats(game: ModuleType, seats: list[dict[str, Any]]) -> None:
    info = game.INFO
    if not info.min_seats <= len(seats) <= info.max_seats:
        raise InvalidOptions(f"{info.id} takes {info.min_seats} to {info.max_seats} seats, not {len(seats)}")
    for seat in seats:
        bot = seat.get("bot")
        if bot is not None and bot not in game.BOTS:
            raise InvalidOptions(f"no bot {bot!r} for {info.id}; bots: {sorted(game.BOTS)}")


def _new(event: Event, meta: dict[str, Any]) -> NewEvent:
    data = {k: v for k, v in event.items() if k != "type"}
    return NewEvent(event["type"], data, meta)


def _project(
    conn: Connection[Any],
    game_id: UUID,
    game: ModuleType,
    seats: list[dict[str, Any]],
    before: int,
    after: Folded,
    arranged: bool | None = None,
) -> list[Queued]:
    """Bring the lobby, snapshots and outbox in step with the events just appended."""
    over = game.is_over(after.state)
    to_move = [] if over else list(game.to_move(after.state))
    lobby.advance(conn, game_id, after.version, to_move, "scoring" if over else "active", arranged)
    remember(conn, game_id, game, before, after)
    return [enqueue(conn, task, args) for task, args in _work(game_id, seats, to_move, over, after.version)]


def work_for(row: lobby.GameRow) -> list[tuple[str, list[Any]]]:
    """The tasks a game waits on now, as its lobby row tells: a bot's turn, or its scoring."""
    return _work(row.id, row.seats, row.to_move, row.status == "scoring", row.version)


def _work(
    game_id: UUID, seats: list[dict[str, Any]], to_move: list[int], over: bool, version: int
) -> list[tuple[str, list[Any]]]:
    if over:
        return [("scoring.score_game", [str(game_id), version])]
    return [("bots.play_turn", [str(game_id), seat, version]) for seat in to_move if seats[seat]["bot"]]


def _replay(conn: Connection[Any], game_id: UUID, command_id: str, request_hash: str) -> Played | None:
    row = conn.execute(
        "SELECT request_hash, first_version, last_version FROM commands "
        "WHERE game_id = %s AND command_id = %s",
        (game_id, command_id),
    ).fetchone()
    if row is None:
        return None
    if row["request_hash"] != request_hash:
        raise KeyReused(f"Idempotency-Key {command_id!r} was used for a different command")
    first, last = row["first_version"], row["last_version"]
    game_row = lobby.get(conn, game_id)
    state = CACHE.state(conn, game_id, game_row.rules, game_row.version).state
    return Played(last, read(conn, game_id, after=first - 1, upto=last), game_row, state, replayed=True)
