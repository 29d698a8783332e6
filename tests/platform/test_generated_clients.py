"""The served document through generators third parties use: ``openapi-typescript`` + ``tsc --strict``,
and ``openapi-python-client``.

The types generated from ``/api/v1/openapi.json`` must take the right bodies and refuse the wrong
ones (``generated/bodies.ts``: each wrong body sits under ``@ts-expect-error``, so one that compiles
fails the build as an unused directive), and give an answer's fields without casts. A copy with one
directive taken out must fail to compile: the check checks.

The Python client generated from the same document is a package pip can install
(``kotlik-api-client``, ``kotlik_api_client``: the document's title is ASCII), its create-game model
has ``options``, its models refuse bodies missing what the schema requires, and it has every
operation (the import's too, whose body it sends as ``application/octet-stream``).

And clients built on them play: ``generated/play.ts`` (openapi-fetch on the generated types) and
``generated/play.py`` (the generated package) each play a game of every kind to the end against the
server's bots, choosing from ``/actions``, none of their commands refused.

The npm packages are pinned by ``generated/package.json`` and ``package-lock.json`` and installed
from the npm registry by ``npm ci`` into a cache directory named after the lock's digest
(``KOTLIK_GENERATORS_DIR``, default ``~/.cache/kotlik-generators``), the Python generator into a venv
there; without node/npm or the registries the tests skip, unless ``KOTLIK_REQUIRE_GENERATORS=1``
(``.ci/run``) makes that a failure.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from httpclient import Client, create

import games

#: The Python generator, pinned; installed into a venv of its own (it brings httpx and attrs).
PYTHON_GENERATOR = "openapi-python-client==0.29.1"
#: ``package.json`` and ``package-lock.json`` pin the generator, the compiler, openapi-fetch and
#: node's types; the sources compiled and run here sit beside them.
HERE = Path(__file__).resolve().parent / "generated"
#: openapi-typescript makes a field with a ``default`` required unless told otherwise; a request's
#: defaulted fields (options) are optional.
GENERATE = ["--default-non-nullable", "false"]
#: The sources are checked strictly; the declarations they use (api.d.ts, node_modules') are not
#: checked themselves (``--skipLibCheck``, as most projects compile), which takes most of the time.
TSC = [
    "--strict",
    "--skipLibCheck",
    "--target",
    "es2022",
    "--module",
    "esnext",
    "--moduleResolution",
    "bundler",
]
TSC += ["--lib", "es2022,dom", "--types", "node"]


def _unavailable(reason: str) -> None:
    if os.environ.get("KOTLIK_REQUIRE_GENERATORS") == "1":
        pytest.fail(f"KOTLIK_REQUIRE_GENERATORS=1 but {reason}")
    pytest.skip(reason)


def _cache() -> Path:
    return Path(os.environ.get("KOTLIK_GENERATORS_DIR", Path.home() / ".cache" / "kotlik-generators"))


@pytest.fixture(scope="module")
def tools() -> Path:
    """The pinned packages, installed by ``npm ci`` from the lock into a directory named after
    the lock's digest: installed once, again only when the lock changes."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        _unavailable("node and npm are not installed")
    lock = (HERE / "package-lock.json").read_bytes()
    where = _cache() / f"npm-{hashlib.sha256(lock).hexdigest()[:16]}"
    bin_dir = where / "node_modules" / ".bin"
    if not (where / "installed").exists():
        where.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(HERE / name, where / name)
        install = ["npm", "ci", "--silent", "--no-audit", "--no-fund", "--prefix", str(where)]
        done = subprocess.run(install, capture_output=True, text=True, timeout=300, cwd=where)
        if done.returncode != 0:
            _unavailable(f"npm ci could not install {HERE / 'package-lock.json'}: {done.stderr[-500:]}")
        (where / "installed").touch()
    return bin_dir


@pytest.fixture(scope="module")
def document(live_url: str) -> dict[str, Any]:
    return dict(Client(live_url).get("/api/v1/openapi.json").body)


@pytest.fixture(scope="module")
def typescript(tools: Path, document: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding ``api.d.ts``, the types openapi-typescript generates from the document,
    and the pinned packages (``node_modules``), for sources to be compiled and run beside them."""
    where = tmp_path_factory.mktemp("typescript")
    (where / "openapi.json").write_text(json.dumps(document))
    generate = [str(tools / "openapi-typescript"), "openapi.json", "-o", "api.d.ts", *GENERATE]
    generated = subprocess.run(generate, capture_output=True, text=True, timeout=300, cwd=where)
    assert generated.returncode == 0, generated.stderr
    (where / "node_modules").symlink_to(tools.parent, target_is_directory=True)
    (where / "package.json").write_text(json.dumps({"type": "module", "private": True}))
    return where


def _tsc(tools: Path, source: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(tools / "tsc"), *TSC, *(options or ["--noEmit"]), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=source.parent,
    )


def test_generated_types_take_right_bodies_and_refuse_wrong_ones(tools: Path, typescript: Path) -> None:
    bodies = (HERE / "bodies.ts").read_text()
    assert bodies.count("@ts-expect-error") >= 8
    (typescript / "bodies.ts").write_text(bodies)
    compiled = _tsc(tools, typescript / "bodies.ts")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    unguarded = bodies.replace("// @ts-expect-error no command is called fly\n", "")
    assert unguarded != bodies
    (typescript / "unguarded.ts").write_text(unguarded)
    refused = _tsc(tools, typescript / "unguarded.ts")
    assert refused.returncode != 0 and '"fly"' in refused.stdout, refused.stdout


@pytest.fixture(scope="module")
def python_generator() -> Path:
    default = Path.home() / ".cache" / "kotlik-generators"
    where = Path(os.environ.get("KOTLIK_GENERATORS_DIR", default)) / PYTHON_GENERATOR.replace("==", "-")
    python = where / "bin" / "python"
    if not (where / "bin" / "openapi-python-client").exists():
        made = subprocess.run([sys.executable, "-m", "venv", str(where)], capture_output=True, text=True)
        install = [str(python), "-m", "pip", "install", "-q", PYTHON_GENERATOR]
        done = (
            subprocess.run(install, capture_output=True, text=True, timeout=600)
            if made.returncode == 0
            else made
        )
        if done.returncode != 0:
            _unavailable(f"pip could not install {PYTHON_GENERATOR}: {done.stderr[-500:]}")
    return where / "bin"


#: Run in the generator's venv, where the generated package's dependencies are.
MODELS_REFUSE = """
import sys
from kotlik_api_client.models import KupferkesselCreate, KupferkesselCommandMove
assert "options" in [a.name for a in KupferkesselCreate.__attrs_attrs__]
for model, body in ((KupferkesselCreate, {}), (KupferkesselCreate, {"game": "kupferkessel"}),
                    (KupferkesselCommandMove, {"type": "move"})):
    try:
        model.from_dict(body)
    except KeyError:
        continue
    sys.exit(f"{model.__name__} took {body}")
KupferkesselCreate.from_dict({"game": "kupferkessel", "seats": [{"name": "A"}, {"name": "B"}]})
KupferkesselCommandMove.from_dict({"type": "move", "steps": 2})
"""


@pytest.fixture(scope="module")
def python_client(
    python_generator: Path, document: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The project openapi-python-client generates from the document (``kotlik-api-client``)."""
    where = tmp_path_factory.mktemp("python")
    (where / "openapi.json").write_text(json.dumps(document))
    generate = [str(python_generator / "openapi-python-client"), "generate", "--path", "openapi.json"]
    generated = subprocess.run(generate, capture_output=True, text=True, timeout=600, cwd=where)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    # Every operation is generated: the import's body too, as application/octet-stream.
    assert "will not be generated" not in generated.stdout, generated.stdout
    project = where / "kotlik-api-client"
    assert (project / "kotlik_api_client" / "__init__.py").exists(), sorted(p.name for p in where.iterdir())
    return project


def test_the_generated_python_client_installs_and_its_models_refuse_wrong_bodies(
    python_generator: Path, python_client: Path
) -> None:
    checked = subprocess.run(
        [str(python_generator / "python"), "-c", MODELS_REFUSE],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=python_client,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


#: Seconds both clients get to play their four games: a bound for CI, far past a loaded run's.
PLAY_S = 150


def test_clients_built_on_the_generated_code_play_each_game_to_the_end(
    tools: Path,
    typescript: Path,
    python_generator: Path,
    python_client: Path,
    live_url: str,
    worker: Any,
) -> None:
    """``generated/play.ts`` (openapi-fetch, compiled with ``tsc --strict``, run by node) and
    ``generated/play.py`` (the generated ``kotlik_api_client``) each play a game of every kind
    against the server's bots, choosing from ``/actions``; each exits non-zero on any refused
    command or unreadable answer. The server's log then shows every game finished, each of the
    client's seat's commands in it."""
    (typescript / "play.ts").write_text((HERE / "play.ts").read_text())
    compiled = _tsc(tools, typescript / "play.ts", "--outDir", str(typescript))
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    shutil.copyfile(HERE / "play.py", python_client / "play.py")
    runs = {
        "typescript": subprocess.Popen(
            ["node", "play.js", live_url, "7"],
            cwd=typescript,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        ),
        "python": subprocess.Popen(
            [str(python_generator / "python"), "play.py", live_url, "7"],
            cwd=python_client,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        ),
    }
    deadline = time.monotonic() + PLAY_S
    outputs = {}
    for name, run in runs.items():
        try:
            outputs[name] = run.communicate(timeout=max(deadline - time.monotonic(), 1))
        except subprocess.TimeoutExpired:
            for started in runs.values():
                started.kill()
            pytest.fail(f"the {name} client did not finish its games in {PLAY_S} s: {run.communicate()}")
        assert run.returncode == 0, (name, outputs[name])
    api = Client(live_url)
    for name, (out, _) in outputs.items():
        played = [json.loads(line) for line in out.splitlines()]
        assert sorted(p["game"] for p in played) == sorted(games.known()), (name, out)
        for game in played:
            summary = api.get(f"/api/v1/games/{game['id']}").body
            assert summary["status"] == "finished" and summary["version"] == game["version"], (name, summary)
            assert game["winners"] == summary["result"]["winners"], (name, game, summary)
            # Each command the client sent is in the log, decided at a version of its own.
            exported = api.get(f"/api/v1/games/{game['id']}/export").raw.splitlines()[1:-1]
            lines = [json.loads(line) for line in exported]
            decided = {
                e["meta"]["at"] for e in lines if e["seat"] == game["seat"] and not e["meta"].get("bot")
            }
            assert game["commands"] == len(decided) >= 1, (name, game, len(decided))


#: Run in the generator's venv: the generated import operation sends an export as it is.
IMPORTS = """
import io, sys
from kotlik_api_client import AuthenticatedClient
from kotlik_api_client.api.exports import post_api_v1_games_import
from kotlik_api_client.models import Problem
from kotlik_api_client.types import File
base, token, path = sys.argv[1:]
admin = AuthenticatedClient(base_url=base, token=token)
sent = ((open(path, "rb").read(), 409, "game-exists"), (b"not an export", 400, "malformed-export"))
for body, status, kind in sent:
    answer = post_api_v1_games_import.sync_detailed(client=admin, body=File(payload=io.BytesIO(body)))
    problem = answer.parsed
    assert isinstance(problem, Problem) and answer.status_code == status, (answer.status_code, answer.content)
    assert problem.type_.endswith("/" + kind), problem
"""


def test_the_generated_python_client_sends_an_import(
    python_generator: Path,
    python_client: Path,
    live_url: str,
    app: Any,
    worker: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """openapi-python-client generates ``POST /games/import`` (its body is also documented as
    ``application/octet-stream``), and the server reads what it sends: a finished game's export
    is parsed and found here already (409), bytes that are no export are a 400."""
    monkeypatch.setitem(app.config, "KOTLIK_ADMIN_TOKEN", "generated-client-admin")
    api = Client(live_url)
    game = create(api, "kupferkessel", [{"name": "A"}, {"name": "B", "bot": "default"}])
    path = f"/api/v1/games/{game['id']}"
    assert api.seat(game["seats"][0]["token"]).post(f"{path}/resign").status == 201
    deadline = time.monotonic() + 60
    while api.get(path).body["status"] != "finished":
        assert time.monotonic() < deadline, "the resigned game was never scored"
        time.sleep(0.2)
    (tmp_path / "game.jsonl").write_bytes(api.get(f"{path}/export").raw)
    sent = subprocess.run(
        [
            str(python_generator / "python"),
            "-c",
            IMPORTS,
            live_url,
            "generated-client-admin",
            str(tmp_path / "game.jsonl"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=python_client,
    )
    assert sent.returncode == 0, sent.stdout + sent.stderr
