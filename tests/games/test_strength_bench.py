"""``bench/strength.py`` in parts: a match played as games ``0 … N-1`` and then, with ``--first N``,
the games from ``N`` on, records what one run of them all does (the same seeds, so the same games);
a part that does not follow the recorded games is refused."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: A quick match: the greedy bot against random moves, a few milliseconds a game.
MATCH = ["--game", "kupferkessel", "--pairs", "default:random", "--procs", "1", "--record"]


@pytest.fixture
def strength(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """The benchmark, recording into a folder of the test's own (not the project's seeds)."""
    spec = importlib.util.spec_from_file_location("strength_bench", ROOT / "bench" / "strength.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "strength_bench", module)  # its worker processes find it by name
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "SEEDS", tmp_path)
    return module


def _recorded(where: Path) -> dict[str, Any]:
    figures = json.loads((where / "kupferkessel" / "strength.json").read_text())["default"]
    assert len(figures) == 1
    return {k: v for k, v in figures[0].items() if k not in ("median_ms", "p99_ms")}  # times differ


def test_a_match_in_two_parts_records_what_one_run_does(strength: Any, tmp_path: Path) -> None:
    strength.SEEDS = tmp_path / "whole"
    (strength.SEEDS / "kupferkessel").mkdir(parents=True)
    strength.main([*MATCH, "--games", "12"])
    whole = _recorded(strength.SEEDS)

    strength.SEEDS = tmp_path / "parts"
    (strength.SEEDS / "kupferkessel").mkdir(parents=True)
    strength.main([*MATCH, "--games", "5"])
    assert _recorded(strength.SEEDS)["games"] == 5
    strength.main([*MATCH, "--games", "7", "--first", "5"])
    assert _recorded(strength.SEEDS) == whole
    assert whole["games"] == 12 and 0 < float(whole["wins"]) <= 12

    with pytest.raises(SystemExit, match="recorded: 12 games"):  # a gap or an overlap
        strength.main([*MATCH, "--games", "3", "--first", "10"])


def test_a_record_from_before_wins_were_stored_gives_them_from_its_share(strength: Any) -> None:
    assert strength._wins({"seats": 2, "games": 500, "share": 0.832}) == 416
    assert strength._wins({"seats": 2, "games": 7, "share": 0.643}) == 4.5  # a tie shares a win
    with pytest.raises(SystemExit):  # three seats share a win in thirds: the share cannot say
        strength._wins({"seats": 3, "games": 500, "share": 0.535})
