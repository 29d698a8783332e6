"""The edge facing clients: the Flask app, its parts by concern, and the ``kotlik`` command line.

- :mod:`service.app`: the app factory, and the request's way in, in order (``_pipeline``).
- :mod:`service.api`: the REST resources.
- :mod:`service.contract`: the HTTP contract: schemas, the OpenAPI document, problem details.
- :mod:`service.guard`: what a request must pass: tokens, rate limits, bounds, CORS, proxies.
- :mod:`service.live`: moves as they happen: the listener, long-polls, streams, publishing after the answer.
- :mod:`service.server`: the process: gunicorn's worker, pools, supervision, settings, readiness.
- :mod:`service.web`: the browser client.
- :mod:`service.context`: what a request reaches of the running app (its pool, caches, listener).
- :mod:`service.wsgi`: gunicorn's entry point; :mod:`service.cli`: the ``kotlik`` command, which
  starts the app and the workers and is imported by neither.

Each sub-package imports only those after it in this list (``service.api`` and ``service.web``
side by side): the contracts in ``pyproject.toml`` hold it.
"""
