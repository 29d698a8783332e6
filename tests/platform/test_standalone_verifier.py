"""The standalone verifier (``verifier/``): built from this repository, installed into a fresh
virtual environment with nothing of the server, and run there on real exports.

The package is built as an sdist by its own backend and installed by pip into a venv made here
(``--without-pip``; this process's pip installs into it), pulling only its dependencies
(``cryptography``, ``orjson``). There ``kotlik-verify`` must accept a signed export of each of
the four games (a client's moves against a bot, then its resignation) with the server's pinned
key, refuse a file whose seat was renamed (the signature) or whose draw was changed (the replay),
and the venv must hold no web framework, database driver, task queue or cache client.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from httpclient import Client, create, game_path, moves
from processes import ROOT, environment

import games
from games.rng import Rng

#: What the server needs and the verifier must not bring.
SERVER_ONLY = ["flask", "werkzeug", "flask_smorest", "psycopg", "psycopg_pool", "celery", "kombu",
               "sqlalchemy", "alembic", "redis", "gunicorn", "gevent", "pgserver"]  # fmt: skip
#: The distributions the fresh venv may hold: the verifier and its dependencies' own.
ALLOWED = {"kotlik-verify", "cryptography", "cffi", "pycparser", "orjson"}
#: The bound on building and installing the verifier into the fresh venv.
INSTALL_S = 60


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A fresh venv with the verifier's sdist installed: its python, its command, and the time taken."""
    folder = tmp_path_factory.mktemp("standalone")
    started = time.monotonic()
    built = subprocess.run(
        [sys.executable, "-c", f"import backend; print(backend.build_sdist({str(folder)!r}))"],
        cwd=ROOT / "verifier",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert built.returncode == 0, built.stderr
    sdist = folder / built.stdout.strip()
    made = subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(folder / "env")], capture_output=True, text=True
    )
    if made.returncode != 0:
        pytest.skip(f"no virtual environment can be made here: {made.stderr.strip()}")
    python = folder / "env" / "bin" / "python"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", str(sdist)],
        cwd=folder,
        env=environment(PYTHONPATH=None, PIP_DISABLE_PIP_VERSION_CHECK="1"),
        capture_output=True,
        text=True,
        timeout=INSTALL_S * 2,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return {
        "python": python,
        "command": folder / "env" / "bin" / "kotlik-verify",
        "folder": folder,
        "seconds": time.monotonic() - started,
    }


def _run(venv: dict[str, Any], args: list[str]) -> subprocess.CompletedProcess[str]:
    """A program of the fresh venv, started outside the repository with no path into it."""
    return subprocess.run(
        args,
        cwd=venv["folder"],
        env=environment(PYTHONPATH=None, DATABASE_URL=None, CELERY_BROKER_URL=None, KOTLIK_SIGNING_KEY=None),
        capture_output=True,
        text=True,
        timeout=60,
    )


#: Commands the client plays in each game before it resigns: a deal, draws and moves to re-run,
#: within the test's bound (a whole game of each kind over HTTP takes a minute on a busy machine).
MOVES = 12


def _play_then_resign(api: Client, game: dict[str, Any], seed: int) -> None:
    """Seat 0 plays :data:`MOVES` commands as the game's ``random`` bot would (the bot seat answering
    through the worker), then resigns; returns once the game is scored."""
    choose = games.load(game["game"]).BOTS["random"]
    rng = Rng(str(seed).encode(), "standalone client")
    me = api.seat(game["seats"][0]["token"])
    path = game_path(game)
    deadline = time.monotonic() + 60
    played = 0
    while played < MOVES and time.monotonic() < deadline:
        summary = api.get(path).body
        if summary["status"] != "active":
            break
        if 0 not in summary["to_move"]:
            api.get(f"{path}/state?wait=5", headers={"If-None-Match": f'"{summary["version"]}"'})
            continue
        view = me.get(f"{path}/state").body
        actions = moves(me.get(f"{path}/actions").body)
        command = {**choose(view["view"], actions, rng), "expected_version": view["version"]}
        if me.post(f"{path}/commands", command).status == 201:
            played += 1
    if api.get(path).body["status"] == "active":
        assert me.post(f"{path}/resign").status == 201
    while api.get(path).body["status"] != "finished":
        assert time.monotonic() < deadline + 30, api.get(path).body
        time.sleep(0.1)


@pytest.fixture(scope="module")
def exports(live_url: str, worker: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished game of each kind, a client (with entropy) playing against a bot and then
    resigning, exported as served, and the server's key as fetched from ``/.well-known/kotlik-key``."""
    folder = tmp_path_factory.mktemp("exports")
    api = Client(live_url)
    files = {}
    for number, kind in enumerate(games.known()):
        seats = [{"name": "Me", "entropy": f"{number + 1:02x}" * 32}, {"name": "Bot", "bot": "random"}]
        game = create(api, kind, seats)
        _play_then_resign(api, game, seed=number)
        reply = api.get(game_path(game, "/export"))
        assert reply.status == 200, reply
        files[kind] = folder / f"{kind}.jsonl"
        files[kind].write_bytes(reply.raw)
    files["key"] = folder / "key.jwk"
    files["key"].write_bytes(api.get("/.well-known/kotlik-key").raw)
    return files


def test_the_verifier_installs_in_bounded_time_with_nothing_of_the_server(venv: dict[str, Any]) -> None:
    assert venv["seconds"] < INSTALL_S, f"building and installing took {venv['seconds']:.0f} s"
    probe = (
        "import importlib.metadata as m, importlib.util as u, json, audit.verify, games; "
        f"print(json.dumps({{'dists': sorted(d.metadata['Name'].lower() for d in m.distributions()), "
        f"'importable': [n for n in {SERVER_ONLY!r} if u.find_spec(n)], "
        "'verify': audit.verify.__file__, 'games': games.known()}))"
    )
    found = _run(venv, [str(venv["python"]), "-c", probe])
    assert found.returncode == 0, found.stderr
    seen = json.loads(found.stdout)
    assert seen["importable"] == [], f"the verifier's venv can import {seen['importable']}"
    assert set(seen["dists"]) <= ALLOWED | {"pip", "setuptools"}, seen["dists"]
    assert "kotlik-verify" in seen["dists"]
    assert Path(seen["verify"]).is_relative_to(venv["folder"] / "env"), (
        "the repository's code, not the venv's"
    )
    assert seen["games"] == games.known()
    for module in ("service", "events", "commands", "workers", "audit.imports", "audit.export"):
        missing = _run(venv, [str(venv["python"]), "-c", f"import {module}"])
        assert missing.returncode == 1 and "ModuleNotFoundError" in missing.stderr, module


def test_exports_of_all_four_games_verify_there_with_the_pinned_key(
    venv: dict[str, Any], exports: dict[str, Path]
) -> None:
    for kind in games.known():
        done = _run(venv, [str(venv["command"]), str(exports[kind]), "--key", str(exports["key"])])
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.startswith(f"OK: {kind} game "), done.stdout
        assert "the entropy of seat 0" in done.stdout and "signed by the pinned key" in done.stdout
        decided = re.search(r"\n  (\d+) commands decided again", done.stdout)
        assert decided and int(decided[1]) >= MOVES, done.stdout  # the client's and the bot's moves
        same = subprocess.run(
            [sys.executable, "-m", "service.cli", "verify", str(exports[kind]), "--key", str(exports["key"])],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert same.stdout == done.stdout, "kotlik verify and kotlik-verify report alike"


def _rewritten(raw: bytes, change: Any) -> bytes:
    """The file with its lines changed by ``change``, its signature line kept as it was."""
    *lines, signature = raw.splitlines(keepends=True)
    values = [json.loads(line) for line in lines]
    change(values)
    return b"".join(json.dumps(v).encode() + b"\n" for v in values) + signature


def _rename(lines: list[dict[str, Any]]) -> None:
    lines[0]["seats"][0]["name"] = "Someone else"
    lines[1]["data"]["seats"][0]["name"] = "Someone else"


def _redraw(lines: list[dict[str, Any]]) -> None:
    shuffled = next(
        e for e in lines[1:] if isinstance(e["data"].get("deck"), list) and len(e["data"]["deck"]) > 1
    )
    shuffled["data"]["deck"] = list(reversed(shuffled["data"]["deck"]))


def test_a_tampered_export_is_refused_there(venv: dict[str, Any], exports: dict[str, Path]) -> None:
    raw = exports["kupferkessel"].read_bytes()
    renamed = venv["folder"] / "renamed.jsonl"
    renamed.write_bytes(_rewritten(raw, _rename))
    refused = _run(venv, [str(venv["command"]), str(renamed), "--key", str(exports["key"])])
    assert refused.returncode == 1, refused.stdout
    assert (
        refused.stdout.startswith("DOES NOT VERIFY")
        and "signature: the signature does not match" in (refused.stdout.splitlines()[1])
    ), refused.stdout

    redrawn = venv["folder"] / "redrawn.jsonl"
    redrawn.write_bytes(_rewritten(raw, _redraw))
    refused = _run(venv, [str(venv["command"]), str(redrawn)])
    assert refused.returncode == 1 and refused.stdout.startswith("DOES NOT VERIFY"), refused.stdout
    assert "version " in refused.stdout.splitlines()[1], refused.stdout

    cut = venv["folder"] / "cut.jsonl"
    cut.write_bytes(raw[: len(raw) // 2])
    refused = _run(venv, [str(venv["command"]), str(cut)])
    assert refused.returncode == 1 and refused.stdout.startswith("NOT A WHOLE EXPORT"), refused.stdout
