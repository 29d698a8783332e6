"""A move updates its game's lobby row in place (a HOT update): no index holds a column it changes.

``games_waiting`` indexed ``updated_at``, which every move sets, so every move wrote a new entry
into every index that holds the row and left the old ones for vacuum: a game played fast
dragged a chain of dead entries through its primary key, which the next move's update walked.
The sweep that used it reads the running games through ``games_running``, keyed by what a move
never changes, and room is left in every page (``fillfactor``) for a row's next versions.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        DROP INDEX games_waiting;
        CREATE INDEX games_running ON games (id) WHERE status IN ('active', 'scoring');
        ALTER TABLE games SET (fillfactor = 70);
        """
    )


def downgrade() -> None:
    op.execute(
        """
        ALTER TABLE games RESET (fillfactor);
        DROP INDEX games_running;
        CREATE INDEX games_waiting ON games (updated_at) WHERE status IN ('active', 'scoring');
        """
    )
