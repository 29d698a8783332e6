"""Clients that play through a database outage (a restart, a failover), and the check of what they
were told against the log: every acknowledged command in it once, no command no client sent."""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import psycopg
from gamelog import check_game
from httpclient import Client, moves

from games.rng import Rng

#: The longest a client keeps retrying one command once play is over.
SETTLE = 60.0


@dataclass
class Tally:
    """What the clients saw: every answer by status, and each acknowledged command."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter[str] = field(default_factory=Counter)
    #: status → count, for requests sent after the kill and answered before the restart began (one
    #: waiting for a connection when the database came back may well succeed).
    outage: Counter[str] = field(default_factory=Counter)
    #: The longest a 503 took to come.
    slowest_503: float = 0.0
    #: (game id, Idempotency-Key) → the version the 201 answered.
    acknowledged: dict[tuple[str, str], int] = field(default_factory=dict)
    #: Keys sent and never acknowledged (a client gave up at the end).
    abandoned: set[tuple[str, str]] = field(default_factory=set)
    games: list[str] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)
    #: When the database was killed and when its restart began (monotonic clock).
    killed_at: float = float("inf")
    restarted_at: float = float("inf")

    def saw(self, status: str, what: str, sent: float) -> None:
        """An answer to a request ``sent`` then; it counts as the outage's when the whole exchange
        fell between the kill and the restart."""
        now = time.monotonic()
        with self.lock:
            self.statuses[status] += 1
            if status == "503":
                self.slowest_503 = max(self.slowest_503, now - sent)
            if self.killed_at <= sent and now <= self.restarted_at:
                self.outage[status] += 1
            if status.startswith("5") and status != "503":
                self.server_errors.append(f"{status} on {what}")


def retrying(api: Client, tally: Tally, method: str, path: str, body: Any = None, **kw: Any) -> Any:
    """One request, sent again (the same body and headers) on 503 or a lost connection, for up to
    ``SETTLE`` seconds; None if it never got another answer."""
    deadline = time.monotonic() + SETTLE
    while time.monotonic() < deadline:
        sent = time.monotonic()
        try:
            reply = api.request(method, path, body, timeout=60, **kw)
        except OSError as e:
            tally.saw(type(e).__name__, f"{method} {path}", sent)
            time.sleep(0.2)
            continue
        # a 503 says when to come back; without Retry-After it counts as the server's error
        status = (
            "503 without Retry-After" if reply.status == 503 and "Retry-After" not in reply.headers else ""
        )
        tally.saw(status or str(reply.status), f"{method} {path}", sent)
        if reply.status != 503:
            return reply
        time.sleep(0.2)
    return None


def play(api: Client, tally: Tally, playing: threading.Event, number: int) -> None:
    """Play Kupferkessel games (both seats) until ``playing`` is cleared; a new game when one ends."""
    rng = Rng(str(number).encode(), "fault client")
    game: dict[str, Any] | None = None
    while playing.is_set():
        if game is None:
            seats = [{"name": "A"}, {"name": "B"}]
            created = retrying(api, tally, "POST", "/api/v1/games", {"game": "kupferkessel", "seats": seats})
            if created is None or created.status != 201:
                continue
            game = created.body
            with tally.lock:
                tally.games.append(game["id"])
        path = f"/api/v1/games/{game['id']}"
        summary = retrying(api, tally, "GET", path)
        if summary is None or summary.status != 200:
            continue
        if summary.body["status"] != "active":
            game = None
            continue
        seat = api.seat(game["seats"][summary.body["to_move"][0]]["token"])
        actions = retrying(seat, tally, "GET", f"{path}/actions")
        if actions is None or actions.status != 200 or not actions.body:
            continue
        command = {**rng.choice(moves(actions.body)), "expected_version": summary.body["version"]}
        key = str(uuid.uuid4())
        reply = retrying(seat, tally, "POST", f"{path}/commands", command, headers={"Idempotency-Key": key})
        with tally.lock:
            if reply is not None and reply.status == 201:
                tally.acknowledged[(game["id"], key)] = reply.body["version"]
            elif reply is None:
                tally.abandoned.add((game["id"], key))
            else:
                tally.server_errors.append(f"{reply.status} on a command: {reply.body}")


def check_acknowledged(url: str, tally: Tally) -> tuple[dict[str, Any], list[str]]:
    """Each acknowledged key: one row in ``commands`` and one run of events ending at its version."""
    from psycopg.rows import dict_row

    problems: list[str] = []
    lost = duplicated = gaps = 0
    with psycopg.connect(url, row_factory=dict_row, autocommit=True) as conn:
        for (game_id, key), version in tally.acknowledged.items():
            events = conn.execute(
                "SELECT version, meta->>'at' AS at FROM events "
                "WHERE game_id = %s AND meta->>'command_id' = %s ORDER BY version",
                (UUID(game_id), key),
            ).fetchall()
            keys = conn.execute(
                "SELECT last_version FROM commands WHERE game_id = %s AND command_id = %s",
                (UUID(game_id), key),
            ).fetchall()
            if not events or not keys:
                lost += 1
                problems.append(f"acknowledged {key} of {game_id} is not in the log")
            elif len({e["at"] for e in events}) != 1 or len(keys) != 1:
                duplicated += 1
                problems.append(f"{key} of {game_id} is in the log more than once")
            elif events[-1]["version"] != version or keys[0]["last_version"] != version:
                problems.append(
                    f"{key} of {game_id} answered {version}, the log ends it at {events[-1]['version']}"
                )
        sent = {k for _, k in tally.acknowledged} | {k for _, k in tally.abandoned}
        stored = conn.execute("SELECT command_id FROM commands").fetchall()
        strangers = [r["command_id"] for r in stored if r["command_id"] not in sent]
        if strangers:
            problems.append(f"{len(strangers)} command(s) stored that no client sent")
        stored_commands = 0
        for game_id in tally.games:
            check = check_game(conn, UUID(game_id), finished=False)
            gaps += check["gaps"]
            stored_commands += check["commands"]
            problems += [f"{game_id}: {p}" for p in check["problems"]]
        unacknowledged_stored = len(stored) - len(tally.acknowledged)
        if unacknowledged_stored > len(tally.abandoned):
            problems.append(f"{unacknowledged_stored} command(s) stored that were never acknowledged")
    figures = {
        "commands_stored": stored_commands,
        "events_lost": lost + gaps,
        "duplicated": duplicated,
    }
    return figures, problems


def answers(api: Client) -> bool:
    """Whether the API serves a read of the database now (after an outage, a failover)."""
    try:
        return api.get("/api/v1/games?page_size=1", timeout=5).status == 200
    except OSError:
        return False
