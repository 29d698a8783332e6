"""An append to a watched game notifies what it appended and the lobby row after it, if they fit.

Every web process hears every append. One that did not play the move used to read the lobby row
and the new events back for its streams and long-polls, a round trip per move per process; the
process that played it read the row for its long-polls. A payload of at most 8,000 bytes (the
server's limit) now carries both, so they fold forward from what they heard
(:mod:`events.notes`). Building and delivering it costs PostgreSQL about a tenth of an append,
so it is done only for games that some process has streams or long-polls waiting on: each web
process's listener leases them in ``watched`` (unlogged: a crash loses only leases, which the
listeners write again). Any other append notifies as before, ``"<game_id>:<version>"``, as does
a bigger one (a long setup, an import), and the listeners read what they need. An append whose
lobby row is not yet at its version when the statement ends (scoring writes the row after its
event) carries its events alone.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

#: Appends of more events than this notify without a payload, as the largest never fit anyway.
CARRIED = 16


def upgrade() -> None:
    op.execute(
        f"""
        CREATE UNLOGGED TABLE watched (game_id uuid PRIMARY KEY, until timestamptz NOT NULL);
        CREATE OR REPLACE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            g record;
            note text;
            carried text;
        BEGIN
            FOR g IN SELECT game_id, max(version) AS version, count(*) AS n
                     FROM appended GROUP BY game_id LOOP
                note := g.game_id::text || ':' || g.version;
                IF g.n <= {CARRIED} AND EXISTS (
                    SELECT FROM watched WHERE game_id = g.game_id AND until > now()
                ) THEN
                    SELECT json_build_object(
                        'lobby', (
                            SELECT json_build_object(
                                'game', game, 'rules_version', rules_version, 'status', status,
                                'to_move', to_move, 'arranged', arranged, 'result', result,
                                'updated_at', updated_at, 'deadline', deadline)
                            FROM games WHERE id = g.game_id AND version = g.version),
                        'events', (
                            SELECT json_agg(json_build_array(
                                position, version, type, data, meta, recorded_at) ORDER BY version)
                            FROM appended WHERE game_id = g.game_id)
                    )::text INTO carried;
                    IF octet_length(note) + 1 + octet_length(carried) < 8000 THEN
                        note := note || ':' || carried;
                    END IF;
                END IF;
                PERFORM pg_notify('kotlik_events', note);
            END LOOP;
            RETURN NULL;
        END
        $$;
        """
    )


def downgrade() -> None:
    op.execute(
        """
        CREATE OR REPLACE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('kotlik_events', game_id::text || ':' || max(version))
                FROM appended GROUP BY game_id;
            RETURN NULL;
        END
        $$;
        DROP TABLE watched;
        """
    )
