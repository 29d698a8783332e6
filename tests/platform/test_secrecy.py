"""No read path shows a seat or a spectator more than the game says it may know, for every game.

Seeded games of all four games, with the options that add secrets (recipes, arranged decks, animals,
the solo game's Ostara), are played through real HTTP. At every version each seat and the spectator
read ``/state``, ``?at=`` replays, ``/events``, ``/stream``, ``/actions``, the summary (alone and in
the lobby) and the export, and each answer is checked against an oracle built from the game itself
over the log and state read straight from the database:

- exactly what the game declares: ``view(now, seat)``, ``recall(now, then, seat)`` for a replay,
  ``redact(now, event, seat)`` for each event, ``legal_actions(now, seat)`` (a spectator: none),
  and a command whole only to its own seat;
- and nothing secret anywhere in an answer (headers, platform events, options, the export's meta
  included): every string of the raw log and state that the game's own declarations never show
  this seat is a secret, and no answer may carry one. No needle is chosen by hand.

``KOTLIK_SECRECY_COMMANDS`` sets how many commands the slow variant plays per game (default 40; a
game that ends first stops there: once over, everything is open).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any
from uuid import UUID

import pytest
from httpclient import Client, create, streamed

import games
from commands.handlers import play_bot
from events import StoredEvent, read
from games.rng import Rng
from projections import lobby, undo
from projections.fold import PLATFORM, opening_version, state_at

#: Commands played per game by the default run: enough for a covered cauldron card, a drawn hand.
COMMANDS = 8


def _cases() -> list[tuple[str, list[dict[str, Any]], dict[str, Any]]]:
    """Each game with every option that adds a secret; arrangements from the games' catalogs."""
    kk_cards = [c["id"] for c in games.load("kupferkessel").catalog()["cards"]]
    two = [{"name": "A"}, {"name": "B"}]
    return [
        ("kupferkessel", two, {"recipes": True, "arranged": {"deck": list(reversed(kk_cards))}}),
        ("skodakouzla", two, {"arranged": {"shop": ["drak"], "decks": [["mec", "stit"], ["stit"]]}}),
        (
            "carodeni",
            [*two, {"name": "C"}],
            {"animals": True, "animal_goals": 1, "arranged": {"witch_deck": ["W07", "W03", "W11", "W20"]}},
        ),
        # The solo game: Ostara's seat is the bot `ostara`'s, moved here as the worker moves it.
        (
            "carodeni",
            [{"name": "A"}, {"name": "Ostara", "bot": "ostara"}],
            {"solo": True, "difficulty": "experienced", "arranged": {"ostara_tokens": [["O2", "O1"]]}},
        ),
        ("carcassonne", [*two, {"name": "C"}], {"arranged": ["U.1", "V.1", "X.1"]}),
    ]


CASES = _cases()
IDS = [
    "kupferkessel-recipes-arranged",
    "skodakouzla-arranged",
    "carodeni-animals-arranged",
    "carodeni-solo-arranged",
    "carcassonne-arranged",
]


@dataclass
class Table:
    """A game under test: its clients by seat (``None``: the spectator) and what it answered."""

    api: Client
    game: dict[str, Any]
    rules: ModuleType
    clients: dict[int | None, Client]
    #: (seat, the /commands answer) of every command played.
    answers: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    @property
    def id(self) -> UUID:
        return UUID(self.game["id"])

    @property
    def path(self) -> str:
        return f"/api/v1/games/{self.game['id']}"


@dataclass
class Oracle:
    """What the game itself says ``seat`` may know now, from the database."""

    row: lobby.GameRow | None
    state: Any
    events: list[StoredEvent]
    seat: int | None
    rules: ModuleType
    pool: Any

    def view(self) -> Any:
        return self.rules.view(self.state, self.seat)

    def actions(self) -> list[Any]:
        """The rules' legal commands, and last the platform's undo when the log allows one."""
        if self.seat is None:
            return []
        legal = self.rules.legal_actions(self.state, self.seat)
        entries = {e.version: undo.Entry(e.version, e.type, e.data, e.meta) for e in self.events}
        try:
            undo.check_turn(self.rules, self.state, self.seat)
            undo.target(entries, max(entries), self.seat, self.rules)
        except undo.Refused:
            return legal
        return [*legal, {"type": undo.COMMAND}] if legal else legal

    def event(self, event: StoredEvent, state: Any | None = None) -> dict[str, Any]:
        """The event as the game redacts it; a platform event without its ``options`` (the game
        declares those in its own opening event; the secrets check covers the platform's copy)."""
        data = {k: v for k, v in event.data.items() if k != "options"}
        if not event.type.startswith(PLATFORM):
            body = self.rules.redact(self.state if state is None else state, event.body(), self.seat)
            data = {k: v for k, v in body.items() if k != "type"}
        return {"version": event.version, "type": event.type, "data": data, "seat": event.seat}

    def log(self) -> list[dict[str, Any]]:
        return [self.event(e) for e in self.events]

    def command(self, event: StoredEvent) -> Any:
        command = event.meta.get("command")
        if not isinstance(command, dict):
            return None
        if event.seat != self.seat:
            return {"type": command["type"]}
        recall = self.rules.redact_command
        return command if recall is None else recall(self.state, command, self.seat)

    def recalled(self, at: int) -> Any:
        assert self.row is not None
        with self.pool.connection() as conn:
            then = state_at(conn, self.row.id, self.rules, at=at).state
        return self.rules.recall(self.state, then, self.seat)

    def hidden_options(self) -> dict[str, Any]:
        """The options (as created) whose values the game's own redaction of its opening event
        changes or drops for this seat: an arrangement, say."""
        assert self.row is not None
        game_events = (e for e in self.events if not e.type.startswith(PLATFORM))
        opening = next((e for e in game_events if "options" in e.data), None)
        if opening is None:
            return {}
        shown = self.rules.redact(self.state, opening.body(), self.seat).get("options") or {}
        return {k: v for k, v in self.row.options.items() if k not in shown or shown[k] != v}

    def secrets(self) -> set[str]:
        """Every string of the raw log, state and arrangement that nothing the game shows this seat
        contains: the oracle's own list of what is hidden from it."""
        assert self.row is not None
        raw = _strings([e.data for e in self.events]) | _strings(self.state) | _strings(self.row.options)
        shown = _strings([self.log(), self.view(), self.actions()])
        shown |= _strings([self.command(e) for e in self.events])
        return raw - shown


def _strings(value: Any) -> set[str]:
    """Every string value (not key) in a JSON-like value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _oracle(pool: Any, table: Table, seat: int | None) -> Oracle:
    with pool.connection() as conn:
        row = lobby.get(conn, table.id)
        state = state_at(conn, table.id, table.rules, at=row.version).state
        events = read(conn, table.id, upto=row.version)
    return Oracle(row, state, events, seat, table.rules, pool)


def _plain(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as the oracle gives them: a platform event's ``options`` left out (see ``Oracle.event``)."""
    out = []
    for e in events:
        data = e["data"]
        if e["type"].startswith(PLATFORM):
            data = {k: v for k, v in data.items() if k != "options"}
        out.append({"version": e["version"], "type": e["type"], "data": data, "seat": e["seat"]})
    return out


def _options_kept(hidden: dict[str, Any], where: str, *answers: Any) -> None:
    """No ``options`` anywhere in the answers shows an option the game hides as it is."""

    def found(value: Any) -> Iterator[dict[str, Any]]:
        if isinstance(value, dict):
            if isinstance(value.get("options"), dict):
                yield value["options"]
            for v in value.values():
                yield from found(v)
        elif isinstance(value, list):
            for v in value:
                yield from found(v)

    shown = list(found(list(answers)))
    assert shown, f"{where}: the answers name no options, so this proves nothing"
    for options in shown:
        leaked = [k for k, v in hidden.items() if k in options and options[k] == v]
        assert not leaked, f"{where} shows options the game hides: {leaked}"


def _no_secret(secrets: set[str], where: str, *answers: Any) -> None:
    leaked = secrets & _strings(list(answers))
    assert not leaked, f"{where} shows what the game hides from this seat: {sorted(leaked)[:10]}"


def _check(table: Table, pool: Any, *, replays: Sequence[int], stream: bool) -> dict[int | None, Any]:
    """Every read path, for every seat and the spectator, against the game's own oracle."""
    path = table.path
    seen: dict[int | None, Any] = {}
    for seat, client in table.clients.items():
        oracle = _oracle(pool, table, seat)
        where = f"{table.game['game']} v{oracle.row.version} seat {seat}"
        assert oracle.row.status == "active", where
        secrets = oracle.secrets()

        state = client.get(f"{path}/state")
        assert state.status == 200 and state.body["seat"] == seat, where
        assert state.body["view"] == oracle.view(), f"{where}: /state"
        actions = client.get(f"{path}/actions")
        assert actions.body == oracle.actions(), f"{where}: /actions"

        log = client.get(f"{path}/events").body
        assert _plain(log) == oracle.log(), f"{where}: /events"
        commands = {e.version: oracle.command(e) for e in oracle.events}
        assert [e["command"] for e in log] == [commands[e["version"]] for e in log], f"{where}: commands"

        summary = client.get(path).body
        assert summary["seed"] is None, where
        lobby_page = client.get(f"/api/v1/games?game={table.game['game']}&page_size=100").body
        listed = [g for g in lobby_page if g["id"] == table.game["id"]]
        assert listed and listed[0]["seed"] is None, where

        export = client.get(f"{path}/export")
        lines = [json.loads(line) for line in export.raw.splitlines()]
        assert set(lines.pop()) == {"signature"}, f"{where}: the export ends in its signature"
        head, body = lines[0], lines[1:]
        assert head["seed"] is None and head["redacted"] is True and head["seat"] == seat, where
        assert _plain(body) == oracle.log(), f"{where}: export"
        assert all("command_id" not in e["meta"] for e in body), where
        assert [e["meta"].get("command") for e in body] == [commands[e["version"]] for e in body], where

        replayed = []
        for at in replays:
            past = client.get(f"{path}/state?at={at}")
            assert past.status == 200, (where, at, past.body)
            assert past.body["view"] == oracle.recalled(at), f"{where}: ?at={at}"
            replayed.append(past.body)

        live = streamed(client, path, oracle.row.version) if stream else []
        if stream:
            assert _plain(live) == oracle.log(), f"{where}: /stream"

        _options_kept(oracle.hidden_options(), where, log, summary, listed, lines, live)
        # A 201 shows what the mover might see when it was given; one given before a later move
        # covered a card is checked then (_answers_as_redacted), not against today's secrets.
        answers = [a for s, a in table.answers if s == seat and a["version"] == oracle.row.version]
        _no_secret(
            secrets,
            where,
            state.body,
            dict(state.headers),
            actions.body,
            log,
            summary,
            listed,
            lines,
            replayed,
            live,
            answers[-1:] if answers else [],
        )
        seen[seat] = (oracle.view(), oracle.log())
    return seen


def _answers_as_redacted(table: Table, pool: Any) -> None:
    """Each /commands answer showed its events as the rules redact them for the mover just after."""
    for seat, answer in table.answers:
        at, first = answer["version"], answer["events"][0]["version"]
        with pool.connection() as conn:
            state = state_at(conn, table.id, table.rules, at=at).state
            events = read(conn, table.id, after=first - 1, upto=at)
        oracle = Oracle(None, state, events, seat, table.rules, pool)
        assert _plain(answer["events"]) == [oracle.event(e, state) for e in events]


def _play(table: Table, pool: Any, commands: int, seed: int) -> None:
    """Play ``commands`` commands with the game's random bot, checking every path after each."""
    choose = table.rules.BOTS["random"]
    rng = Rng(str(seed).encode(), "secrecy")
    picks = random.Random(seed)
    with pool.connection() as conn:
        opening = opening_version(conn, table.id)
    _let_bots_move(table, pool)
    seen = _check(table, pool, replays=range(opening, opening + 1), stream=False)
    hides = any(seen[a] != seen[b] for a in seen for b in seen if a != b)
    for n in range(commands):
        summary = table.api.get(table.path).body
        if not summary["to_move"]:
            break
        seat = summary["to_move"][0]
        client = table.clients[seat]
        view = client.get(f"{table.path}/state").body["view"]
        command = choose(view, _moves(client.get(f"{table.path}/actions").body), rng)
        reply = client.post(f"{table.path}/commands", {**command, "expected_version": summary["version"]})
        assert reply.status == 201, (command, reply)
        table.answers.append((seat, reply.body))
        _let_bots_move(table, pool)
        summary = table.api.get(table.path).body
        if summary["status"] != "active":
            break
        version = summary["version"]
        last = n == commands - 1 or n % 10 == 9
        # Every version is replayed at the end (and every ten commands, in case the game ends
        # first); along the way, a few (the replay depends on now).
        versions = list(range(opening, version + 1))
        replays = versions if last else sorted(picks.sample(versions, min(3, len(versions))))
        seen = _check(table, pool, replays=replays, stream=last)
        hides = hides or any(seen[a] != seen[b] for a in seen for b in seen if a != b)
    _answers_as_redacted(table, pool)
    assert hides, "the seats must see differently, or this game proves nothing"


def _let_bots_move(table: Table, pool: Any) -> None:
    """Until a person is to move, move the bots' seats (solo Čarodění's Ostara) as the worker does;
    the session's worker, if one runs, may be first, so every check sees a game at rest."""
    while (summary := table.api.get(table.path).body)["to_move"]:
        seat = summary["to_move"][0]
        if seat in table.clients:
            return
        with pool.connection() as conn:
            if play_bot(conn, table.id, seat, summary["version"]) is None:
                time.sleep(0.05)  # the worker moved (or is moving) first


def _table(live_url: str, case: tuple[str, list[dict[str, Any]], dict[str, Any]]) -> Table:
    api = Client(live_url)
    game_id, seats, options = case
    game = create(api, game_id, seats, options)
    clients: dict[int | None, Client] = {None: api}
    clients.update({s["seat"]: api.seat(s["token"]) for s in game["seats"] if s["token"]})
    return Table(api, game, games.load(game_id), clients)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_read_path_shows_each_seat_only_what_its_game_allows(
    live_url: str, pool: Any, case: tuple[str, list[dict[str, Any]], dict[str, Any]]
) -> None:
    _play(_table(live_url, case), pool, COMMANDS, seed=CASES.index(case))


def test_a_replay_of_a_running_kupferkessel_cannot_rebuild_a_cauldron(live_url: str, pool: Any) -> None:
    """The issue's leak: ``?at=`` for every version showed each top card later covered."""
    table = _table(live_url, CASES[0])
    choose, rng = table.rules.BOTS["random"], Rng(b"cauldron", "secrecy")
    for _ in range(12):
        client = table.clients[table.api.get(table.path).body["to_move"][0]]
        view = client.get(f"{table.path}/state").body["view"]
        command = choose(view, _moves(client.get(f"{table.path}/actions").body), rng)
        assert client.post(f"{table.path}/commands", command).status == 201
    with pool.connection() as conn:
        state = state_at(conn, table.id, table.rules).state
        opening = opening_version(conn, table.id)
        version = lobby.get(conn, table.id).version
    covered = {card for cauldron in state["cauldrons"] for card in cauldron[:-1]}
    assert covered, "twelve commands cover some cauldron card"
    tops = set()
    for at in range(opening, version + 1):
        view = table.api.get(f"{table.path}/state?at={at}").body["view"]
        tops |= {c["top"] for c in view["cauldrons"]}
    assert not covered & tops


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_longer_games_show_each_seat_only_what_its_game_allows(
    live_url: str, pool: Any, case: tuple[str, list[dict[str, Any]], dict[str, Any]]
) -> None:
    commands = int(os.environ.get("KOTLIK_SECRECY_COMMANDS", "40"))
    _play(_table(live_url, case), pool, commands, seed=100 + CASES.index(case))


def test_a_running_games_seed_is_read_only_by_the_deciding_code_and_revealed_when_scored(pool: Any) -> None:
    """The seed is in ``game_seeds`` (which only create, play, a bot's move and scoring read), not in
    the row every read path reads, until scoring copies it there."""
    import commands

    rules = games.load("kupferkessel")
    with pool.connection() as conn:
        created = commands.create_game(conn, "kupferkessel", [{"name": "A"}, {"name": "B"}], {})
        game_id = created.game.id
        assert created.game.seed is None and lobby.get(conn, game_id).seed is None
        assert conn.execute("SELECT seed FROM games WHERE id = %s", (game_id,)).fetchone()["seed"] is None
        secret = lobby.get(conn, game_id, secret=True).seed
        assert secret is not None and hashlib.sha256(secret).hexdigest() == created.game.seed_sha256
        page, _ = lobby.page(conn, "kupferkessel", None, 100, 0)
        assert all(r.seed is None for r in page if r.status != "finished")
        row = lobby.get(conn, game_id)
        while row.status == "active":
            state = state_at(conn, game_id, rules).state
            seat = row.to_move[0]
            actions = rules.legal_actions(state, seat)
            command = rules.BOTS["random"](rules.view(state, seat), actions, Rng(b"end", f"v{row.version}"))
            commands.play(conn, game_id, seat, command)
            row = lobby.get(conn, game_id)
        assert row.seed is None, "scoring reveals the seed, not the game's end"
        commands.score_game(conn, game_id, row.version)
        assert lobby.get(conn, game_id).seed == secret


@pytest.mark.parametrize("kind", ["kupferkessel", "skodakouzla"])
def test_a_bot_is_given_its_seats_view_and_nothing_more(
    pool: Any, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker's bot turn hands the bot what its seat may see (:func:`projections.seen.view`),
    never the state with the others' hidden cards in it."""
    import commands

    rules = games.load(kind)
    given: list[Any] = []

    def spy(view: Any, actions: Sequence[dict[str, Any]], rng: Rng) -> dict[str, Any]:
        given.append(view)
        return dict(actions[0])

    monkeypatch.setitem(rules.BOTS, "default", spy)
    with pool.connection() as conn:
        game_id = commands.create_game(
            conn, kind, [{"name": "A"}, {"name": "B", "bot": "default"}], {}
        ).game.id
        row = lobby.get(conn, game_id)
        while 1 not in row.to_move:  # the human plays until it is the bot's turn
            state = state_at(conn, game_id, rules).state
            commands.play(conn, game_id, row.to_move[0], dict(rules.legal_actions(state, row.to_move[0])[0]))
            row = lobby.get(conn, game_id)
        state = state_at(conn, game_id, rules).state
        assert play_bot(conn, game_id, 1, row.version) is not None
    assert given == [rules.view(state, 1)]
    assert given[0] != state and given[0] != rules.view(state, 0)


def _moves(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``/actions`` without the platform's undo: a bot never takes one."""
    return [a for a in actions if a["type"] != undo.COMMAND]
