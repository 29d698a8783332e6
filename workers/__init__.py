"""The edge facing the task queue: Celery tasks for bot turns, scoring and the outbox."""
