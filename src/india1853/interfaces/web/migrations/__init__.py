"""Alembic migrations of the web server's database (run at server start)."""
