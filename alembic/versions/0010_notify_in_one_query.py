"""An append's trigger finds the watched games among those it appended to in one query, not two.

Most appends are to games nobody watches (alembic ``0009``), and for them the trigger's whole work
was two queries: the appended rows grouped by game, then the lease looked up for each. Each query
of a PL/pgSQL function is an executor started and stopped, so asking both at once takes about a
third of the trigger's cost off every such append: in one connection's writes of a move, the
write statement's PostgreSQL CPU fell by about 5 % (``docs/performance.md``).

0009's argument holds as it was: the one query still runs after the append's statement holds
the lobby row's lock, and (the function being volatile) its snapshot, taken then, sees every
lease committed before it.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

import importlib.util
from pathlib import Path

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

#: Appends of more events than this notify without a payload, as the largest never fit anyway.
CARRIED = 16


def upgrade() -> None:
    op.execute(
        f"""
        CREATE OR REPLACE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            g record;
            note text;
            carried text;
        BEGIN
            FOR g IN SELECT a.game_id, max(a.version) AS version, count(*) AS n
                     FROM appended a
                     WHERE EXISTS (SELECT FROM watched w WHERE w.game_id = a.game_id AND w.until > now())
                     GROUP BY a.game_id LOOP
                note := g.game_id::text || ':' || g.version;
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
    )


def downgrade() -> None:
    """0009's function again: its module's ``upgrade``."""
    path = Path(__file__).with_name("0009_notify_the_watched_only.py")
    spec = importlib.util.spec_from_file_location("kotlik_alembic_0009", path)
    assert spec is not None and spec.loader is not None
    previous = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(previous)
    previous.upgrade()
