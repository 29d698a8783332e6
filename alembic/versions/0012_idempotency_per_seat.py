"""An ``Idempotency-Key`` belongs to the seat that sent it: ``commands`` is keyed by game, seat
and key.

Keyed by game and key alone, a key one seat had used was refused to another seat of the game with
a 422 saying it had been used for a different command: one seat learned what another's client
sent, and two clients that made their keys the same way (a counter) got in each other's way.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        ALTER TABLE commands DROP CONSTRAINT commands_pkey,
            ADD PRIMARY KEY (game_id, seat, command_id);
        """
    )


def downgrade() -> None:
    # A key used by two seats of one game keeps its first use: only one can be keyed by game alone.
    op.execute(
        """
        DELETE FROM commands AS later USING commands AS earlier
            WHERE later.game_id = earlier.game_id AND later.command_id = earlier.command_id
            AND later.first_version > earlier.first_version;
        ALTER TABLE commands DROP CONSTRAINT commands_pkey,
            ADD PRIMARY KEY (game_id, command_id);
        """
    )
