"""Appends notify listeners from a trigger, once per statement, so a writer needs no extra round trip.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('kotlik_events', game_id::text || ':' || max(version))
                FROM appended GROUP BY game_id;
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER events_notify AFTER INSERT ON events
            REFERENCING NEW TABLE AS appended
            FOR EACH STATEMENT EXECUTE FUNCTION events_notify();
        """
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER events_notify ON events; DROP FUNCTION events_notify();")
