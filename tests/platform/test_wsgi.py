"""The gunicorn entry point's settings for a long-lived serving process."""

from __future__ import annotations

import os
import subprocess
import sys

_REPORT = (
    "import gc, service.wsgi\n"
    "print(gc.get_freeze_count(), gc.get_threshold()[0], service.wsgi.YOUNG_COLLECTIONS)"
)


def test_start_up_is_frozen_out_of_the_collectors_full_sweeps(broker: dict[str, str]) -> None:
    """Each worker imports the app itself (no ``--preload``), so importing it must freeze it."""
    env = {**os.environ, **broker}
    report = subprocess.run(
        [sys.executable, "-c", _REPORT], env=env, capture_output=True, text=True, timeout=120, check=True
    )
    frozen, young, configured = map(int, report.stdout.split())
    assert frozen > 50_000, "the modules, schemas and routes are walked by every full collection"
    assert young == configured > 700, "the youngest objects are collected at CPython's default pace"
