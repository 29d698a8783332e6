"""Clients racing through ``kotlik web`` (two gunicorn processes, each with its own state cache):
one command wins each version, every 201 is exactly one stored command, and a key raced by many
requests is played once and replayed to the rest."""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from uuid import UUID

import pytest
from conftest import check_game, size
from httpclient import Client, Reply, create, moves
from processes import environment, kotlik_web

#: Each test stops itself well before this; the timeout only guards CI against a hang.
pytestmark = [pytest.mark.faults, pytest.mark.timeout(600)]

CLIENTS = size("CLIENTS", 200)
GAMES = max(1, CLIENTS // 4)
SAME_KEY = 20


@pytest.fixture(scope="module")
def web(broker: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    log = tmp_path_factory.mktemp("racing") / "web.log"
    with kotlik_web(environment(**broker), log, workers=2) as api:
        yield api


def race(count: int, call: Callable[[int], Reply]) -> list[Reply | Exception]:
    """``call(i)`` for i < count, all released at once from threads of their own."""
    gate = threading.Barrier(count, timeout=60)

    def run(i: int) -> Reply | Exception:
        gate.wait()
        try:
            return call(i)
        except Exception as e:  # a refused connection is a figure, not a crash of the test
            return e

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def statuses(replies: list[Reply | Exception]) -> Counter[str]:
    return Counter(str(r.status) if isinstance(r, Reply) else type(r).__name__ for r in replies)


def keyed(seat: Client, path: str, body: dict[str, Any], key: str) -> Callable[[int], Reply]:
    return lambda _: seat.post(path, body, headers={"Idempotency-Key": key}, timeout=60)


def two_humans(web: Client) -> dict[str, Any]:
    return create(web, "kupferkessel", [{"name": "A"}, {"name": "B"}])


def first_move(web: Client, game: dict[str, Any]) -> tuple[Client, dict[str, Any]]:
    """The seat to move and the one command it has."""
    summary = web.get(f"/api/v1/games/{game['id']}").body
    seat = web.seat(game["seats"][summary["to_move"][0]]["token"])
    (command,) = seat.get(f"/api/v1/games/{game['id']}/actions").body
    return seat, command


def test_many_clients_at_one_version_one_wins(web: Client, pool: Any, report: Any) -> None:
    game = two_humans(web)
    seat, command = first_move(web, game)
    body = {**command, "expected_version": game["version"]}
    path = f"/api/v1/games/{game['id']}/commands"
    started = time.monotonic()
    replies = race(CLIENTS, lambda _: seat.post(path, body, timeout=60))
    seconds = round(time.monotonic() - started, 1)
    counts = statuses(replies)
    with pool.connection() as conn:
        check = check_game(conn, UUID(game["id"]), finished=False)
    report(
        clients=CLIENTS,
        by_status=dict(counts),
        commands_stored=check["commands"],
        events_lost=check["gaps"],
        duplicated=check["duplicated"],
        seconds=seconds,
    )
    assert counts == {"201": 1, "409": CLIENTS - 1}, counts
    assert not check["problems"] and check["commands"] == 1, check


def test_clients_over_many_games_every_201_is_one_stored_command(web: Client, pool: Any, report: Any) -> None:
    """Four clients a game, each playing whatever its game's seat to move may do, five times."""
    games = [two_humans(web) for _ in range(GAMES)]
    seats = [{s["seat"]: web.seat(s["token"]) for s in g["seats"]} for g in games]
    won: list[list[Any]] = [[] for _ in games]
    lock = threading.Lock()

    def play(i: int) -> Reply:
        g = i % len(games)
        path = f"/api/v1/games/{games[g]['id']}"
        reply: Reply | None = None
        attempts = 0
        while attempts < 5:
            summary = web.get(path, timeout=60).body
            seat = seats[g][summary["to_move"][0]]
            actions = moves(seat.get(f"{path}/actions", timeout=60).body)
            if not actions:  # another client moved the game on between the two reads
                continue
            command = {**actions[(i + attempts) % len(actions)], "expected_version": summary["version"]}
            reply = seat.post(f"{path}/commands", command, timeout=60)
            attempts += 1
            if reply.status == 201:
                with lock:
                    won[g].append(reply.body)
        assert reply is not None
        return reply

    started = time.monotonic()
    replies = race(CLIENTS, play)
    seconds = round(time.monotonic() - started, 1)
    mismatched, problems = 0, {}
    with pool.connection() as conn:
        checks = [check_game(conn, UUID(g["id"]), finished=False) for g in games]
        for g, check in zip(games, checks, strict=True):
            if check["problems"]:
                problems[g["id"]] = check["problems"]
        for g, answers in zip(games, won, strict=True):
            stored = {
                e["version"]: e
                for e in conn.execute(
                    "SELECT version, type, meta FROM events WHERE game_id = %s", (UUID(g["id"]),)
                ).fetchall()
            }
            for answer in answers:
                versions = [e["version"] for e in answer["events"]]
                ats = {stored[v]["meta"].get("at") for v in versions if v in stored}
                if len(ats) != 1 or any(v not in stored for v in versions):
                    mismatched += 1
    acknowledged = sum(len(w) for w in won)
    commands = sum(c["commands"] for c in checks)
    report(
        clients=CLIENTS,
        games=len(games),
        last_reply_by_status=dict(statuses(replies)),
        acknowledged=acknowledged,
        commands_stored=commands,
        acknowledged_not_stored=mismatched,
        events_lost=sum(c["gaps"] for c in checks),
        duplicated=sum(c["duplicated"] for c in checks),
        seconds=seconds,
    )
    assert not [r for r in replies if isinstance(r, Exception)], statuses(replies)
    assert not problems, problems
    assert acknowledged == commands and mismatched == 0


#: Games each same-key race is run on: the losers' window is narrow, so once is not enough to see it.
ROUNDS = 3


@pytest.mark.parametrize(
    "expected_version",
    [
        pytest.param(True, id="expected-version"),
        pytest.param(False, id="no-expected-version"),
    ],
)
def test_one_idempotency_key_raced_is_played_once(
    web: Client, pool: Any, report: Any, expected_version: bool
) -> None:
    counts: Counter[str] = Counter()
    replayed, versions, commands, keys, duplicated, problems = 0, [], 0, 0, 0, []
    for _ in range(ROUNDS):
        game = two_humans(web)
        seat, command = first_move(web, game)
        body = {**command, "expected_version": game["version"]} if expected_version else command
        path = f"/api/v1/games/{game['id']}/commands"
        key = str(uuid.uuid4())
        replies = race(SAME_KEY, keyed(seat, path, body, key))
        counts += statuses(replies)
        answered = [r for r in replies if isinstance(r, Reply) and r.status == 201]
        replayed += sum(r.headers.get("Idempotent-Replayed") == "true" for r in answered)
        versions.append(sorted({r.body["version"] for r in answered}))
        with pool.connection() as conn:
            check = check_game(conn, UUID(game["id"]), finished=False)
            (stored,) = conn.execute(
                "SELECT count(*) AS n FROM commands WHERE game_id = %s", (UUID(game["id"]),)
            ).fetchall()
        commands += check["commands"]
        keys += stored["n"]
        duplicated += check["duplicated"]
        problems += check["problems"]
    report(
        rounds=ROUNDS,
        clients=SAME_KEY,
        by_status=dict(counts),
        replayed=replayed,
        versions_answered=versions,
        commands_stored=commands,
        keys_stored=keys,
        duplicated=duplicated,
    )
    assert not problems and commands == ROUNDS and keys == ROUNDS, problems
    assert counts == {"201": SAME_KEY * ROUNDS}, counts
    assert all(len(v) == 1 for v in versions), versions
    assert replayed == (SAME_KEY - 1) * ROUNDS
