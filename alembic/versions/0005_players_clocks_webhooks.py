"""Players, seats bound to players, turn clocks, webhooks and their deliveries (issue 10).

A player key, like a seat token, is stored only as its SHA-256. A game's clock (``clock``) and
the deadline of the seats to move (``deadline``, with ``warned`` once its warning went out) live
in its lobby row, so a deadline survives restarts and a worker that was down finds it expired.
A webhook's signing secret is kept as it is: the worker needs it to sign.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE players (
            id         uuid PRIMARY KEY,
            name       text NOT NULL,
            key_hash   bytea NOT NULL UNIQUE,
            created_at timestamptz NOT NULL DEFAULT now()
        );

        CREATE TABLE game_players (
            game_id    uuid NOT NULL REFERENCES games (id),
            seat       integer NOT NULL,
            player_id  uuid NOT NULL REFERENCES players (id),
            claimed_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (game_id, seat)
        );
        CREATE INDEX game_players_player ON game_players (player_id);

        ALTER TABLE games ADD COLUMN clock jsonb;
        ALTER TABLE games ADD COLUMN deadline timestamptz;
        ALTER TABLE games ADD COLUMN warned boolean NOT NULL DEFAULT false;
        ALTER TABLE games ADD COLUMN rematch uuid;
        CREATE INDEX games_deadline ON games (deadline) WHERE status = 'active' AND deadline IS NOT NULL;

        CREATE TABLE webhooks (
            id         uuid PRIMARY KEY,
            player_id  uuid REFERENCES players (id),
            game_id    uuid REFERENCES games (id),
            url        text NOT NULL,
            secret     text NOT NULL,
            kinds      jsonb NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            CHECK ((player_id IS NULL) <> (game_id IS NULL))
        );
        CREATE INDEX webhooks_player ON webhooks (player_id) WHERE player_id IS NOT NULL;
        CREATE INDEX webhooks_game ON webhooks (game_id) WHERE game_id IS NOT NULL;

        CREATE TABLE deliveries (
            id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            webhook_id   uuid NOT NULL REFERENCES webhooks (id),
            kind         text NOT NULL,
            body         jsonb NOT NULL,
            status       text NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending', 'delivered', 'failed')),
            attempts     jsonb NOT NULL DEFAULT '[]',
            next_at      timestamptz NOT NULL DEFAULT now(),
            created_at   timestamptz NOT NULL DEFAULT now(),
            delivered_at timestamptz
        );
        CREATE INDEX deliveries_webhook ON deliveries (webhook_id, id DESC);
        CREATE INDEX deliveries_pending ON deliveries (next_at) WHERE status = 'pending';
        """
    )


def downgrade() -> None:
    op.execute(
        """
        DROP TABLE deliveries, webhooks, game_players, players;
        DROP INDEX games_deadline;
        ALTER TABLE games DROP COLUMN clock, DROP COLUMN deadline, DROP COLUMN warned,
            DROP COLUMN rematch;
        """
    )
