"""Revocable seat tokens and player keys (issue 53): a log of credentials, ``credential_events``.

Every seat token and player key issued, reissued or rotated is a row of ``credential_events``
holding its SHA-256 (never the secret), immutable like ``events``; a credential is not a move of a
game, so it stays out of the games' logs (whose versions bots, clocks and clients wait on) and out
of their exports. ``seat_tokens`` and ``players.key_hash`` are its projections: the newest hash per
seat and per player (``kotlik credentials rebuild``). ``games.credentials`` counts the game's
reissued seat tokens: every web process checks a token it remembers against the count in the
lobby row it reads anyway, so a reissue is felt at once on every node.

The rows before this migration are written into the log as issued when their game (or player)
was created, so that the projections rebuild whole.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE credential_events (
            position    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            type        text NOT NULL CHECK (type IN
                            ('SeatTokenIssued', 'SeatTokenReissued', 'PlayerKeyIssued', 'PlayerKeyRotated')),
            game_id     uuid,
            seat        integer,
            player_id   uuid,
            hash        bytea NOT NULL,
            expires_at  timestamptz,
            data        jsonb NOT NULL DEFAULT '{}',
            recorded_at timestamptz NOT NULL DEFAULT now(),
            CHECK ((game_id IS NOT NULL AND seat IS NOT NULL) OR player_id IS NOT NULL)
        );
        CREATE INDEX credential_events_seat ON credential_events (game_id, seat, position)
            WHERE game_id IS NOT NULL;
        CREATE INDEX credential_events_player ON credential_events (player_id, position)
            WHERE player_id IS NOT NULL;
        CREATE TRIGGER credential_events_no_update_or_delete BEFORE UPDATE OR DELETE ON credential_events
            FOR EACH ROW EXECUTE FUNCTION events_are_immutable();
        CREATE TRIGGER credential_events_no_truncate BEFORE TRUNCATE ON credential_events
            FOR EACH STATEMENT EXECUTE FUNCTION events_are_immutable();

        ALTER TABLE games ADD COLUMN credentials integer NOT NULL DEFAULT 0;

        INSERT INTO credential_events (type, game_id, seat, hash, expires_at, recorded_at)
            SELECT 'SeatTokenIssued', t.game_id, t.seat, t.token_hash, t.expires_at, g.created_at
            FROM seat_tokens t JOIN games g ON g.id = t.game_id ORDER BY g.created_at, t.game_id, t.seat;
        INSERT INTO credential_events (type, player_id, hash, recorded_at)
            SELECT 'PlayerKeyIssued', id, key_hash, created_at FROM players ORDER BY created_at, id;
        """
    )


def downgrade() -> None:
    op.execute(
        """
        ALTER TABLE games DROP COLUMN credentials;
        DROP TABLE credential_events;
        """
    )
