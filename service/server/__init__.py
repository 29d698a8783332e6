"""The web process itself, beneath the app: nothing here imports the rest of ``service``.

- :mod:`service.server.webworker`: gunicorn's gevent worker, taking waiting connections at once.
- :mod:`service.server.arrival`: a request arrives whole in time; one address's slow bodies bounded.
- :mod:`service.server.balance`: keep-alive connections spread evenly over the web processes.
- :mod:`service.server.greenpool`: a connection pool whose requests wait in line on gevent's loop.
- :mod:`service.server.greenwait`: psycopg's waits on gevent's loop.
- :mod:`service.server.settings`: numeric settings from the environment or the app's config.
- :mod:`service.server.readiness`: whether the database, its schema and the broker answer.
- :mod:`service.server.supervise`: ``kotlik``'s children, none outliving the command.
- :mod:`service.server.metrics`: the Prometheus instruments, summed over a node's processes.
- :mod:`service.server.hooks`: gunicorn's hooks (a dead process's live figures forgotten).
"""
