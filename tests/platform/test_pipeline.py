"""The request's way in, as the app factory builds it (:func:`service.app._pipeline`): read off the
app that is made, layer by layer and hook by hook, so that a change of order is a change here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask


def _name(thing: Any) -> str:
    owner = getattr(thing, "__self__", None)
    if owner is not None:  # a bound method: its class and name
        return f"{type(owner).__module__}.{type(owner).__qualname__}.{thing.__name__}"
    if not callable(thing) or isinstance(thing, type) or not hasattr(thing, "__qualname__"):
        return f"{type(thing).__module__}.{type(thing).__qualname__}"
    return f"{thing.__module__}.{thing.__qualname__}"


def pipeline(app: Flask) -> list[str]:
    """Every WSGI layer from the outside in, then Flask's hooks in the order they run."""
    layers: list[str] = []
    wsgi: Any = app.wsgi_app
    while getattr(wsgi, "__self__", None) is not app:
        layers.append(_name(wsgi))
        wsgi = wsgi.app
    hooks: list[Callable[..., Any]] = app.before_request_funcs.get(None, [])
    after = app.after_request_funcs.get(None, [])
    return [
        *layers,
        *(f"before: {_name(hook)}" for hook in hooks),
        "the view",
        *(f"after: {_name(hook)}" for hook in reversed(after)),  # Flask runs them last-added first
    ]


@pytest.fixture
def make_app(pool: Any) -> Callable[..., Flask]:
    from service.app import create_app

    def make(**config: Any) -> Flask:
        app: Flask = create_app(pool, TESTING=True, KOTLIK_RATE_LIMIT_STORAGE="memory://", **config)
        return app

    return make


def test_the_request_meets_the_layers_and_hooks_in_the_order_the_factory_writes(
    make_app: Callable[..., Flask],
) -> None:
    assert pipeline(
        make_app(
            KOTLIK_RATE_LIMITS="commands=100/second",
            KOTLIK_PROXIES=1,
            KOTLIK_CORS_ORIGINS="https://client.example",
        )
    ) == [
        "service.guard.headers.SecurityHeaders",
        "service.guard.observed.Observed",
        "service.live.polls.Spectators",
        "werkzeug.middleware.proxy_fix.ProxyFix",
        "service.api.fast.HotRoutes",
        "before: service.guard.cors.register.<locals>.preflight",
        "before: service.guard.ratelimit.RateLimits.refuse",
        "before: service.guard.limits.refuse_other_media",
        "before: service.guard.limits.read_json_first",
        "the view",
        "after: service.guard.cors.register.<locals>.annotate",
        "after: service.guard.ratelimit.RateLimits.count_unauthorized",
    ]


def test_without_proxies_rate_limits_or_cors_their_parts_are_left_out(make_app: Callable[..., Flask]) -> None:
    assert pipeline(make_app(KOTLIK_RATE_LIMITS="off", KOTLIK_PROXIES=0, KOTLIK_CORS_ORIGINS="")) == [
        "service.guard.headers.SecurityHeaders",
        "service.guard.observed.Observed",
        "service.live.polls.Spectators",
        "service.api.fast.HotRoutes",
        "before: service.guard.limits.refuse_other_media",
        "before: service.guard.limits.read_json_first",
        "the view",
    ]
