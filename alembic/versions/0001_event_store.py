"""The event store, its read models, snapshots and the outbox.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE games (
            id            uuid PRIMARY KEY,
            game          text NOT NULL,
            status        text NOT NULL CHECK (status IN ('active', 'scoring', 'finished')),
            version       integer NOT NULL DEFAULT 0,
            rules_version integer NOT NULL,
            options       jsonb NOT NULL,
            arranged      boolean NOT NULL DEFAULT false,
            seats         jsonb NOT NULL,
            to_move       jsonb NOT NULL DEFAULT '[]',
            result        jsonb,
            seed          bytea NOT NULL,
            seed_sha256   text NOT NULL,
            created_at    timestamptz NOT NULL DEFAULT now(),
            updated_at    timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX games_lobby ON games (game, status, created_at DESC);
        CREATE INDEX games_recent ON games (created_at DESC);

        CREATE TABLE seat_tokens (
            game_id    uuid NOT NULL REFERENCES games (id),
            seat       integer NOT NULL,
            token_hash bytea NOT NULL UNIQUE,
            expires_at timestamptz NOT NULL,
            PRIMARY KEY (game_id, seat)
        );

        CREATE TABLE events (
            position    bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
            game_id     uuid NOT NULL REFERENCES games (id),
            version     integer NOT NULL CHECK (version >= 1),
            type        text NOT NULL,
            data        jsonb NOT NULL,
            meta        jsonb NOT NULL,
            recorded_at timestamptz NOT NULL DEFAULT now(),
            -- the writing transaction, so subscribers read only below the oldest one still open
            xid         xid8 NOT NULL DEFAULT pg_current_xact_id(),
            PRIMARY KEY (game_id, version)
        );

        CREATE FUNCTION events_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'events are immutable: % on events is refused', TG_OP
                USING ERRCODE = 'restrict_violation';
        END
        $$;
        CREATE TRIGGER events_no_update_or_delete BEFORE UPDATE OR DELETE ON events
            FOR EACH ROW EXECUTE FUNCTION events_are_immutable();
        CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
            FOR EACH STATEMENT EXECUTE FUNCTION events_are_immutable();

        CREATE TABLE commands (
            game_id       uuid NOT NULL REFERENCES games (id),
            command_id    text NOT NULL,
            request_hash  text NOT NULL,
            seat          integer NOT NULL,
            first_version integer NOT NULL,
            last_version  integer NOT NULL,
            PRIMARY KEY (game_id, command_id)
        );

        CREATE TABLE snapshots (
            game_id       uuid NOT NULL REFERENCES games (id),
            version       integer NOT NULL,
            rules_version integer NOT NULL,
            state         jsonb NOT NULL,
            PRIMARY KEY (game_id, version)
        );

        CREATE TABLE scores (
            game_id   uuid PRIMARY KEY REFERENCES games (id),
            version   integer NOT NULL,
            score     jsonb NOT NULL,
            scored_at timestamptz NOT NULL DEFAULT now()
        );

        CREATE TABLE outbox (
            id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            task       text NOT NULL,
            args       jsonb NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            sent_at    timestamptz,
            attempts   integer NOT NULL DEFAULT 0
        );
        CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;
        """
    )


def downgrade() -> None:
    op.execute(
        """
        DROP TABLE outbox, scores, snapshots, commands;
        DROP TRIGGER events_no_truncate ON events;
        DROP TRIGGER events_no_update_or_delete ON events;
        DROP TABLE events;
        DROP FUNCTION events_are_immutable();
        DROP TABLE seat_tokens, games;
        """
    )
