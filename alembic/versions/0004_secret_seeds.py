"""Seeds of running games in a table of their own, out of reach of the read paths.

A game's seed decides every random outcome still to come, so while the game runs only the code
that decides (create, play, a bot's move, scoring) may read it: it lives in ``game_seeds``, which
that code joins into the one row read it already does, and ``games.seed`` stays ``NULL`` until
scoring reveals it there (as the ``kotlik.GameScored`` event does). Every other read of ``games``
(the lobby, a summary, ``/state``, ``/events``, an export) finds no seed to leak.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE game_seeds (
            game_id  uuid PRIMARY KEY REFERENCES games (id),
            seed     bytea NOT NULL
        )
        """
    )
    op.execute("INSERT INTO game_seeds (game_id, seed) SELECT id, seed FROM games")
    op.execute("ALTER TABLE games ALTER COLUMN seed DROP NOT NULL")
    op.execute("UPDATE games SET seed = NULL WHERE status <> 'finished'")


def downgrade() -> None:
    op.execute("UPDATE games g SET seed = s.seed FROM game_seeds s WHERE s.game_id = g.id AND g.seed IS NULL")
    op.execute("ALTER TABLE games ALTER COLUMN seed SET NOT NULL")
    op.execute("DROP TABLE game_seeds")
