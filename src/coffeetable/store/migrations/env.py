"""Alembic's environment: runs on the connection ``store.schema`` hands over.

Configured programmatically (``store.schema.alembic_config``): there is no
alembic.ini and no logging set-up here. The migrations are written by hand
and never import the live ``metadata``, so each revision stays what it was.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError(
        "coffeetable migrations run through coffeetable.store.schema.upgrade(engine)"
    )
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
