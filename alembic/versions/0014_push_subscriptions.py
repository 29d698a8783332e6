"""Web Push subscriptions (issue 50): a log of their own, ``push_events``, and the table folded
from it, ``push_subscriptions``.

A subscription is a browser's push endpoint with its keys, given by a player to be told when a
seat of theirs comes to move. It is added, removed by its player, replaced when the same endpoint
is given again, or expired when the push service answers 404/410; each is an event in
``push_events``, immutable like ``events``; the table is :mod:`projections.push`'s fold of it
(``kotlik push check|rebuild``).

Revision ID: 0014
Revises: 0012
Create Date: 2026-12-06
"""

from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE push_events (
            position        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            subscription_id uuid NOT NULL,
            type            text NOT NULL,
            data            jsonb NOT NULL,
            recorded_at     timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX push_events_subscription ON push_events (subscription_id, position);
        CREATE TRIGGER push_events_no_update_or_delete BEFORE UPDATE OR DELETE ON push_events
            FOR EACH ROW EXECUTE FUNCTION events_are_immutable();
        CREATE TRIGGER push_events_no_truncate BEFORE TRUNCATE ON push_events
            FOR EACH STATEMENT EXECUTE FUNCTION events_are_immutable();

        CREATE TABLE push_subscriptions (
            id         uuid PRIMARY KEY,
            player_id  uuid NOT NULL,
            endpoint   text NOT NULL,
            p256dh     text NOT NULL,
            auth       text NOT NULL,
            status     text NOT NULL CHECK (status IN ('active', 'removed', 'replaced', 'expired')),
            created_at timestamptz NOT NULL,
            ended_at   timestamptz
        );
        CREATE INDEX push_subscriptions_player ON push_subscriptions (player_id) WHERE status = 'active';
        CREATE UNIQUE INDEX push_subscriptions_endpoint ON push_subscriptions (endpoint)
            WHERE status = 'active';
        """
    )


def downgrade() -> None:
    op.execute("DROP TABLE push_subscriptions, push_events;")
