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
    """Every id the catalog names, with its name in ``lang`` (English, else any, as a fallback).

    A named object's id is its ``id``, or else its key in a map of such objects (one without an
    ``id`` of its own: Carcassonne's ``figures``); a named part of an object with an id (a
    Čarodění goal's ``easy`` side) is no id of its own. One-letter ids (Carcassonne's tile kinds)
    are left out: too many other values are one letter (the edges ``N``, ``E``, ``S``, ``W``).
    """
    found: dict[str, str] = {}
    for key, node, parent in _walk(catalog, None, None):
        localized = node.get("names") if isinstance(node, dict) else None
        if not isinstance(localized, dict):
            continue
        ident = node.get("id")
        if not isinstance(ident, str) and isinstance(parent, dict) and "id" not in parent:
            ident = key
        name = localized.get(lang) or localized.get("en") or next(iter(localized.values()), None)
        if isinstance(ident, str) and len(ident) > 1 and isinstance(name, str):
            found.setdefault(ident, name)
    return found


def aliases(view: Any, named: Mapping[str, str]) -> dict[str, str]:
    """Ids of the view's own (``uid``) for objects that hold exactly one piece of named content."""
    found: dict[str, str] = {}
    for _, node, _ in _walk(view, None, None):
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


def render(view: Any, named: Mapping[str, str] | None = None, width: int = 100, indent: str = "") -> str:
    """The view pretty-printed compactly: short fields packed several to a line, longer ones
    nested below their name, and ids the catalog names shown by their names."""
    lines: list[str] = []
    _render(view, named or {}, indent, width, lines, "")
    return "\n".join(lines)


def _render(
    value: Any, named: Mapping[str, str], indent: str, width: int, lines: list[str], label: str
) -> None:
    flat = inline(value, named)
    plain = isinstance(value, list) and not any(isinstance(v, dict | list) for v in value)
    if (
        len(indent) + len(label) + len(flat) <= width
        or plain
        or not isinstance(value, dict | list)
        or not value
    ):
        lines.append(f"{indent}{label}{flat}")
        return
    if label:
        lines.append(f"{indent}{label.rstrip()}")
        indent += "  "
    if isinstance(value, list):
        for item in value:
            start = len(lines)
            _render(item, named, indent + "  ", width, lines, "")
            lines[start] = f"{indent}- {lines[start][len(indent) + 2 :]}"
        return
    packed = ""
    for key, item in value.items():
        text = f"{key}: {inline(item, named)}"
        if len(text) > width // 2:
            if packed:
                lines.append(packed)
                packed = ""
            _render(item, named, indent, width, lines, f"{key}: ")
        elif packed and len(packed) + 3 + len(text) <= width:
            packed += f"   {text}"
        else:
            if packed:
                lines.append(packed)
            packed = f"{indent}{text}"
    if packed:
        lines.append(packed)


def inline(value: Any, named: Mapping[str, str]) -> str:
    """One line: ``{uid: p0.02, card: Shield}``, ``[1, 2]``, names for the catalog's ids."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {inline(v, named)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(inline(v, named) for v in value) + "]"
    if isinstance(value, str):
        return named.get(value, value)
    return json.dumps(value)


def _walk(node: Any, key: str | None, parent: Any) -> Iterator[tuple[str | None, Any, Any]]:
    """Every node with its key (in a map) and the object or list it is in."""
    yield key, node, parent
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _walk(v, str(k), node)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v, None, node)
