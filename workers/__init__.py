"""The edge facing the task queue.

- :mod:`workers.app`: the Celery app, its schedule and its caches.
- :mod:`workers.tasks`: bot turns, scoring, clocks, webhook deliveries and the sweeps.
- :mod:`workers.relay`: the one door to the broker: publish after a commit, the sweep, the redrive
  (the web service publishes here and imports no task).
- :mod:`workers.deliveries`: sending one webhook delivery, signed, with backoff.
- :mod:`workers.broker`: the default broker on Kotlík's own PostgreSQL.
- :mod:`workers.queues`: the queues; :mod:`workers.logs`: what the logs keep and their form (JSON
  lines with the request id, or text).
- :mod:`workers.traced`: what a task carries from whoever queued it (the request's id, when).
- :mod:`workers.metrics`: the tasks counted and timed, served at a worker's own ``/metrics``.
"""
