"""The served document through generators third parties use: ``openapi-typescript`` + ``tsc --strict``,
and ``openapi-python-client``.

The types generated from ``/api/v1/openapi.json`` must take the right bodies and refuse the wrong
ones (``generated/bodies.ts``: each wrong body sits under ``@ts-expect-error``, so one that compiles
fails the build as an unused directive), and give an answer's fields without casts. A copy with one
directive taken out must fail to compile: the check checks.

The Python client generated from the same document is a package pip can install
(``kotlik-api-client``, ``kotlik_api_client``: the document's title is ASCII), its create-game model
has ``options``, and its models refuse bodies missing what the schema requires.

The tools are pinned and installed from the npm registry into a cache directory once
(``KOTLIK_GENERATORS_DIR``, default ``~/.cache/kotlik-generators``); without node/npm or the
registry the test skips, unless ``KOTLIK_REQUIRE_GENERATORS=1`` (``.ci/run``) makes that a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from httpclient import Client

#: The Python generator, pinned; installed into a venv of its own (it brings httpx and attrs).
PYTHON_GENERATOR = "openapi-python-client==0.29.1"
#: The generator and compiler, pinned.
TOOLS = {"openapi-typescript": "7.13.0", "typescript": "5.9.3"}
HERE = Path(__file__).resolve().parent / "generated"
#: openapi-typescript makes a field with a ``default`` required unless told otherwise; a request's
#: defaulted fields (options) are optional.
GENERATE = ["--default-non-nullable", "false"]
TSC = ["--strict", "--noEmit", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler"]


def _unavailable(reason: str) -> None:
    if os.environ.get("KOTLIK_REQUIRE_GENERATORS") == "1":
        pytest.fail(f"KOTLIK_REQUIRE_GENERATORS=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def tools() -> Path:
    if shutil.which("npm") is None or shutil.which("node") is None:
        _unavailable("node and npm are not installed")
    default = Path.home() / ".cache" / "kotlik-generators"
    where = Path(os.environ.get("KOTLIK_GENERATORS_DIR", default)) / "-".join(TOOLS.values())
    bin_dir = where / "node_modules" / ".bin"
    if not (bin_dir / "openapi-typescript").exists() or not (bin_dir / "tsc").exists():
        where.mkdir(parents=True, exist_ok=True)
        specs = [f"{name}@{version}" for name, version in TOOLS.items()]
        install = ["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(where), *specs]
        done = subprocess.run(install, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            _unavailable(f"npm could not install {specs}: {done.stderr[-500:]}")
    return bin_dir


def _tsc(tools: Path, source: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(tools / "tsc"), *TSC, str(source)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=source.parent,
    )


def test_generated_types_take_right_bodies_and_refuse_wrong_ones(
    tools: Path, live_url: str, tmp_path: Path
) -> None:
    document = Client(live_url).get("/api/v1/openapi.json").body
    (tmp_path / "openapi.json").write_text(json.dumps(document))
    generate = [str(tools / "openapi-typescript"), "openapi.json", "-o", "api.d.ts", *GENERATE]
    generated = subprocess.run(generate, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert generated.returncode == 0, generated.stderr
    bodies = (HERE / "bodies.ts").read_text()
    assert bodies.count("@ts-expect-error") >= 8
    (tmp_path / "bodies.ts").write_text(bodies)
    compiled = _tsc(tools, tmp_path / "bodies.ts")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    unguarded = bodies.replace("// @ts-expect-error no command is called fly\n", "")
    assert unguarded != bodies
    (tmp_path / "unguarded.ts").write_text(unguarded)
    refused = _tsc(tools, tmp_path / "unguarded.ts")
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


def test_the_generated_python_client_installs_and_its_models_refuse_wrong_bodies(
    python_generator: Path, live_url: str, tmp_path: Path
) -> None:
    document = Client(live_url).get("/api/v1/openapi.json").body
    (tmp_path / "openapi.json").write_text(json.dumps(document))
    generate = [str(python_generator / "openapi-python-client"), "generate", "--path", "openapi.json"]
    generated = subprocess.run(generate, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    project = tmp_path / "kotlik-api-client"
    assert (project / "kotlik_api_client" / "__init__.py").exists(), sorted(
        p.name for p in tmp_path.iterdir()
    )
    checked = subprocess.run(
        [str(python_generator / "python"), "-c", MODELS_REFUSE],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=project,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
