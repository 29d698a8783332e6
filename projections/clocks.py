"""Turn clocks: the option ``clock``, the deadline of the seats to move, and what is due.

A clocked game's row holds its clock and the deadline of the seats to move now; the deadline is
set when a seat comes to move (a turn of several moves by one seat keeps its deadline, and so do
seats still to move when another finishes its part of a shared turn) and cleared when the game
ends. Times are the database's (``now()``), so every process agrees, and a
worker that was down finds the deadlines that passed meanwhile.
"""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

from psycopg import Connection

from games.interface import InvalidOptions

#: What happens when a seat's time is up.
ON_TIMEOUT = ("bot", "forfeit")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$")
#: The shortest and longest time per move.
SHORTEST, LONGEST = 1.0, 30 * 86400.0
#: The warning goes out when this share of the time per move is left (at most an hour before).
WARN_SHARE, WARN_MAX = 0.25, 3600.0


def seconds(text: Any, field: str) -> float:
    """``"24h"``, ``"90m"``, ``"2s"``, ``"3d"`` or a number of seconds, as seconds."""
    if isinstance(text, bool):
        raise InvalidOptions(f"clock.{field} must be a duration such as '24h', '30m' or '2s'")
    if isinstance(text, int | float):
        value = float(text)
    else:
        match = _DURATION.match(text) if isinstance(text, str) else None
        if match is None:
            raise InvalidOptions(f"clock.{field} must be a duration such as '24h' or '2s', not {text!r}")
        value = float(match.group(1)) * _UNITS[match.group(2)]
    if not SHORTEST <= value <= LONGEST:
        raise InvalidOptions(f"clock.{field} must be between 1s and 30d, not {text!r}")
    return value


def parse(option: Any, bots: dict[str, Any]) -> dict[str, Any] | None:
    """The option ``clock`` checked and normalised for the row; ``None`` for no clock."""
    if option is None:
        return None
    if not isinstance(option, dict):
        raise InvalidOptions('clock must be an object such as {"per_move": "24h", "on_timeout": "bot"}')
    unknown = sorted(set(option) - {"per_move", "on_timeout", "warn_before"})
    if unknown:
        raise InvalidOptions(f"clock takes per_move, on_timeout and warn_before, not {unknown[0]!r}")
    if "per_move" not in option:
        raise InvalidOptions('clock.per_move is required, e.g. "24h"')
    per_move = seconds(option["per_move"], "per_move")
    on_timeout = option.get("on_timeout", "bot")
    if on_timeout not in ON_TIMEOUT:
        raise InvalidOptions(f"clock.on_timeout must be one of {list(ON_TIMEOUT)}, not {on_timeout!r}")
    if on_timeout == "bot" and "default" not in bots:
        raise InvalidOptions("clock.on_timeout 'bot' needs a bot named 'default'; this game has none")
    warn = min(per_move * WARN_SHARE, WARN_MAX)
    if "warn_before" in option:
        warn = seconds(option["warn_before"], "warn_before")
        if warn >= per_move:
            raise InvalidOptions("clock.warn_before must be shorter than clock.per_move")
    return {
        "per_move": option["per_move"],
        "on_timeout": on_timeout,
        "seconds": per_move,
        "warn_seconds": warn,
    }


def change(clock: dict[str, Any] | None, arrived: bool, over: bool) -> tuple[str, float | None]:
    """What a move does to the deadline (:class:`commands.writes.Write`'s ``clock``, ``seconds``):
    a seat that came to move (``arrived``) starts a new one, the game's end clears it."""
    if clock is None or not (arrived or over):
        return "keep", None
    if over:
        return "clear", None
    return "set", float(clock["seconds"])


def warn_due(conn: Connection[Any], limit: int = 100) -> list[dict[str, Any]]:
    """Mark and return the games whose warning is due; each is returned to one caller only."""
    return conn.execute(
        "UPDATE games SET warned = true WHERE id IN (SELECT id FROM games WHERE status = 'active' "
        "AND deadline IS NOT NULL AND NOT warned "
        "AND deadline - make_interval(secs => (clock->>'warn_seconds')::float) <= now() "
        "ORDER BY deadline LIMIT %s FOR UPDATE SKIP LOCKED) "
        "RETURNING id, version, to_move, deadline",
        (limit,),
    ).fetchall()


def expired(conn: Connection[Any], limit: int = 100) -> list[tuple[UUID, int]]:
    """Running games whose seats to move are out of time, as (id, version), oldest deadline first."""
    rows = conn.execute(
        "SELECT id, version FROM games WHERE status = 'active' AND deadline <= now() "
        "ORDER BY deadline LIMIT %s",
        (limit,),
    ).fetchall()
    return [(r["id"], int(r["version"])) for r in rows]


def is_expired(conn: Connection[Any], game_id: UUID) -> bool:
    row = conn.execute("SELECT deadline <= now() AS late FROM games WHERE id = %s", (game_id,)).fetchone()
    return bool(row and row["late"])
