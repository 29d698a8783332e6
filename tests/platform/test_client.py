"""The Python client (``kotlik_client``) and ``kotlik play`` against a real ``kotlik web`` and worker.

Faults the client must survive (a connection cut before its answer, a stream cut mid-way, a
503 or 429 from in front of the server) come from a small TCP proxy between the two; the server
behind it is the real one.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from processes import ROOT, environment, kotlik_web, wait_until

from games.kupferkessel.content import card_order
from kotlik_client import Client, ProblemError, types
from kotlik_client.play import _rejoin, add_arguments

pytestmark = pytest.mark.e2e

TWO_HUMANS = [{"name": "Ann"}, {"name": "Bob"}]


class CuttingProxy:
    """Forwards TCP connections to ``upstream``; each new connection takes the next plan queued:

    - ``("cut", n)``: forward the request, and of the answer only what precedes its ``n + 1``-th
      server-sent event (``n = 0``: nothing), then close both sides;
    - ``("answer", raw)``: answer ``raw`` without asking the server.
    """

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.plans: list[tuple[str, Any]] = []
        self.connections = 0
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            self.connections += 1
            plan = self.plans.pop(0) if self.plans else ("pass", None)
            threading.Thread(target=self._serve, args=(client, plan), daemon=True).start()

    def _serve(self, client: socket.socket, plan: tuple[str, Any]) -> None:
        with client:
            if plan[0] == "answer":
                client.recv(65536)
                client.sendall(plan[1])
                return
            with socket.create_connection(("127.0.0.1", self.upstream)) as server:
                threading.Thread(target=_pump, args=(client, server), daemon=True).start()
                try:
                    self._relay(server, client, plan[1] if plan[0] == "cut" else None)
                finally:  # shutdown, not only close: it ends the pump blocked reading the client
                    for sock in (client, server):
                        with contextlib.suppress(OSError):
                            sock.shutdown(socket.SHUT_RDWR)

    @staticmethod
    def _relay(server: socket.socket, client: socket.socket, budget: int | None) -> None:
        """The answer to the client, cut before its ``budget + 1``-th event (None: whole)."""
        seen = b""
        while chunk := _recv(server):
            if budget is not None:
                seen += chunk
                marks = [i for i in range(len(seen)) if seen.startswith(b"id: ", i)]
                if budget == 0 or len(marks) > budget:
                    keep = marks[budget] - (len(seen) - len(chunk)) if budget and marks else 0
                    client.sendall(chunk[: max(keep, 0)])
                    return
            try:
                client.sendall(chunk)
            except OSError:  # the client went away
                return


def _recv(sock: socket.socket) -> bytes:
    try:
        return sock.recv(65536)
    except OSError:
        return b""


def _pump(source: socket.socket, target: socket.socket) -> None:
    """The request to the server; once the client hangs up, the server's side goes too."""
    while data := _recv(source):
        try:
            target.sendall(data)
        except OSError:
            return
    with contextlib.suppress(OSError):
        target.shutdown(socket.SHUT_RDWR)


def _canned(status: str, retry_after: int, problem: dict[str, Any]) -> bytes:
    body = json.dumps(problem).encode()
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: application/problem+json\r\nRetry-After: {retry_after}\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


@pytest.fixture(scope="module")
def web(broker: dict[str, str], worker: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``kotlik web`` with the session's worker moving the bots; its URL."""
    log = tmp_path_factory.mktemp("client") / "web.log"
    with kotlik_web(environment(**broker), log) as api:
        yield api.base


@pytest.fixture
def proxy(web: str) -> CuttingProxy:
    return CuttingProxy(int(web.rsplit(":", 1)[1]))


class Recorded:
    """A ``sleep`` that sleeps, remembering how long it was asked to."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        time.sleep(seconds)


def _two_humans(server: Client) -> tuple[str, Client, Client]:
    game = server.create("kupferkessel", TWO_HUMANS)
    ann, bob = (server.seat(s["token"]) for s in game["seats"])
    return game["id"], ann, bob


def _to_move(server: Client, game_id: str, seats: list[Client]) -> Client:
    return seats[server.summary(game_id)["to_move"][0]]


def test_the_typed_dicts_type_only_fields_the_server_sends(web: str) -> None:
    served = Client(web).transport.request("GET", "/api/v1/openapi.json").json()["components"]["schemas"]
    mirrored = {
        "GameSummary": types.Summary,
        "CreatedGame": types.CreatedGame,
        "CreatedSeat": types.CreatedSeat,
        "Seat": types.Seat,
        "State": types.State,
        "PlatformEvent": types.Event,  # ``Event`` is a union of the games'; every branch has these fields
        "Appended": types.Appended,
        "Problem": types.Problem,
        "Score": types.Score,
    }
    for component, typed in mirrored.items():  # a field the server adds is passed through untyped
        assert set(typing.get_type_hints(typed)) <= set(served[component]["properties"]), component


def test_create_state_actions_play_events(web: str) -> None:
    server = Client(web)
    game_id, ann, bob = _two_humans(server)
    opening = ann.state(game_id)
    assert opening["seat"] == 0 and not opening["over"] and isinstance(opening["view"], dict)
    mover = _to_move(server, game_id, [ann, bob])
    action = mover.actions(game_id)[0]
    played = mover.play(game_id, action, expected_version=opening["version"])
    assert played["version"] > opening["version"]
    assert played["events"][0]["command"]["type"] == action["type"]
    assert server.summary(game_id)["version"] == played["version"]
    assert ann.state(game_id, at=opening["version"])["version"] == opening["version"]
    logged = ann.events(game_id, after=opening["version"])
    assert [e["version"] for e in logged] == [e["version"] for e in played["events"]]
    assert server.seat(None).actions(game_id) == []  # a spectator may do nothing


def test_errors_are_raised_with_their_problem_details(web: str) -> None:
    server = Client(web)
    game_id, ann, bob = _two_humans(server)
    mover = _to_move(server, game_id, [ann, bob])
    version = server.summary(game_id)["version"]
    with pytest.raises(ProblemError) as illegal:
        mover.play(game_id, {"type": "move", "steps": "far"})
    assert illegal.value.status == 422 and illegal.value.errors and illegal.value.title
    assert illegal.value.type.endswith("illegal-move")
    mover.play(game_id, mover.actions(game_id)[0], expected_version=version)
    other = bob if mover is ann else ann
    with pytest.raises(ProblemError) as stale:
        other.play(game_id, {"type": "move", "steps": 1}, expected_version=version)
    assert stale.value.status == 409 and stale.value.problem.get("version", version) > version
    with pytest.raises(ProblemError) as anonymous:
        server.play(game_id, {"type": "move", "steps": 1})
    assert anonymous.value.status == 401 and anonymous.value.headers["Www-Authenticate"].startswith("Bearer")
    with pytest.raises(ProblemError) as unknown:
        server.create("chess", TWO_HUMANS)
    assert unknown.value.status == 422 and "json" in unknown.value.errors
    assert server.summary(game_id)["version"] > version  # exactly the one command went through


def test_a_command_whose_answer_was_lost_is_retried_and_answered_once(web: str, proxy: CuttingProxy) -> None:
    server = Client(web)
    game_id, ann, bob = _two_humans(server)
    mover = _to_move(server, game_id, [ann, bob])
    before = server.summary(game_id)["version"]
    action = mover.actions(game_id)[0]
    through = Client(proxy.url, mover.token)
    proxy.plans.append(("cut", 0))  # the server plays it; its answer never arrives
    played = through.play(game_id, action, expected_version=before)
    assert proxy.connections == 2
    assert (
        played["events"][0]["version"] == before + 1
        and played["events"][0]["command"]["type"] == action["type"]
    )
    assert server.summary(game_id)["version"] == played["version"]  # appended once
    commands = [e for e in server.events(game_id, after=before) if e["command"] is not None]
    assert len(commands) == 1
    # the same key again is the first result again, also once its expected_version is stale
    mover, version = _to_move(server, game_id, [ann, bob]), played["version"]
    action = mover.actions(game_id)[0]
    first = mover.play(game_id, action, expected_version=version, key="k1")
    assert mover.play(game_id, action, expected_version=version, key="k1") == first


def test_429_and_503_are_retried_after_retry_after_within_a_bound(web: str, proxy: CuttingProxy) -> None:
    server = Client(web)
    game_id, ann, _ = _two_humans(server)
    through = Client(proxy.url, ann.token)
    through.transport.sleep = slept = Recorded()
    unavailable = {"type": "about:blank", "title": "Service Unavailable", "status": 503, "detail": "busy"}
    proxy.plans.append(("answer", _canned("503 Service Unavailable", 1, unavailable)))
    assert through.state(game_id)["version"] == ann.state(game_id)["version"]
    assert slept.waits == [1.0] and proxy.connections == 2
    limited = {"type": "about:blank", "title": "Too Many Requests", "status": 429, "limit": "games"}
    proxy.plans.append(("answer", _canned("429 Too Many Requests", 1, limited)))
    created = through.create("kupferkessel", TWO_HUMANS)  # a 429 did nothing, so even a POST retries
    assert created["version"] > 0 and slept.waits == [1.0, 1.0]
    proxy.plans.append(("answer", _canned("429 Too Many Requests", 3600, limited)))
    with pytest.raises(ProblemError) as refused:  # longer than max_wait: give up at once
        through.create("kupferkessel", TWO_HUMANS)
    assert refused.value.status == 429 and refused.value.problem["limit"] == "games"
    assert slept.waits == [1.0, 1.0]
    proxy.plans.append(("answer", _canned("503 Service Unavailable", 1, unavailable)))
    with pytest.raises(ProblemError) as not_repeated:  # a create is not safe to repeat after a 503
        through.create("kupferkessel", TWO_HUMANS)
    assert not_repeated.value.status == 503
    through.transport.retries = 2
    proxy.plans += [("answer", _canned("503 Service Unavailable", 0, unavailable))] * 3
    with pytest.raises(ProblemError) as bounded:
        through.state(game_id)
    assert bounded.value.status == 503 and len(slept.waits) == 4


def test_wait_long_polls_until_the_game_moves(web: str) -> None:
    server = Client(web)
    game_id, ann, bob = _two_humans(server)
    version = ann.state(game_id)["version"]
    started = time.monotonic()
    assert ann.wait(game_id, version, timeout=1) is None
    assert time.monotonic() - started >= 0.9
    mover = _to_move(server, game_id, [ann, bob])
    threading.Timer(0.5, lambda: mover.play(game_id, mover.actions(game_id)[0])).start()
    moved = ann.wait(game_id, version, timeout=20)
    assert moved is not None and moved["version"] > version and moved["seat"] == 0


def test_a_cut_stream_resumes_from_the_last_event(web: str, proxy: CuttingProxy) -> None:
    server = Client(web)
    game_id, ann, bob = _two_humans(server)
    opening = server.summary(game_id)["version"]
    for _ in range(3):
        mover = _to_move(server, game_id, [ann, bob])
        mover.play(game_id, mover.actions(game_id)[0])
    last = server.summary(game_id)["version"]
    assert last - opening >= 3
    proxy.plans.append(("cut", 2))  # the first connection breaks after two events
    seen = []
    for event in Client(proxy.url).stream(game_id, after=opening):
        seen.append(event["version"])
        if event["version"] == last:
            break
    assert seen == list(range(opening + 1, last + 1))  # each event once, in order
    assert proxy.connections == 2
    # The server learns that the cut stream's client is gone when it next writes to it: one more
    # event ends it now, rather than the next keep-alive after the tests are over.
    mover = _to_move(server, game_id, [ann, bob])
    mover.play(game_id, mover.actions(game_id)[0])


def _play(web: str, game: str, stdin: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "play", game, "--url", web, *extra],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def _game_id(output: str) -> str:
    return output.split("game ", 1)[1].split()[0]


def test_kotlik_play_plays_kupferkessel_to_the_end_against_a_bot(web: str) -> None:
    done = _play(web, "kupferkessel", "1\n" * 1000, "--bot", "default")
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "your choice (1–" in out or "you played: move: steps" in out
    assert "you played: take: card " in out  # a card by its catalog name, not its id
    assert "the game is over" in out and "winner(s): seat" in out
    server = Client(web)
    game_id = _game_id(out)
    summary = server.summary(game_id)
    assert summary["status"] == "finished" and summary["result"]
    export = server.export(game_id)
    assert export[0]["format"] == "kotlik-export" and len(export) - 1 == summary["version"]
    streamed = [e["version"] for e in server.stream(game_id)]  # a finished game's stream ends
    assert streamed == list(range(1, summary["version"] + 1))


@pytest.mark.parametrize(
    "game, options",
    [("carodeni", "{}"), ("carodeni", '{"solo": true}'), ("skodakouzla", "{}"), ("carcassonne", "{}")],
)
def test_kotlik_play_plays_a_turn_of_every_game(web: str, game: str, options: str) -> None:
    bot = "ostara" if "solo" in options else "default"
    done = _play(web, game, "1\n", "--options", options, "--bot", bot)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "  1. " in out and "you played: " in out and "no more input; to go on: kotlik play" in out
    game_id = _game_id(out)
    mine = [e for e in Client(web).events(game_id) if e["seat"] == 0 and e["command"]]
    assert mine, out


def test_kotlik_play_says_what_is_wrong(web: str) -> None:
    unknown = _play(web, "chess", "")
    assert unknown.returncode == 1 and "422" in unknown.stdout and "unknown game 'chess'" in unknown.stdout
    options = _play(web, "carodeni", "", "--options", "{solo}")
    assert options.returncode == 2 and "--options is not JSON" in options.stdout
    refused = _play(web, "carodeni", "", "--options", '{"difficulty": "godlike"}')
    assert refused.returncode == 1 and "difficulty" in refused.stdout


#: The whole deck in the catalog's order: the game is then fixed by its choices, and always taking
#: the first, Ann moves twice, Bob twice, then Ann again. On a shuffled deck an extra turn could
#: let Ann use up her four choices before Bob had played (it happened).
ARRANGED = json.dumps({"arranged": {"deck": list(card_order())}})


def test_kotlik_play_two_terminals_play_one_game(web: str, tmp_path: Path) -> None:
    logs = [tmp_path / "ann.log", tmp_path / "bob.log", tmp_path / "ann-again.log"]
    ann = _start(web, ["kupferkessel", "--seats", "me,Bob", "--options", ARRANGED], "1\n" * 4, logs[0])
    started = [ann]
    try:
        wait_until(lambda: b"Bob joins with: " in logs[0].read_bytes(), 30, "the join line")
        join = logs[0].read_text().split("Bob joins with: ", 1)[1].split("\n", 1)[0].split()
        assert join[:2] == ["kotlik", "play"] and join[3:5] == ["--url", web]
        assert join[5].startswith("--join=")
        refused = _play(web, join[2], "1\n", "--join", "not-a-token")
        assert refused.returncode == 1 and "401" in refused.stdout
        started.append(_start(web, join[2:], "1\n" * 1000, logs[1]))
        assert ann.wait(timeout=60) == 0  # Ann's four choices run out at her fifth decision
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()  # Bob, waiting for Ann
    said = logs[0].read_text()
    assert "you are seat 0 (Me)" in said and said.count("you played: ") == 4
    bob_said = logs[1].read_text()
    assert "you are seat 1 (Bob)" in bob_said and "you played: " in bob_said
    again = said.split("no more input; to go on: ", 1)[1].split("\n", 1)[0].split()
    back = _play(web, again[2], "", *again[3:])  # Ann comes back: her move still waits for her
    assert back.returncode == 0 and "you are seat 0 (Me)" in back.stdout
    assert (
        said.rsplit("— version ", 1)[1].split(",")[0] == back.stdout.split("— version ", 1)[1].split(",")[0]
    )
    assert {e["seat"] for e in Client(web).events(join[2]) if e["command"]} == {0, 1}
    # Ann's move wakes Bob's abandoned long-poll, so the server holds no request of his after this
    ann_again = Client(web, again[-1].removeprefix("--join="))
    ann_again.play(join[2], ann_again.actions(join[2])[0])


def test_the_printed_join_command_keeps_a_token_that_starts_with_a_dash() -> None:
    """A seat's token is URL-safe base64, so one in 64 starts with ``-``; printed as ``--join TOKEN``
    argparse took it for an option and the second terminal could not join (CI met it)."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    token = "-BAlN05WGt5_S1jGMCFzbDpOLHyJ4MbCSJR9KBzgu_8"
    args = parser.parse_args(_rejoin("a-game", "http://127.0.0.1:8000", token).split()[2:])
    assert (args.game, args.url, args.join) == ("a-game", "http://127.0.0.1:8000", token)


def _start(web: str, args: list[str], stdin: str, log: Path) -> subprocess.Popen[bytes]:
    """``kotlik play`` running on, its input given at once and its output in ``log``."""
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "service.cli",
                "play",
                *args,
                *([] if "--url" in args else ["--url", web]),
            ],
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
    assert process.stdin is not None
    process.stdin.write(stdin.encode())
    process.stdin.close()
    return process


def test_the_readme_examples_run(web: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The README's Python client example plays a game to its end, and the replay in docs/api.md
    replays it."""
    docs = (ROOT / "README.md").read_text() + (ROOT / "docs" / "api.md").read_text()
    blocks = [b.split("```", 1)[0] for b in docs.split("```python\n")[1:]]
    example, replay = (
        next(b.replace("http://127.0.0.1:8000", web) for b in blocks if marker in b)
        for marker in ("server.create(", "api.events(game_id)")
    )
    scope: dict[str, Any] = {}
    exec(compile(example, "README example", "exec"), scope)
    played = capsys.readouterr().out.splitlines()
    assert played[-2].endswith("kotlik.GameScored") and "'winners'" in played[-1]
    game_id = scope["game"]["id"]
    exec(compile(replay, "README replay", "exec"), {"game_id": game_id})
    replayed = capsys.readouterr().out.splitlines()
    summary = Client(web).summary(game_id)
    assert len(replayed) > summary["version"] and replayed[-1].startswith(f"{summary['version']} [] ")
