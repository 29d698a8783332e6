"""What a game's log must look like after faults: gapless, each command once, scored once."""

from __future__ import annotations

from itertools import groupby
from typing import Any
from uuid import UUID

from audit import stored
from events import read
from projections import lobby
from projections.fold import PLATFORM


def check_game(conn: Any, game_id: UUID, *, finished: bool = True) -> dict[str, Any]:
    """What is wrong with a game's log (``problems``) and its figures: gapless versions, each command's
    events in one run starting right after the version it was decided at (a bot turn played twice
    would decide at the same ``at`` twice), scored once, the lobby in step, the audit clean."""
    events = read(conn, game_id)
    versions = [e.version for e in events]
    problems: list[str] = []
    gaps = len(set(range(1, (versions[-1] if versions else 0) + 1)) - set(versions))
    if versions != list(range(1, len(versions) + 1)):
        problems.append(f"versions are not 1..{len(versions)}: {gaps} missing")
    commands = [e for e in events if "at" in e.meta]
    runs = [(at, [e.version for e in group]) for at, group in groupby(commands, key=lambda e: e.meta["at"])]
    ats = [at for at, _ in runs]
    duplicated = len(ats) - len(set(ats))
    if duplicated:
        problems.append(f"{duplicated} command(s) decided twice at the same version")
    misplaced = [at for at, vs in runs if vs[0] != at + 1]
    if misplaced:
        problems.append(f"commands whose events do not follow their version: {misplaced[:5]}")
    scored = [e for e in events if e.type == f"{PLATFORM}GameScored"]
    row = lobby.get(conn, game_id)
    if row.version != (versions[-1] if versions else 0):
        problems.append(f"the lobby says version {row.version}, the log ends at {versions[-1]}")
    if finished:
        if row.status != "finished" or len(scored) != 1 or events[-1].type != f"{PLATFORM}GameScored":
            problems.append(f"not finished and scored once: status {row.status}, {len(scored)} GameScored")
        if lobby.score(conn, game_id) is None:
            problems.append("no score")
        problems += stored.verify(conn, game_id)
    return {
        "problems": problems,
        "events": len(events),
        "commands": len(runs),
        "gaps": gaps,
        "duplicated": duplicated,
        "status": row.status,
    }
