"""The event store on PostgreSQL: every player action as an immutable, versioned event."""

from events.store import CHANNEL, NewEvent, StoredEvent, VersionConflict, append, read

__all__ = ["CHANNEL", "NewEvent", "StoredEvent", "VersionConflict", "append", "read"]
