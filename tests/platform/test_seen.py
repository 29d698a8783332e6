"""What a seat may see is decided in :mod:`projections.seen` alone: no other module of the platform
calls the rules' ``view``, ``redact``, ``recall`` or ``redact_command``, so a new path that shows a
game cannot show more than the seat may see without going through it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLATFORM = ("service", "commands", "audit", "projections", "workers")
DECIDING = {"view", "redact", "recall", "redact_command"}


def _calls(path: Path) -> list[str]:
    """``<line>: <name>`` of each call of an attribute named like one of the rules' deciding parts."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DECIDING:
            owner = node.func.value
            if not (isinstance(owner, ast.Name) and owner.id == "seen"):  # seen.view(...) is the door
                found.append(f"{node.lineno}: {node.func.attr}")
    return found


def test_only_the_seen_module_asks_the_rules_what_a_seat_sees() -> None:
    callers = {
        str(path.relative_to(ROOT)): calls
        for package in PLATFORM
        for path in sorted((ROOT / package).rglob("*.py"))
        if path != ROOT / "projections" / "seen.py" and (calls := _calls(path))
    }
    assert callers == {}


def test_the_seen_module_does_ask_them() -> None:
    """The check above finds such calls where they are (it would pass on an empty tree otherwise)."""
    assert sorted({c.split(": ")[1] for c in _calls(ROOT / "projections" / "seen.py")}) == [
        "recall",
        "redact",
        "view",
    ]
