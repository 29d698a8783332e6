"""Behind reverse proxies: the client's address, scheme and host from the ``X-Forwarded-*`` headers.

Rate limits count per client address. Behind nginx or a load balancer every request comes from
the proxy, so all its clients would share one address's limits. ``KOTLIK_PROXIES`` says how many
proxies stand in front of Kotlík, each appending the address it saw to ``X-Forwarded-For``; only
those last entries are believed, since a client may send the header too. With 0, the default,
the headers are ignored.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix


def hops(config: Mapping[str, Any]) -> int:
    """``KOTLIK_PROXIES`` from the app's config, else the environment; 0 when unset."""
    value = config.get("KOTLIK_PROXIES", os.environ.get("KOTLIK_PROXIES", 0))
    try:
        count = int(value)
    except ValueError:
        raise ValueError(f"KOTLIK_PROXIES must be the number of proxies in front, not {value!r}") from None
    if count < 0:
        raise ValueError(f"KOTLIK_PROXIES must be 0 or more, not {count}")
    return count


def register(app: Flask) -> None:
    count = hops(app.config)
    if count:
        fixed = ProxyFix(app.wsgi_app, x_for=count, x_proto=count, x_host=count)
        app.wsgi_app = fixed  # type: ignore[method-assign]  # Flask's documented way to wrap it
