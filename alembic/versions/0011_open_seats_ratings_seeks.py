"""Open seats, ratings and seeks (issue 49).

Player names become unique (``players_name``, case-insensitive). A game may wait for players
(``status = 'open'``) until its last seat is taken, be cancelled by its ``creator`` or expire at
``expires_at``; ``rated`` games move their players' ``ratings``. Seeks live in a log of their
own, ``seek_events`` (a seek is not a game, and ``events`` rows belong to games), immutable like
``events``; ``seeks`` is folded from it. ``ratings`` is folded from the games' logs
(``kotlik ratings rebuild``).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        ALTER TABLE games DROP CONSTRAINT games_status_check;
        ALTER TABLE games ADD CONSTRAINT games_status_check
            CHECK (status IN ('open', 'active', 'scoring', 'finished', 'cancelled', 'expired'));
        ALTER TABLE games ADD COLUMN rated boolean NOT NULL DEFAULT false;
        ALTER TABLE games ADD COLUMN creator uuid;
        ALTER TABLE games ADD COLUMN expires_at timestamptz;
        CREATE INDEX games_open ON games (created_at DESC) WHERE status = 'open';
        CREATE INDEX games_open_expiry ON games (expires_at) WHERE status = 'open';

        CREATE TABLE ratings (
            game       text NOT NULL,
            player     text NOT NULL,
            mu         double precision NOT NULL,
            sigma      double precision NOT NULL,
            games      integer NOT NULL,
            updated_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (game, player)
        );
        CREATE INDEX ratings_board ON ratings (game, (mu - 3 * sigma) DESC);

        CREATE TABLE seek_events (
            position    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            seek_id     uuid NOT NULL,
            type        text NOT NULL,
            data        jsonb NOT NULL,
            recorded_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX seek_events_seek ON seek_events (seek_id, position);
        CREATE TRIGGER seek_events_no_update_or_delete BEFORE UPDATE OR DELETE ON seek_events
            FOR EACH ROW EXECUTE FUNCTION events_are_immutable();
        CREATE TRIGGER seek_events_no_truncate BEFORE TRUNCATE ON seek_events
            FOR EACH STATEMENT EXECUTE FUNCTION events_are_immutable();

        CREATE TABLE seeks (
            id          uuid PRIMARY KEY,
            player_id   uuid NOT NULL,
            game        text NOT NULL,
            seats       integer NOT NULL,
            rated       boolean NOT NULL,
            clock       jsonb,
            fallback    jsonb,
            status      text NOT NULL CHECK (status IN ('waiting', 'paired', 'cancelled', 'expired')),
            game_id     uuid,
            created_at  timestamptz NOT NULL,
            expires_at  timestamptz NOT NULL
        );
        CREATE INDEX seeks_waiting ON seeks (game, seats, rated, created_at) WHERE status = 'waiting';
        CREATE INDEX seeks_player ON seeks (player_id) WHERE status = 'waiting';

        -- Names are unique per server (whatever their case), so a leaderboard reads unambiguously.
        -- Names taken twice before this migration get their id's first characters appended.
        UPDATE players p SET name = p.name || ' ' || left(p.id::text, 8)
            WHERE EXISTS (SELECT FROM players q WHERE lower(q.name) = lower(p.name) AND q.id < p.id);
        CREATE UNIQUE INDEX players_name ON players (lower(name));
        """
    )


def downgrade() -> None:
    op.execute(
        """
        DROP INDEX players_name;
        DROP TABLE seeks, seek_events, ratings;
        DROP INDEX games_open, games_open_expiry;
        ALTER TABLE games DROP COLUMN rated, DROP COLUMN creator, DROP COLUMN expires_at;
        ALTER TABLE games DROP CONSTRAINT games_status_check;
        ALTER TABLE games ADD CONSTRAINT games_status_check
            CHECK (status IN ('active', 'scoring', 'finished'));
        """
    )
