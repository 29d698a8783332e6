"""Webhooks can be removed: ``removed_at``, and a delivery ``cancelled`` with its webhook.

A removed webhook keeps its row, so the deliveries already made to it stay in
``GET /players/me/deliveries`` with their attempts; it gets no new ones, and those not yet sent
are cancelled rather than sent.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        ALTER TABLE webhooks ADD COLUMN removed_at timestamptz;
        ALTER TABLE deliveries DROP CONSTRAINT deliveries_status_check,
            ADD CONSTRAINT deliveries_status_check
            CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled'));
        """
    )


def downgrade() -> None:
    op.execute(
        """
        UPDATE deliveries SET status = 'failed' WHERE status = 'cancelled';
        ALTER TABLE deliveries DROP CONSTRAINT deliveries_status_check,
            ADD CONSTRAINT deliveries_status_check CHECK (status IN ('pending', 'delivered', 'failed'));
        ALTER TABLE webhooks DROP COLUMN removed_at;
        """
    )
