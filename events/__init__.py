"""The log on PostgreSQL: every player action as an immutable, versioned event.

- :mod:`events.store`: append with an expected version, read a game's log (re-exported here).
- :mod:`events.outbox`: work for the task queue, written with the events it follows.
- :mod:`events.notes`: what an append's notification says.
- :mod:`events.database`: where the database is (``DATABASE_URL`` or an embedded server).
- :mod:`events.privileges`: the roles: the service may only append to the log.
"""

from events.store import CHANNEL, NewEvent, StoredEvent, VersionConflict, append, read

__all__ = ["CHANNEL", "NewEvent", "StoredEvent", "VersionConflict", "append", "read"]
