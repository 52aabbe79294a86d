"""The database schema: the shipped Alembic migrations build exactly the tables the server's
code declares (no drift between db.py and migrations/versions), and run again as a no-op."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from india1853.interfaces.web.db import Database, database_url, metadata


def test_migrations_build_the_declared_schema(tmp_path: Path) -> None:
    db = Database(database_url(None, tmp_path))
    try:
        db.migrate()
        db.migrate()  # at the newest revision already: nothing to do
        with db.write() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            tables = set(inspect(conn).get_table_names())
            journal = conn.exec_driver_sql("PRAGMA journal_mode").scalar()
        assert {"games", "seats", "actions", "alembic_version"} <= tables
        assert journal == "wal"
    finally:
        db.dispose()
