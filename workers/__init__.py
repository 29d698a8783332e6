"""The edge facing the task queue.

- :mod:`workers.app`: the Celery app, its schedule and its caches.
- :mod:`workers.tasks`: bot turns (searching bots' on their own queue), scoring, clocks, webhook
  deliveries, Web Push messages and the sweeps.
- :mod:`workers.relay`: the one door to the broker: publish after a commit, the sweep, the redrive
  (the web service publishes here and imports no task).
- :mod:`workers.deliveries`: sending one webhook delivery, signed, with backoff.
- :mod:`workers.push`: sending one Web Push message, encrypted and VAPID-signed;
  :mod:`workers.vapid`: the server's VAPID key, made at first start.
- :mod:`workers.broker`: the default broker on Kotlík's own PostgreSQL.
- :mod:`workers.queues`: the queues (the games', the searching bots', the webhooks'); :mod:`workers.logs`:
  what the worker's log keeps.
"""
