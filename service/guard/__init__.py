"""What a request must pass before a view sees it.

- :mod:`service.guard.observed`: the request's id and metrics, and the operator's ``GET /metrics``.
- :mod:`service.guard.auth`: the seat or player a bearer token stands for.
- :mod:`service.guard.ratelimit`: rate limits on writes and on wrong tokens.
- :mod:`service.guard.limits`: bounds on a body's size and nesting, and its media type.
- :mod:`service.guard.cors`: CORS for other web origins.
- :mod:`service.guard.headers`: security headers on every answer (framing, sniffing, CSP, HSTS).
- :mod:`service.guard.proxies`: the client's address behind reverse proxies.
"""
