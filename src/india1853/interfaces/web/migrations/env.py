"""Alembic's environment: migrations run on the connection the server hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from india1853.interfaces.web.db import metadata


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise RuntimeError("migrations run only through Database.migrate()")
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("offline migrations are not supported")
run_migrations_online()
