"""Alembic runs the migrations against ``DATABASE_URL`` (or the embedded server) through psycopg 3."""

from __future__ import annotations

from sqlalchemy import create_engine, pool

from alembic import context
from events.database import database_url, sqlalchemy_url

url = context.config.attributes.get("url") or sqlalchemy_url(database_url())
engine = create_engine(url, poolclass=pool.NullPool)
with engine.connect() as connection:
    context.configure(connection=connection, transaction_per_migration=True)
    with context.begin_transaction():
        context.run_migrations()
