"""A game ended by seats leaving it (resigned, or forfeited on time), alike for every game.

The platform records each leaving seat as a ``kotlik.SeatResigned`` event (the rules never see
it) and scores such a game here rather than by the rules: the seats that left lose, every other
seat wins, and the breakdown so far is kept where the rules can give one. Pure, so that the
scoring worker and ``kotlik verify`` compute the same result.
"""

from __future__ import annotations

from typing import Any

import orjson

from games.interface import Rules

#: The event type of a seat leaving a game.
RESIGNED = "kotlik.SeatResigned"
#: Why a seat left: it resigned, or its clock ran out with ``on_timeout: forfeit``.
REASONS = ("resigned", "forfeit")


def result(game: Rules, state: Any, seats: int, left: dict[int, str]) -> dict[str, Any]:
    """The result of a game of ``seats`` seats that ``left`` (seat → reason) ended."""
    try:
        scored = orjson.loads(orjson.dumps(game.score(state), option=orjson.OPT_NON_STR_KEYS))
        breakdown = list(scored.get("seats") or [])
    except Exception:  # the rules may score only an ended game; the result does without it
        breakdown = []
    by_seat = {b.get("seat"): b for b in breakdown if isinstance(b, dict)}
    rows = []
    for seat in range(seats):
        entry = {**by_seat.get(seat, {}), "seat": seat}
        if seat in left:
            entry["left"] = left[seat]
        rows.append(entry)
    return {
        "seats": rows,
        "winners": [seat for seat in range(seats) if seat not in left],
        "ended": [{"seat": seat, "reason": reason} for seat, reason in left.items()],
    }
