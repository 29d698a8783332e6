"""Ready for sharding by game (``docs/scaling.md``): every SQL statement of the platform that
touches a game's own rows names the game — by ``game_id``, or ``games.id`` — so that Citus, with
every per-game table distributed by the game's id, routes it to one shard. The statements that
read across games are listed here with why; a new one fails this test until it is listed.

The statements are read from the source (every string that starts with SELECT, INSERT, UPDATE,
DELETE or WITH), not from a database log, so a statement no test happens to run is checked too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("events", "projections", "commands", "audit", "workers", "service")
#: The tables with a game's rows: distributed by the game's id under Citus.
PER_GAME = ("events", "commands", "snapshots", "seat_tokens", "game_players", "game_seeds", "scores", "games")
_TOUCHES = re.compile(r"\b(?:FROM|JOIN|INTO|UPDATE)\s+(" + "|".join(PER_GAME) + r")\b", re.IGNORECASE)
_NAMES_GAME = re.compile(r"\bgame_id\b|\bid\s*(?:=|IN\b|= ANY)|INSERT INTO games \(id,", re.IGNORECASE)

#: (module, the statement's start) → why it reads across games; under Citus each is a multi-shard
#: query, fine for what it is (a periodic sweep, a page of the lobby).
ACROSS_GAMES = {
    ("projections/clocks.py", "SELECT id, version FROM games WHERE status = 'active' AND deadline"): (
        "the clock sweep: the games whose turn has run out"
    ),
    ("projections/lobby.py", "SELECT count(*) AS n FROM games"): "the lobby's count of games",
    ("projections/lobby.py", "SELECT {} FROM games {} ORDER BY created_at DESC"): "a page of the lobby",
    ("projections/lobby.py", "SELECT {} FROM games WHERE status IN ('active', 'scoring') AND updated_at"): (
        "the stalled-game sweep: games waiting on a worker too long"
    ),
    ("commands/openings.py", "SELECT id FROM games WHERE status = 'open' AND expires_at <= now()"): (
        "the lobby's sweep: open games that waited past their limit expire"
    ),
    ("projections/credentials.py", "DELETE FROM seat_tokens"): (
        "`kotlik credentials rebuild`: every seat's token from the log, offline"
    ),
    ("projections/credentials.py", "SELECT id, credentials FROM games WHERE credentials > 0"): (
        "`kotlik credentials check`: the games' counts of reissued tokens against the log, offline"
    ),
    ("projections/credentials.py", "UPDATE games SET credentials = 0 WHERE credentials <> 0"): (
        "`kotlik credentials rebuild`: the games' counts from the log, offline"
    ),
    ("projections/openings.py", "SELECT id, rated, creator, expires_at, seats, status FROM games WHERE"): (
        "`kotlik` checking the open games' columns against the log: offline, every game"
    ),
}


def _statements() -> list[tuple[str, str]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    text = node.value
                elif isinstance(node, ast.JoinedStr):
                    text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
                else:
                    continue
                if re.match(r"\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b", text, re.IGNORECASE):
                    found.append((str(path.relative_to(ROOT)), " ".join(text.split())))
    return found


def test_every_statement_on_a_games_rows_names_the_game_or_is_listed() -> None:
    statements = _statements()
    assert len(statements) > 50, "the scan found too few statements to be reading the source"
    across = {
        (module, text)
        for module, text in statements
        if _TOUCHES.search(text) and not _NAMES_GAME.search(text)
    }
    unlisted = [
        f"{module}: {text[:120]}"
        for module, text in sorted(across)
        if not any(module == m and text.startswith(start) for m, start in ACROSS_GAMES)
    ]
    assert not unlisted, "statements across games not in ACROSS_GAMES:\n" + "\n".join(unlisted)
    stale = [key for key in ACROSS_GAMES if not any(m == key[0] and t.startswith(key[1]) for m, t in across)]
    assert not stale, f"listed but no longer in the source: {stale}"
