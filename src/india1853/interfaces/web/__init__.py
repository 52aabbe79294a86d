"""The web server: a JSON API (FastAPI), live updates by server-sent events, persistence in
SQLite or PostgreSQL (SQLAlchemy 2, Alembic migrations), bots playing on the server.

``create_app(database_url)`` builds the application; ``india1853 serve`` runs it.  The API is
described in docs/web-api.md.
"""

from india1853.interfaces.web.app import create_app

__all__ = ["create_app"]
