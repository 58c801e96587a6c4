"""Alembic environment: uses the connection handed over by meio.web.db.migrate, or
the URL given with ``-x url=...`` (or DATABASE_URL) when run from the command line."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

from meio.web.db import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    from meio.web.settings import normalise_url

    url = context.get_x_argument(as_dictionary=True).get("url") or os.environ.get("DATABASE_URL")
    if not url:
        raise SystemExit("give the database with -x url=... or DATABASE_URL")
    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()


run()
