"""Commands and views in words, for any game, from data alone: the catalog's names.

A game's catalog names its content (``{"id": ..., "names": {"cs", "pl", "en"}}`` in lists, or
``{id: {"names": ...}}`` in maps); a command's value that is such an id is shown by its name. A
view may hold a piece of content under an id of its own (Škoda kouzla's ``{"uid": "p0.02", "card":
"stit"}``): such an object aliases its own id to the content's name. No game is known by name here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

#: Keys of an object that give it an id of its own, beside the content it holds.
_OWN_IDS = ("uid", "id")


def names(catalog: Any, lang: str = "en") -> dict[str, str]:
    """Every id the catalog names, with its name in ``lang`` (English, else any, as a fallback)."""
    found: dict[str, str] = {}
    for key, node in _walk(catalog, None):
        localized = node.get("names") if isinstance(node, dict) else None
        ident = node.get("id") if isinstance(node, dict) else None
        ident = ident if isinstance(ident, str) else key
        if isinstance(localized, dict) and isinstance(ident, str) and ident != "game":
            name = localized.get(lang) or localized.get("en") or next(iter(localized.values()), None)
            if isinstance(name, str):
                found.setdefault(ident, name)
    return found


def aliases(view: Any, named: Mapping[str, str]) -> dict[str, str]:
    """Ids of the view's own (``uid``) for objects that hold exactly one piece of named content."""
    found: dict[str, str] = {}
    for _, node in _walk(view, None):
        if not isinstance(node, dict):
            continue
        content = [v for v in node.values() if isinstance(v, str) and v in named]
        own = next((node[k] for k in _OWN_IDS if isinstance(node.get(k), str) and node[k] not in named), None)
        if own is not None and len(content) == 1:
            found[own] = named[content[0]]
    return found


def describe(command: Mapping[str, Any], named: Mapping[str, str]) -> str:
    """``take: card Box of hair 1`` for ``{"type": "take", "card": "white-hair-1"}``."""
    verb = str(command.get("type", "?")).replace("_", " ")
    parts = [
        f"{key.replace('_', ' ')} {_value(value, named)}" for key, value in command.items() if key != "type"
    ]
    return f"{verb}: {', '.join(parts)}" if parts else verb


def _value(value: Any, named: Mapping[str, str]) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return named.get(value, value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v, named) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_value(v, named)}" for k, v in value.items()) + "}"
    return str(value)


def render(view: Any, width: int = 100, indent: str = "") -> str:
    """The view pretty-printed compactly: one line per field, nested fields indented, and any
    part that fits in ``width`` (and any list of plain values) on one line as compact JSON."""
    lines: list[str] = []
    _render(view, indent, width, lines)
    return "\n".join(lines)


def _render(value: Any, indent: str, width: int, lines: list[str], label: str = "") -> None:
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    head = f"{indent}{label}"
    scalars = isinstance(value, list) and not any(isinstance(v, dict | list) for v in value)
    if len(head) + len(flat) <= width or scalars or not isinstance(value, dict | list) or not value:
        lines.append(head + flat)
        return
    if label:
        lines.append(head.rstrip())
        indent += "  "
    if isinstance(value, dict):
        for key, item in value.items():
            _render(item, indent, width, lines, f"{key}: ")
    else:
        for item in value:
            _render(item, indent, width, lines, "- ")


def _walk(node: Any, key: str | None) -> Iterator[tuple[str | None, Any]]:
    yield key, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _walk(v, str(k))
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v, None)
