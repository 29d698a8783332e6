"""Exports through real HTTP, checked offline by ``kotlik verify`` (a process with no database).

A finished game's export is whole and verifies; each kind of tampering (one card changed, an event
dropped, the seed swapped) is caught and named at its version; a running game's export is exactly
what the caller sees through ``/events``, without the seed.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from httpclient import Client, create, game_path, play_to_end
from processes import ROOT, environment

from audit.verify import BadExport, check, parse

#: A database that cannot be reached: ``kotlik verify`` must not need one.
NOWHERE = "postgresql://nobody@127.0.0.1:9/none?connect_timeout=1"


def kotlik_verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "verify", str(path)],
        cwd=ROOT,
        env=environment(DATABASE_URL=NOWHERE, CELERY_BROKER_URL=None, KOTLIK_DATA="/nonexistent"),
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture(scope="module")
def finished(live_url: str, worker: Any) -> dict[str, Any]:
    """A Kupferkessel game played to its end by a client and the default bot, and its export."""
    api = Client(live_url)
    game = create(api, "kupferkessel", [{"name": "Me"}, {"name": "Bot", "bot": "default"}])
    summary = play_to_end(api, game, seed=12)
    reply = api.get(game_path(game, "/export"))
    assert reply.status == 200, reply
    return {"game": game, "summary": summary, "reply": reply, "api": api}


def _lines(raw: bytes) -> list[dict[str, Any]]:
    """The header and event lines, without the signature line that ends the file (a file
    rewritten from them is unsigned: tests/platform/test_signing.py checks the signature)."""
    return [json.loads(line) for line in raw.splitlines() if "signature" not in json.loads(line)]


def _write(tmp_path: Path, lines: list[dict[str, Any]], name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_a_finished_games_export_is_whole_and_verifies_offline(
    finished: dict[str, Any], tmp_path: Path
) -> None:
    reply, summary, game = finished["reply"], finished["summary"], finished["game"]
    assert reply.headers["Content-Type"] == "application/x-ndjson"
    disposition = reply.headers["Content-Disposition"]
    assert (
        disposition == f'attachment; filename="kotlik-kupferkessel-{game["id"]}-v{summary["version"]}.jsonl"'
    )
    header, *events = _lines(reply.raw)
    assert header["format"] == "kotlik-export" and header["format_version"] == 1
    assert {
        k: header[k] for k in ("id", "game", "rules_version", "seed", "seed_sha256", "version", "result")
    } == {k: summary[k] for k in ("id", "game", "rules_version", "seed", "seed_sha256", "version", "result")}
    assert header["rules_version"] == 1 and header["seed"] and header["finished_at"] and header["created_at"]
    assert [e["version"] for e in events] == list(range(1, summary["version"] + 1))
    log = finished["api"].get(game_path(game, "/events")).body
    assert [{k: e[k] for k in ("version", "type", "data", "seat", "command")} for e in events] == [
        {k: e[k] for k in ("version", "type", "data", "seat", "command")} for e in log
    ]
    commands = [e for e in events if "at" in e["meta"]]
    assert commands and all(
        e["seat"] == e["meta"]["seat"] and e["command"] == e["meta"]["command"] for e in commands
    )
    assert {e["seat"] for e in commands} == {0, 1}, "both seats' commands are named"

    done = kotlik_verify(_write(tmp_path, _lines(reply.raw)))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"OK: kupferkessel game {game['id']} (rules version 1)")
    assert f"{len({e['meta']['at'] for e in commands})} commands decided again" in done.stdout


def _first_card_change(events: list[dict[str, Any]]) -> tuple[int, str]:
    """The index and field of the first command's event that names a card (a string value)."""
    for index, event in enumerate(events):
        if "at" in event["meta"]:
            for key, value in event["data"].items():
                if key not in ("seat",) and isinstance(value, str):
                    return index, key
    raise AssertionError("no command event names a card")


def test_tampering_is_caught_and_named(finished: dict[str, Any], tmp_path: Path) -> None:
    header, *events = _lines(finished["reply"].raw)

    index, key = _first_card_change(events)
    changed = json.loads(json.dumps(events))
    original = changed[index]["data"][key]
    changed[index]["data"][key] = original + "-forged"
    version = changed[index]["version"]
    done = kotlik_verify(_write(tmp_path, [header, *changed], "card.jsonl"))
    assert done.returncode == 1
    assert done.stdout.startswith("DOES NOT VERIFY")
    assert f"version {version}:" in done.stdout
    assert f'{key}: expected "{original}", found "{original}-forged"' in done.stdout

    dropped = events[:index] + events[index + 1 :]
    verdict = check(parse([json.dumps(line) for line in [header, *dropped]]))
    assert [p.version for p in verdict.problems] == [version]
    assert f"version {version} is missing" in verdict.problems[0].what

    swapped = {**header, "seed": secrets.token_bytes(32).hex()}
    done = kotlik_verify(_write(tmp_path, [swapped, *events], "seed.jsonl"))
    assert done.returncode == 1
    assert "the seed does not match the SHA-256 committed" in done.stdout
    assert re.search(r"version \d+: setup re-run from the seed gives another event\n      grid", done.stdout)

    # A forger who also swaps the committed hash is caught where the game was created with it.
    seed = secrets.token_bytes(32)
    forged = {**header, "seed": seed.hex(), "seed_sha256": hashlib.sha256(seed).hexdigest()}
    verdict = check(parse([json.dumps(line) for line in [forged, *events]]))
    assert [p.version for p in verdict.problems] == [1]
    assert "seed_sha256: expected" in "\n".join(verdict.problems[0].how)

    scored = json.loads(json.dumps(events))
    scored[-1]["data"]["score"]["seats"][0]["total"] += 1
    verdict = check(parse([json.dumps(line) for line in [header, *scored]]))
    assert [p.version for p in verdict.problems] == [events[-1]["version"]]
    assert verdict.problems[0].what == "the score of the refolded game differs"


def test_a_running_games_export_is_what_events_shows_without_the_seed(live_url: str, tmp_path: Path) -> None:
    api = Client(live_url)
    game = create(api, "skodakouzla", [{"name": "A"}, {"name": "B"}])
    seats = {s["seat"]: api.seat(s["token"]) for s in game["seats"]}
    for _ in range(6):
        summary = api.get(game_path(game)).body
        mover = seats[summary["to_move"][0]]
        actions = mover.get(game_path(game, "/actions")).body
        assert mover.post(game_path(game, "/commands"), actions[-1]).status == 201
    version = api.get(game_path(game)).body["version"]
    for seat, client in [(None, api), *seats.items()]:
        reply = client.get(game_path(game, "/export"))
        assert reply.status == 200, reply
        header, *events = _lines(reply.raw)
        assert header["seed"] is None and header["seat"] == seat and header["redacted"] is True
        assert header["status"] == "active" and header["version"] == version
        log = client.get(game_path(game, "/events")).body
        assert [{k: e[k] for k in ("version", "type", "data", "seat", "command")} for e in events] == [
            {k: e[k] for k in ("version", "type", "data", "seat", "command")} for e in log
        ]
        for event in events:
            assert "command_id" not in event["meta"]
            if event["seat"] is not None and event["seat"] != seat:
                assert event["command"] == {"type": event["meta"]["command"]["type"]}
                assert event["meta"]["command"] == event["command"]
        hidden = [e for e in events if e["seat"] is not None and e["seat"] != seat]
        assert seat is None or hidden, "the other seat's commands are in the log"
    done = kotlik_verify(_write(tmp_path, _lines(reply.raw)))
    assert done.returncode == 1
    assert "the file has no seed" in done.stdout


def test_verify_refuses_files_that_are_not_whole_exports(finished: dict[str, Any], tmp_path: Path) -> None:
    raw = finished["reply"].raw
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(raw[: len(raw) // 2])
    done = kotlik_verify(cut)
    assert done.returncode == 1 and "NOT A WHOLE EXPORT" in done.stdout and "cut short" in done.stdout
    lines = raw.splitlines(keepends=True)
    cut.write_bytes(b"".join(lines[: len(lines) // 2]))
    done = kotlik_verify(cut)
    assert done.returncode == 1 and "the file is truncated: its events end at version" in done.stdout
    cut.write_text("<html>not json</html>\n")
    done = kotlik_verify(cut)
    assert done.returncode == 1 and "line 1 is not JSON" in done.stdout


def _mutate(rng: random.Random, events: list[dict[str, Any]]) -> str:
    """One random forgery of what the verifier answers for; says what it did."""
    index = rng.randrange(len(events))
    event = events[index]
    kind = rng.choice(["data", "meta", "drop", "swap", "duplicate", "type"])
    if kind in ("data", "meta"):
        part = event[kind] if kind == "data" else event["meta"]
        keys = [k for k in part if kind == "data" or k in ("seat", "command", "at", "rules_version")]
        if not keys:
            return ""
        key = rng.choice(keys)
        part[key] = rng.choice([None, -1, 7, "forged", [], {"type": "forged"}, True])
        if kind == "meta" and key in ("seat", "command"):
            event[key] = part[key]  # a careful forger keeps the readers' copy in step
        return f"{kind}.{key} of version {event['version']}"
    if kind == "drop":
        del events[index]
    elif kind == "swap":
        other = rng.randrange(len(events))
        events[index], events[other] = events[other], events[index]
    elif kind == "duplicate":
        events.insert(index, json.loads(json.dumps(event)))
    else:
        event["type"] = event["type"] + "Forged"
    return f"{kind} at version {event['version']}"


def test_random_forgeries_are_caught_and_never_crash_the_verifier(finished: dict[str, Any]) -> None:
    header, *events = _lines(finished["reply"].raw)
    rng = random.Random(12)
    caught = 0
    for _ in range(150):
        forged = json.loads(json.dumps(events))
        what = _mutate(rng, forged)
        if not what or forged == events:
            continue
        try:
            verdict = check(parse([json.dumps(line) for line in [header, *forged]]))
        except BadExport:
            caught += 1
            continue
        assert not verdict.ok, what
        caught += 1
    assert caught > 100
