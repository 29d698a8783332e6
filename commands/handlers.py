"""The write side: create a game, play a command, let a bot play, score a finished game.

Each is one transaction that appends events and brings the lobby row, seat tokens, snapshots
and outbox along, so no read model disagrees with the log and no bot turn or scoring is lost to
a crash between the append and the enqueue. What it returns carries everything an answer needs
(the state after, the outbox rows to hand to the broker), so nothing is read again after commit.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any
from uuid import UUID, uuid4

import orjson
from psycopg import Connection, errors
from psycopg.types.json import Jsonb

import games
from commands import seating, writes
from events import NewEvent, StoredEvent, VersionConflict, append, read
from events.outbox import Queued
from games import levels
from games.interface import Event, GameError, IllegalMove, Rules
from games.rng import Rng, game_key
from projections import clocks, lobby, players, ratings, resignation, seen, tokens, undo, webhooks
from projections.caches import Caches
from projections.fold import PLATFORM, Folded, fold, snapshot_due
from projections.state import States

#: ``check(rules, state, seat, command)``: raises a :class:`GameError` for a command to refuse.
Check = Callable[[Rules, Any, int, dict[str, Any]], None]


class GameOver(GameError):
    """The game has ended; it takes no more commands (HTTP 409)."""


class UndoRefused(GameError):
    """An ``undo`` with nothing the seat may take back now (HTTP 409); ``code`` says why
    (:data:`projections.undo.REASONS`)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code


class KeyReused(GameError):
    """An idempotency key came back with a different command (HTTP 422)."""


class CredentialsChanged(Exception):
    """A seat token of the game was reissued since the caller's token was read: nothing was
    written; the caller reads the tokens again and retries, or refuses a token no longer valid."""


@dataclass(frozen=True)
class Created:
    game: lobby.GameRow
    #: Bearer tokens of the human seats, shown once.
    tokens: dict[int, str]
    #: Outbox rows (a bot's first turn) to hand to the broker now that they are committed.
    queued: list[Queued]
    #: The creator's webhooks for this game, each with its signing secret, shown once.
    webhooks: list[dict[str, Any]] = field(default_factory=list)


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
    conn: Connection[Any],
    kind: str,
    seats: list[dict[str, Any]],
    options: dict[str, Any],
    *,
    clock: dict[str, Any] | None = None,
    hooks: list[dict[str, Any]] | None = None,
    rematch_of: UUID | None = None,
    caches: Caches | None = None,
    rated: bool = False,
    creator: UUID | None = None,
    expires_in: float | None = None,
) -> Created:
    """A new game of ``kind`` (``kupferkessel``...); seats may name a ``player`` (bound to it) or be
    ``open`` (:mod:`commands.seating`), ``clock`` is a parsed turn clock, ``hooks`` are the
    creator's webhooks for this game, ``rematch_of`` a finished game it follows. Elsewhere
    ``game_id`` is always one game's UUID. ``caches`` are the app's
    (:class:`projections.caches.Caches`); without, nothing is remembered. ``rated``: the game moves
    its players' ratings; ``creator``: the player whose key created it; ``expires_in``: seconds a
    game with open seats waits for players (:data:`OPEN_FOR` by default).

    A game with open seats is only created here: its setup runs when its last seat is taken
    (:func:`commands.openings.join`), from the seed committed now.
    """
    caches = caches or Caches.none()
    game = games.load(kind)
    seats = seating.seated(conn, game, seats, options, rated=rated, creator=creator)
    bound = {s["seat"]: UUID(s["player"]) for s in seats if s.get("player")}
    waiting = bool(seating.open_seats(seats))
    seed = secrets.token_bytes(32)
    seed_sha256 = hashlib.sha256(seed).hexdigest()
    opening = [] if waiting else set_up(game, options, seats, seed)
    new_id = uuid4()
    created: dict[str, Any] = {
        "game": kind,
        "seats": seats,
        "options": options,
        "seed_sha256": seed_sha256,
        "rules_version": game.INFO.rules_version,
    }
    if rated:
        created["rated"] = True
    if creator is not None:  # the player whose key created it: the game's creator
        created["creator"] = str(creator)
    if waiting:
        expires_in = OPEN_FOR if expires_in is None else expires_in
        created["expires_in"] = expires_in
        if clock is not None:
            created["clock"] = clock
    meta = {"rules_version": game.INFO.rules_version}
    with conn.transaction():
        lobby.insert(conn, new_id, kind, game.INFO.rules_version, options, seats, seed, seed_sha256)
        issued = [tokens.issue(conn, new_id, s["seat"]) for s in seats if not s["bot"] and not s.get("open")]
        if clock is not None:
            conn.execute("UPDATE games SET clock = %s WHERE id = %s", (Jsonb(clock), new_id))
        for seat, player in bound.items():
            players.bind(conn, new_id, seat, player)
        if rated or waiting or creator is not None:
            lobby.opened(conn, new_id, rated, creator, expires_in if waiting else None)
        hooks = [webhooks.register(conn, h["url"], h["kinds"], game=new_id) for h in hooks or []]
        if rematch_of is not None:
            taken = conn.execute(
                "UPDATE games SET rematch = %s WHERE id = %s AND rematch IS NULL AND status = 'finished'",
                (new_id, rematch_of),
            )
            if taken.rowcount != 1:
                raise RematchTaken("this game is not finished, or its rematch has started already")
        events = [NewEvent(f"{PLATFORM}GameCreated", created, meta), *(_new(e, meta) for e in opening)]
        if waiting:
            stored = append(conn, new_id, 0, events)
            conn.execute("UPDATE games SET version = 1, to_move = '[]' WHERE id = %s", (new_id,))
            row = lobby.get(conn, new_id)
            hooks = [webhooks.register(conn, h["url"], h["kinds"], game=new_id) for h in hooks or []]
            return Created(row, {token.seat: token.token for token in issued}, [], hooks)
        after = Folded(fold(game, opening), len(events))
        arranged = bool(opening and opening[0].get("arranged"))
        stored, queued = writes.save(
            conn, step_of(new_id, game, seats, 0, events, after, clock=clock, arranged=arranged)
        )
        row = lobby.get(conn, new_id)
    # Known here from now on, as a command of this process would leave them: the game's first
    # commands read neither their seat nor the game.
    caches.tokens.remember(new_id, issued)
    caches.states.put(new_id, after, stored, row=replace(row, seed=seed))
    return Created(row, {token.seat: token.token for token in issued}, queued, hooks)


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
    timed_out: bool = False,
    newest: Callable[[UUID], int] | None = None,
    caches: Caches | None = None,
    credentials: int | None = None,
) -> Played:
    """Decide ``command`` for ``seat`` and append what it caused; nothing is written on error.

    A hot game's state comes from the cache, so a command costs its lobby read and its write. With
    ``newest`` (the newest version of a game this process has heard of, from the web's listener)
    showing that nobody else has moved the game since this process did, and no bot to move after
    its last move (the worker plays those, and the listener hears only of the games it covers), it
    costs the write alone: decided on the cached state and row, written under the lobby row's
    guard, and decided again on the lobby's word if that finds the game moved after all or the
    rules refuse it there.
    ``check`` sees the command just before the rules do (after the version, game-over and
    idempotency checks), so a body it refuses gets its answer in the same order of errors.
    ``credentials``: the game's count of reissued seat tokens at which the seat's token was known
    (:class:`projections.tokens.KnownTokens`); a lobby row at another count raises
    :class:`CredentialsChanged` before anything is written or replayed.
    """
    states = (caches or Caches.none()).states
    key = None if command_id is None else (command_id, _request_hash(seat, command), seat)
    if key is not None:
        earlier = _replay(conn, game_id, key, states, credentials)
        if earlier is not None:
            return earlier
    if isinstance(command, dict) and command.get("type") == undo.COMMAND and bot is None:
        return _guarded(
            conn,
            game_id,
            key,
            states,
            credentials,
            partial(take_back, conn, game_id, seat, command, expected_version, key, states, credentials),
        )
    decision = _Decision(seat, command, key, bot, check, timed_out, states, credentials)
    hot = states.get(game_id) if newest is not None else None
    if (
        newest is not None
        and hot is not None
        and hot.row is not None
        and newest(game_id) <= hot.folded.version
        and expected_version in (None, hot.folded.version)
        and not any(hot.row.seats[s]["bot"] for s in hot.row.rules.to_move(hot.folded.state))
    ):
        with contextlib.suppress(errors.UniqueViolation, GameError, VersionConflict):
            return _decide(conn, hot.row, hot.folded, decision)

    def read_and_decide() -> Played:
        row, before = states.with_row(conn, game_id, partial(lobby.later, game_id=game_id, secret=True))
        if credentials is not None and row.credentials != credentials:
            raise CredentialsChanged(f"a seat token of game {game_id} was reissued")
        if expected_version is not None and expected_version != row.version:
            raise VersionConflict(game_id, expected_version, row.version)
        if row.over:
            raise GameOver("the game waits for players" if row.waiting else "the game is over")
        return _decide(conn, row, before, decision)

    return _guarded(conn, game_id, key, states, credentials, read_and_decide)


def _guarded(
    conn: Connection[Any],
    game_id: UUID,
    key: tuple[str, str, int] | None,
    states: States,
    credentials: int | None,
    write: Callable[[], Played],
) -> Played:
    """``write()``, or the answer of the same idempotency key's first use if it lost a race to it:
    the same key racing its first use loses at the append or at the key, or (having read the game
    after the winner's commit) finds its command no longer fits; either way it gets the winner's
    answer, if there is one."""
    try:
        return write()
    except (errors.UniqueViolation, GameError, VersionConflict):
        earlier = _replay(conn, game_id, key, states, credentials) if key is not None else None
        if earlier is None:
            raise
        return earlier


def take_back(
    conn: Connection[Any],
    game_id: UUID,
    seat: int,
    command: dict[str, Any],
    expected_version: int | None,
    key: tuple[str, str, int] | None,
    states: States,
    credentials: int | None = None,
) -> Played:
    """The platform's ``undo`` (:mod:`projections.undo`): ``seat``'s newest command of its turn taken
    back, recorded as ``kotlik.Undone``; :class:`UndoRefused` when there is none it may take back.

    The same in every game, and never a bot's (a bot's turn is decided whole). The game returns to
    the state before the command, read as any earlier state is; the clock keeps its deadline, as
    the seat is still the one to move.
    """
    row, before = states.with_row(conn, game_id, partial(lobby.later, game_id=game_id, secret=True))
    if credentials is not None and row.credentials != credentials:
        raise CredentialsChanged(f"a seat token of game {game_id} was reissued")
    if expected_version is not None and expected_version != row.version:
        raise VersionConflict(game_id, expected_version, row.version)
    if row.over:
        raise GameOver("the game waits for players" if row.waiting else "the game is over")
    if set(command) != {"type"}:
        raise IllegalMove(f"the undo command has only the field type; not {sorted(set(command) - {'type'})}")
    game = row.rules
    try:
        undo.check_turn(game, before.state, seat)
        taken = undo.target(undo.read(conn, game_id, before.version), before.version, seat, game)
    except undo.Refused as refused:
        raise UndoRefused(refused.code, refused.reason) from None
    restored = states.load(conn, game_id, game, taken.to)
    meta = {
        "seat": seat,
        "command": command,
        "at": before.version,
        "command_id": None if key is None else key[0],
        "bot": None,
        "rules_version": game.INFO.rules_version,
    }
    after = Folded(restored.state, before.version + 1)
    previous = list(game.to_move(before.state))
    events = [NewEvent(undo.UNDONE, taken.event(), meta)]
    write = step_of(
        row.id, game, row.seats, before.version, events, after, previous=previous, clock=row.clock
    )
    stored, queued = writes.save(conn, replace(write, key=key, credentials=credentials))
    states.put(row.id, after, stored, row=row)
    return Played(after.version, stored, row, after.state, queued=queued)


@dataclass(frozen=True)
class _Decision:
    """A command to decide, with what its write records besides its events."""

    seat: int
    command: dict[str, Any]
    key: tuple[str, str, int] | None
    bot: str | None
    check: Check | None
    timed_out: bool
    states: States
    credentials: int | None = None


def _decide(conn: Connection[Any], row: lobby.GameRow, before: Folded, decision: _Decision) -> Played:
    """Decide on ``before`` (the game's state at ``before.version``) and write it all at once."""
    game, seat, command = row.rules, decision.seat, decision.command
    if decision.check is not None:
        decision.check(game, before.state, seat, command)
    decided = plain(game.decide(before.state, seat, command, Rng(stream_key(row), f"v{before.version}")))
    if not decided:
        raise IllegalMove("that command changes nothing")
    meta = {
        "seat": seat,
        "command": command,
        "at": before.version,
        "command_id": None if decision.key is None else decision.key[0],
        "bot": decision.bot,
        "rules_version": game.INFO.rules_version,
    }
    if decision.timed_out:
        meta["timed_out"] = True
    after = Folded(fold(game, decided, before.state), before.version + len(decided))
    events = [_new(e, meta) for e in decided]
    previous = list(game.to_move(before.state))
    write = step_of(
        row.id, game, row.seats, before.version, events, after, previous=previous, clock=row.clock
    )
    stored, queued = writes.save(conn, replace(write, key=decision.key, credentials=decision.credentials))
    decision.states.put(row.id, after, stored, row=row)
    return Played(after.version, stored, row, after.state, queued=queued)


def play_bot(
    conn: Connection[Any],
    game_id: UUID,
    seat: int,
    expected: int,
    *,
    timed_out: bool = False,
    caches: Caches | None = None,
) -> Played | None:
    """Let the bot at ``seat`` move if the game is still at ``expected``; else do nothing.

    The bot sees only its seat's view and legal actions. Its rng is labelled by the version, so a
    redelivered task chooses the same command and the append at ``expected`` can succeed once.
    ``timed_out``: a human seat ran out of time, and the game's ``default`` bot moves for it.
    """
    caches = caches or Caches.none()
    row, now = caches.states.with_row(conn, game_id, partial(lobby.later, game_id=game_id, secret=True))
    name = TIMEOUT_BOT if timed_out else row.seats[seat]["bot"]
    if row.version != expected or row.over or seat not in row.to_move or not name:
        return None
    game, state = row.rules, now.state
    actions = game.legal_actions(state, seat)
    command = game.BOTS[name](seen.view(game, state, seat), actions, Rng(stream_key(row), f"bot:v{expected}"))
    try:
        return play(
            conn,
            game_id,
            seat,
            command,
            expected_version=expected,
            bot=name,
            timed_out=timed_out,
            caches=caches,
        )
    except VersionConflict:
        return None


#: The bot that moves for a seat whose time ran out (``clock.on_timeout: bot``).
TIMEOUT_BOT = "default"
#: How the platform records that a seat left a game: resigned, or forfeited on time.
RESIGNED = resignation.RESIGNED


class EntropyRefused(GameError):
    """Entropy a seat gives twice, or once the game has been dealt (HTTP 409)."""


def accept_entropy(row: lobby.GameRow, seat: int) -> None:
    """Whether ``seat`` may still give entropy to the game of ``row``; :class:`EntropyRefused` if not.

    Entropy counts only if given before setup, since setup is the first thing drawn with the key.
    A game is dealt when it is created with all its seats, so today a seat gives its entropy in
    ``POST /games``; a claim or a join before the deal calls this first.
    """
    if row.seats[seat].get("entropy") is not None:
        raise EntropyRefused(f"seat {seat} has given its entropy already; a seat gives it once")
    if row.version > 0:
        raise EntropyRefused(
            "the game has been dealt already: a seat's entropy counts only when given before setup "
            "(in its seat of POST /games)"
        )


class RematchTaken(GameError):
    """A rematch of a game that is not finished, or of one whose rematch exists (HTTP 409)."""


def resign(
    conn: Connection[Any],
    game_id: UUID,
    seats: list[int],
    reason: str,
    *,
    expected: int | None = None,
    caches: Caches | None = None,
) -> Played:
    """End a running game with ``seats`` resigning (``reason``: ``resigned`` or ``forfeit``).

    One platform event per seat, the same for every game (the rules never see it); the game goes
    to scoring, which puts the resignation in the result (:func:`score_game`).
    """
    states = (caches or Caches.none()).states
    with conn.transaction():
        row = lobby.get(conn, game_id, lock=True)
        if expected is not None and expected != row.version:
            raise VersionConflict(game_id, expected, row.version)
        if row.over:
            raise GameOver("the game is over")
        game = row.rules
        before = states.load(conn, game_id, game, row.version)
        meta = {"at": row.version, "rules_version": game.INFO.rules_version, "reason": reason}
        new = [NewEvent(RESIGNED, {"seat": seat, "reason": reason}, {**meta, "seat": seat}) for seat in seats]
        version = row.version + len(new)
        change, _ = clocks.change(row.clock, True, True)
        work = _work(game_id, row.seats, [], True, version)
        stored, queued = writes.save(
            conn, writes.Write(game_id, row.version, new, [], "scoring", clock=change, work=work)
        )
    states.put(game_id, Folded(before.state, version), stored)
    return Played(version, stored, row, before.state, queued=queued)


def timeout(
    conn: Connection[Any], game_id: UUID, expected: int, *, caches: Caches | None = None
) -> list[Queued]:
    """Act on a clocked game whose seats to move ran out of time, if it is still at ``expected``.

    ``bot``: the default bot makes the late human seats' moves until the turn passes on (the
    deadline is reset then); ``forfeit``: the late human seats forfeit and the game ends. Each step
    appends at the version it read, so two schedulers acting on the same expiry act once.
    """
    queued: list[Queued] = []
    for _ in range(MAX_TIMEOUT_MOVES):
        row = lobby.get(conn, game_id)
        if row.version != expected or row.over or row.clock is None or not clocks.is_expired(conn, game_id):
            break
        late = [seat for seat in row.to_move if not row.seats[seat]["bot"]]
        if not late:
            break
        if row.clock["on_timeout"] == "forfeit":
            with contextlib.suppress(VersionConflict, GameOver):  # another scheduler was first
                queued += resign(conn, game_id, late, "forfeit", expected=expected, caches=caches).queued
            break
        played = play_bot(conn, game_id, late[0], expected, timed_out=True, caches=caches)
        if played is None:
            break
        queued += played.queued
        expected = played.version
    return queued


#: Seconds a game with open seats waits for players unless its creator says otherwise: a week.
OPEN_FOR = 7 * 24 * 3600.0
#: The most moves a timed-out seat's bot makes in one go (a turn of many steps).
MAX_TIMEOUT_MOVES = 50


def score_game(
    conn: Connection[Any],
    game_id: UUID,
    expected: int,
    queued: list[Queued] | None = None,
    *,
    caches: Caches | None = None,
) -> dict[str, Any] | None:
    """Write the final breakdown of a game that has ended, once; reveal its seed.

    The outbox rows of its notices (``game_over``) are added to ``queued``, to hand over after.
    """
    states = (caches or Caches.none()).states
    with conn.transaction():
        row = lobby.get(conn, game_id, lock=True, secret=True)
        if row.status != "scoring" or row.version != expected:
            return None
        game = row.rules
        folded = states.load(conn, game_id, game, row.version)
        left = _resigned(conn, game_id)
        if left:  # seats resigned or forfeited: scored alike for every game
            result = resignation.result(game, folded.state, len(row.seats), left)
        else:
            result = game.score(folded.state)
        meta = {"rules_version": game.INFO.rules_version}
        scored = NewEvent(f"{PLATFORM}GameScored", {"score": result, "seed": _seed(row).hex()}, meta)
        if row.rated:  # before the append: see projections.ratings on why the order then agrees
            ratings.apply(conn, row.kind, row.seats, result)
        stored = append(conn, game_id, folded.version, [scored])
        lobby.finish(conn, game_id, stored[-1].version, result, row.seed)
        notices = webhooks.announce(
            conn, game_id, "game_over", {"version": stored[-1].version, "result": result}
        )
    states.put(game_id, Folded(folded.state, stored[-1].version), stored)
    if queued is not None:
        queued += notices
    return dict(result)


def _resigned(conn: Connection[Any], game_id: UUID) -> dict[int, str]:
    """The seats that left the game, and how (``resigned``/``forfeit``)."""
    rows = conn.execute(
        "SELECT data FROM events WHERE game_id = %s AND type = %s ORDER BY version", (game_id, RESIGNED)
    ).fetchall()
    return {int(r["data"]["seat"]): str(r["data"]["reason"]) for r in rows}


def keyed(seed: bytes, seats: list[dict[str, Any]]) -> bytes:
    """The key of a game's random stream from the server's ``seed`` and its ``seats`` as the log
    keeps them (each with its ``entropy`` if it gave some): :func:`games.rng.game_key`. Whatever
    seats a game (creation, a claim, a join) calls this once every seat has given what it will."""
    return game_key(seed, [seat.get("entropy") for seat in seats])


def stream_key(row: lobby.GameRow) -> bytes:
    """The key every stream of the game of ``row`` (read with ``secret=True``) is drawn with."""
    return keyed(_seed(row), row.seats)


def _seed(row: lobby.GameRow) -> bytes:
    """The seed of a row read with ``secret=True``; only the deciding code reads one."""
    if row.seed is None:
        raise LookupError(f"game {row.id} has no seed in game_seeds")
    return row.seed


def set_up(game: Rules, options: dict[str, Any], seats: list[dict[str, Any]], seed: bytes) -> list[Event]:
    """The opening events of a game seated ``seats``: at creation, or when its last open seat is
    taken; drawn with the key of the server's seed and every seat's entropy (:func:`keyed`)."""
    return plain(game.setup(dict(options), len(seats), Rng(keyed(seed, seats), "setup")))


def plain(events: list[Event]) -> list[Event]:
    """Events as they come back from jsonb (tuples as lists), so the cached fold equals a cold one."""
    return list(orjson.loads(orjson.dumps(events, option=orjson.OPT_NON_STR_KEYS)))


def _new(event: Event, meta: dict[str, Any]) -> NewEvent:
    data = {k: v for k, v in event.items() if k != "type"}
    return NewEvent(event["type"], data, meta)


def step_of(
    game_id: UUID,
    game: Rules,
    seats: list[dict[str, Any]],
    at: int,
    events: list[NewEvent],
    after: Folded,
    *,
    previous: list[int] | None = None,
    clock: dict[str, Any] | None = None,
    arranged: bool | None = None,
) -> writes.Write:
    """The write of ``events``, with the lobby, snapshot, clock, notices and outbox in step with them."""
    over = game.is_over(after.state)
    to_move = [] if over else list(game.to_move(after.state))
    # A seat that comes to move starts a new deadline; one that moves again (a turn of several
    # moves) or waits while others finish a shared turn keeps the one it has.
    arrived = [seat for seat in to_move if seat not in (previous or [])]
    newly = [seat for seat in arrived if not seats[seat]["bot"]]
    change, seconds = clocks.change(clock, bool(arrived), over)
    turn = {"version": after.version, "to_move": to_move}
    return writes.Write(
        game_id,
        at,
        events,
        to_move,
        "scoring" if over else "active",
        arranged=arranged,
        snapshot=(game.INFO.rules_version, after.state) if snapshot_due(at, after.version) else None,
        clock=change,
        seconds=seconds,
        work=_work(game_id, seats, to_move, over, after.version),
        notice=writes.Notice("your_turn", turn, newly) if newly else None,
    )


def work_for(row: lobby.GameRow) -> list[tuple[str, list[Any]]]:
    """The tasks a game waits on now, as its lobby row tells: a bot's turn, or its scoring."""
    return _work(row.id, row.seats, row.to_move, row.status == "scoring", row.version)


#: The task that plays a bot's turn, and the one for a bot that searches (:func:`games.levels.searches`):
#: the same work, on a queue of its own (:mod:`workers.queues`).
PLAY_TURN = "bots.play_turn"
THINK = "bots.think"


def _work(
    game_id: UUID, seats: list[dict[str, Any]], to_move: list[int], over: bool, version: int
) -> list[tuple[str, list[Any]]]:
    if over:
        return [("scoring.score_game", [str(game_id), version])]
    return [
        (THINK if levels.searches(seats[seat]["bot"]) else PLAY_TURN, [str(game_id), seat, version])
        for seat in to_move
        if seats[seat]["bot"]
    ]


def _request_hash(seat: int, command: dict[str, Any]) -> str:
    """What an ``Idempotency-Key`` is bound to: the same key with another command is refused."""
    return hashlib.sha256(json.dumps([seat, command], sort_keys=True).encode()).hexdigest()


def _replay(
    conn: Connection[Any],
    game_id: UUID,
    key: tuple[str, str, int],
    states: States,
    credentials: int | None = None,
) -> Played | None:
    """The answer of the command this seat first sent with ``key``, if there was one: a key is the
    seat's own, so another seat's use of it is none of this one's business. A token reissued
    since ``credentials`` gets no answer (:class:`CredentialsChanged`)."""
    command_id, request_hash, seat = key
    row = conn.execute(
        "SELECT request_hash, first_version, last_version FROM commands "
        "WHERE game_id = %s AND seat = %s AND command_id = %s",
        (game_id, seat, command_id),
    ).fetchone()
    if row is None:
        return None
    if row["request_hash"] != request_hash:
        raise KeyReused(f"Idempotency-Key {command_id!r} was used for a different command")
    first, last = row["first_version"], row["last_version"]
    game_row = lobby.get(conn, game_id)
    if credentials is not None and game_row.credentials != credentials:
        raise CredentialsChanged(f"a seat token of game {game_id} was reissued")
    state = states.load(conn, game_id, game_row.rules, game_row.version).state
    return Played(last, read(conn, game_id, after=first - 1, upto=last), game_row, state, replayed=True)
