"""One shape for content: every named thing in every catalog carries ``names: {cs, pl, en}``.

Clients render any game's catalog with one piece of code, so no game may name things its own way
(a flat ``cs`` key, a ``name`` object without Polish) or mix languages (``"2 čarodějky: red"``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

import games

LANGUAGES = {"cs", "pl", "en"}


@pytest.fixture(params=games.known())
def game(request: pytest.FixtureRequest) -> ModuleType:
    return games.load(request.param)


def _objects(value: Any, path: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object in ``value`` with its path, the ``names`` objects themselves left out."""
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            if key != "names":
                yield from _objects(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _objects(item, f"{path}[{i}]")


def _names(catalog: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], dict[str, str]]]:
    for path, obj in _objects(catalog):
        if "names" in obj:
            yield path, obj, obj["names"]


def test_the_game_and_each_named_thing_has_names_in_three_languages(game: ModuleType) -> None:
    catalog = game.catalog()
    assert catalog["game"] == game.INFO.id
    assert catalog["names"] == dict(game.INFO.names)
    named = list(_names(catalog))
    assert len(named) > 5
    for path, _, names in named:
        assert set(names) == LANGUAGES, path
        assert all(isinstance(n, str) and n.strip() for n in names.values()), path


def test_no_name_is_kept_any_other_way(game: ModuleType) -> None:
    """No flat ``cs``/``pl``/``en`` keys and no ``name`` object beside (or instead of) ``names``;
    a thing with an ``id`` is named itself or through each of its sides (a goal's easy and hard)."""
    for path, obj in _objects(game.catalog()):
        assert not {"cs", "pl", "en", "name"} & set(obj), path
        if isinstance(obj.get("id"), str) and "names" not in obj:
            sides = [v for v in obj.values() if isinstance(v, dict)]
            assert sides and all("names" in v for v in sides), path


def _ids(catalog: dict[str, Any]) -> set[str]:
    found = {str(obj["id"]).lower() for _, obj in _objects(catalog) if "id" in obj}
    for _, obj in _objects(catalog):  # things kept in a dict by id (colours, figures, levels)
        found |= {str(k).lower() for k, v in obj.items() if isinstance(v, dict) and "names" in v}
    return {i for i in found if len(i) >= 3}


def test_czech_and_polish_names_do_not_fall_back_on_english_ids(game: ModuleType) -> None:
    """``"2 čarodějky: red"`` names a colour by its id; a Czech or Polish name may contain another
    thing's id only where that word is the thing's own id (``Tornado``)."""
    catalog = game.catalog()
    ids = _ids(catalog)
    for path, obj, names in _names(catalog):
        own = str(obj.get("id", "")).lower()
        for lang in ("cs", "pl"):
            words = {w.lower() for w in re.findall(r"\w+", names[lang])}
            assert not (words & ids) - {own}, (path, lang, names[lang])
