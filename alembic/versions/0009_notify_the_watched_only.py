"""An append notifies only for a game that some process leases as watched.

A transaction that NOTIFYs takes one lock for the whole database server from just before its
commit until the commit is on disk, so notifying commits flush one at a time and never share a
flush. At 8 and 16 connections pgbench committed about half as many one-row transactions with a
``pg_notify`` as without (2,600–2,800 against 4,700–5,300 a second), and with every append
notifying a command cost PostgreSQL about a fifth more CPU (``docs/performance.md``).

A web process needs to hear a game's moves only while something of it waits on the game (a stream,
a long-poll), and its listener leases those games in ``watched`` (alembic ``0008``). So an append
to a game nobody leases notifies nobody; the listener, when it leases a game anew, reads the
game's version itself (:mod:`service.live`), and whatever it has remembered of a game it did not
lease is read again before it is trusted (:mod:`service.rows`).

The lease is looked up by the trigger's own query, which (the function being volatile) sees every
lease committed before it runs, and by then the append's statement holds the lobby row's lock.
So an append either sees a lease, or holds that lock from before the lease's commit until its own
commit, and the listener's read of the version after leasing (``FOR SHARE``) waits for it.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28
"""

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

#: Appends of more events than this notify without a payload, as the largest never fit anyway.
CARRIED = 16


def _notify(*, watched_only: bool) -> str:
    unwatched = "CONTINUE;" if watched_only else "PERFORM pg_notify('kotlik_events', note); CONTINUE;"
    return f"""
        CREATE OR REPLACE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            g record;
            note text;
            carried text;
        BEGIN
            FOR g IN SELECT game_id, max(version) AS version, count(*) AS n
                     FROM appended GROUP BY game_id LOOP
                note := g.game_id::text || ':' || g.version;
                IF NOT EXISTS (SELECT FROM watched WHERE game_id = g.game_id AND until > now()) THEN
                    {unwatched}
                END IF;
                IF g.n <= {CARRIED} THEN
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


def upgrade() -> None:
    op.execute(_notify(watched_only=True))


def downgrade() -> None:
    op.execute(_notify(watched_only=False))
