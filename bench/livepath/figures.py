"""Figures over repetitions, and the one table that prints them beside the raw commit limit.

The machine is small, shared and noisy, so an absolute number means little; each figure is also
shown against the raw durable-commit limit measured in the same run: a rate as a fraction of it, a
duration as how many raw commits the machine could have made meanwhile.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

#: Figure kinds: how a figure compares with the raw limit.
RATE, DURATION, PLAIN = "rate", "duration", "plain"


@dataclass
class Figure:
    section: str
    name: str
    unit: str
    kind: str = PLAIN
    values: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.values) if self.values else math.nan


def percentile(samples: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (``p`` in 0–100); NaN for no samples, so a choked run still prints."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


class Board:
    """Every figure of a run, in the order first recorded; ``add`` once per repetition."""

    def __init__(self) -> None:
        self._figures: dict[tuple[str, str], Figure] = {}
        self.notes: list[str] = []

    def add(self, section: str, name: str, value: float, unit: str, kind: str = PLAIN) -> None:
        key = (section, name)
        if key not in self._figures:
            self._figures[key] = Figure(section, name, unit, kind)
        self._figures[key].values.append(value)

    def figures(self, section: str | None = None) -> list[Figure]:
        return [f for f in self._figures.values() if section is None or f.section == section]

    def note(self, text: str) -> None:
        self.notes.append(text)


def _number(value: float, unit: str) -> str:
    if math.isnan(value):
        return "n/a"
    if unit in ("ms",) and value < 10:
        return f"{value:.2f}"
    if abs(value) < 10 and value != int(value):
        return f"{value:.2f}"
    return f"{value:,.0f}"


def _spread(values: list[float], unit: str) -> str:
    if len(values) < 2:
        return ""
    return f"{_number(min(values), unit)}–{_number(max(values), unit)}"


def _ratio(figure: Figure, limit: float | None) -> str:
    """A rate as a fraction of the raw limit; a duration as the raw commits it is worth."""
    value = figure.median
    if limit is None or not limit or math.isnan(value) or figure.kind == PLAIN:
        return ""
    if figure.kind == RATE:
        return f"{value / limit:.3f}×"
    seconds = value / 1000 if figure.unit == "ms" else value
    return f"{seconds * limit:,.1f} commits"


def render(board: Board, limit: float | None, titles: Iterable[tuple[str, str]]) -> str:
    """The run's table: one block per section, columns aligned across the whole table."""
    header = ("figure", "median", "min–max", "unit", "vs raw limit")
    rows: list[tuple[str, ...] | str] = []
    for section, title in titles:
        figures = board.figures(section)
        if not figures:
            continue
        rows.append(f"{section}: {title}")
        for f in figures:
            rows.append(
                (
                    f"  {f.name}",
                    _number(f.median, f.unit),
                    _spread(f.values, f.unit),
                    f.unit,
                    _ratio(f, limit),
                )
            )
    table_rows = [r for r in rows if isinstance(r, tuple)]
    widths = [max(len(r[i]) for r in [header, *table_rows]) for i in range(len(header))]

    def line(cells: tuple[str, ...]) -> str:
        name, median, spread, unit, ratio = cells
        aligned = [name.ljust(widths[0]), median.rjust(widths[1]), spread.rjust(widths[2])]
        return "  ".join([*aligned, unit.ljust(widths[3]), ratio.rjust(widths[4])]).rstrip()

    out = [line(header), "-" * (sum(widths) + 2 * (len(widths) - 1))]
    out += [r if isinstance(r, str) else line(r) for r in rows]
    return "\n".join(out)
