"""``bench/live.py`` runs end to end on its quick preset: raw commits, commands over real HTTP, and
the server CPU of an answer.

A benchmark asserts nothing about speed; this only checks that it starts the service by the CLI,
drives it, prints its table and stops everything, so it does not rot between the times it is run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("aiohttp", reason="the benchmark's extra: pip install -e '.[bench]'")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_quick_run_prints_the_table(server_url: str) -> None:
    quick = ["--quick", "--seconds", "1", "--sections", "raw,commands,costs"]
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "live.py"), *quick],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": server_url},
        capture_output=True,
        text=True,
        timeout=360,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    table = result.stdout
    for heading in ("figure", "median", "min–max", "vs raw limit", "raw: durable", "commands: two-human"):
        assert heading in table, table
    paced = ("actions+post ×50 at 600/s: POST p99", "post-only ×50 at 600/s: commands started late")
    for row in ("post-only ×50: commands/s", *paced):
        assert row in table, table
    costs = (
        "GET /health: web CPU",
        "POST /commands (post-only ×16): PostgreSQL CPU",
        "a command's events to one stream (8 a game): web CPU",
        "load driver CPU",
    )
    for cost in costs:
        assert cost in table, table
