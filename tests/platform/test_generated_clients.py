"""The served document through a generator third parties use: ``openapi-typescript`` + ``tsc --strict``.

The types generated from ``/api/v1/openapi.json`` must take the right bodies and refuse the wrong
ones (``generated/bodies.ts``: each wrong body sits under ``@ts-expect-error``, so one that compiles
fails the build as an unused directive), and give an answer's fields without casts. A copy with one
directive taken out must fail to compile: the check checks.

The tools are pinned and installed from the npm registry into a cache directory once
(``KOTLIK_GENERATORS_DIR``, default ``~/.cache/kotlik-generators``); without node/npm or the
registry the test skips, unless ``KOTLIK_REQUIRE_GENERATORS=1`` (``.ci/run``) makes that a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from httpclient import Client

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
