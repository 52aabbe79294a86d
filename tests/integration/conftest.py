"""Fixtures of the integration tests: one real PostgreSQL and one real Redis server for the
session (tests/integration/services.py), a fresh database schema per test, and a factory of
server processes on them that stops every server it started."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import services
from cluster import Server
from sqlalchemy import create_engine, text


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    with services.postgres() as url:
        yield url


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    with services.redis() as url:
        yield url


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """The PostgreSQL database, emptied (every table dropped) for this test."""
    engine = create_engine(pg_server)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return pg_server


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(db_url: str, redis_url: str | None = None, bot_delay: float = 0.0) -> Server:
        server = Server(tmp_path / f"server{len(started)}", db_url, redis_url, bot_delay)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
