"""Every in-process cache of one app, in one place: made with the app, sized by its settings, and
forgotten together.

A web app (:func:`service.app.create_app`) and the worker (:mod:`workers.app`) each make one
:class:`Caches` and hand it to whatever reads through a cache. Nothing caches in a module global,
so two apps in one process (the tests make many) share nothing, and :meth:`Caches.forget` leaves a
process as a restart would: slower for a moment, never wrong, because every cache here holds only
what committed events made and is checked against the lobby row's version before it is trusted.

The read side's two are typed fields (``states``, ``tokens``); the web app adds its own (the
streams' rendered spans, the long-polls' answers, the lobby rows its watchers share, the versions
its listener heard) with :meth:`Caches.add`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from projections.state import States
from projections.tokens import KnownTokens

#: Each cache's setting: (environment variable or app config key, default size).
STATES = ("KOTLIK_CACHE_GAMES", 2000)
TOKENS = ("KOTLIK_TOKEN_GAMES", 10_000)


class Forgettable(Protocol):
    """What a registered cache offers: how many entries it holds, and to forget them all, as a
    restart does."""

    def __len__(self) -> int: ...

    def clear(self) -> None: ...


Cache = TypeVar("Cache", bound=Forgettable)


@dataclass
class Caches:
    """One app's in-process caches."""

    #: Games' states (:class:`projections.state.States`).
    states: States
    #: The seats of games' tokens (:class:`projections.tokens.KnownTokens`).
    tokens: KnownTokens
    #: The app's own caches by name, registered with :meth:`add`.
    others: dict[str, Forgettable] = field(default_factory=dict)

    @classmethod
    def sized(cls, config: Mapping[str, Any] | None = None) -> Caches:
        """The read side's caches, sized by ``config`` (an app's config), else the environment."""
        return cls(States(size(config, *STATES)), KnownTokens(size(config, *TOKENS)))

    @classmethod
    def none(cls) -> Caches:
        """Caches that keep nothing: for a caller that holds no app (a script, a test)."""
        return cls(States(0), KnownTokens(0))

    def add(self, name: str, cache: Cache) -> Cache:
        """Register ``cache`` under ``name``, so that :meth:`forget` forgets it too; returns it."""
        if name in self.others:
            raise ValueError(f"a cache named {name!r} is registered already")
        self.others[name] = cache
        return cache

    def held(self) -> dict[str, int]:
        """How many entries each cache holds now, by name."""
        return {"states": len(self.states), "tokens": len(self.tokens)} | {
            name: len(cache) for name, cache in self.others.items()
        }

    def forget(self) -> None:
        """Forget what every cache holds."""
        self.states.clear()
        self.tokens.clear()
        for cache in self.others.values():
            cache.clear()


def size(config: Mapping[str, Any] | None, name: str, default: int) -> int:
    """The size ``name`` sets in ``config``, else in the environment, else ``default``; a clear
    error for anything but a whole number of at least zero (zero keeps nothing)."""
    value = (config or {}).get(name, os.environ.get(name, default))
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"{name} must be a number of entries, not {value!r}") from None
    if number < 0:
        raise ValueError(f"{name} must not be negative, not {number}")
    return number
