"""An index for the sweep that finds games waiting on a worker for too long.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("CREATE INDEX games_waiting ON games (updated_at) WHERE status IN ('active', 'scoring')")


def downgrade() -> None:
    op.execute("DROP INDEX games_waiting")
