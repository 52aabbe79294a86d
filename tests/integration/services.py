"""Real PostgreSQL and Redis servers for the integration tests, from the Debian packages.

Each is started on 127.0.0.1 only, on a free port, with its data in a private temporary
directory (PostgreSQL run as the ``postgres`` user when we are root, since it refuses root),
and stopped (and its directory removed) afterwards.  ``make integration`` installs the
packages (``apt-get install postgresql redis-server``) when they are missing.

``INDIA1853_TEST_PG_URL`` / ``INDIA1853_TEST_REDIS_URL`` name servers that already run
instead (a CI service, say); nothing is started or stopped then.

The test files share one PostgreSQL and one Redis per test process (:func:`shared_postgres`,
:func:`shared_redis`, stopped when the process's tests end): an ``initdb`` and a start cost
PostgreSQL a second or two of CPU and several seconds of waiting; each test empties the
database first (test_pg_cluster.py's ``pg_url``).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if found:
        return found[-1]
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"PostgreSQL's {name} is not installed: run `make integration` "
                           "(apt-get install postgresql)")
    return path


def _as_postgres(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def _wait_port(port: int, what: str, process: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{what} exited at start ({process.returncode})")
        with socket.socket() as s:
            s.settimeout(0.5)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on 127.0.0.1:{port} within {START_TIMEOUT} s")


@contextmanager
def postgres() -> Iterator[str]:
    """A PostgreSQL server with an empty database; yields its SQLAlchemy URL."""
    given = os.environ.get("INDIA1853_TEST_PG_URL")
    if given:
        yield given
        return
    base = Path(tempfile.mkdtemp(prefix="india1853-pg-"))
    data = base / "data"
    port = free_port()
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    subprocess.run(_as_postgres([_pg_bin("initdb"), "-D", str(data), "-U", "postgres",
                                 "--auth=trust", "-E", "UTF8", "--no-sync"]),
                   check=True, capture_output=True, timeout=120)
    log = base / "server.log"
    subprocess.run(_as_postgres([
        _pg_bin("pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60", "start", "-o",
        f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={base} "
        # A test cluster keeps nothing across a crash: no flush, no full-page images.
        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
        "-c max_connections=100"]),
        check=True, capture_output=True, timeout=120)
    try:
        _wait_port(port, "PostgreSQL")
        subprocess.run(_as_postgres([_pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(port),
                                     "-U", "postgres", "india1853"]),
                       check=True, capture_output=True, timeout=60)
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/india1853"
    finally:
        subprocess.run(_as_postgres([_pg_bin("pg_ctl"), "-D", str(data), "-m", "immediate",
                                     "-w", "stop"]), capture_output=True, timeout=60)
        shutil.rmtree(base, ignore_errors=True)


@contextmanager
def redis(port: int | None = None) -> Iterator[str]:
    """A Redis server (no persistence), on ``port`` if given; yields its URL."""
    given = os.environ.get("INDIA1853_TEST_REDIS_URL")
    if given and port is None:
        yield given
        return
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed: run `make integration` "
                           "(apt-get install redis-server)")
    base = Path(tempfile.mkdtemp(prefix="india1853-redis-"))
    port = port or free_port()
    process = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "",
         "--appendonly", "no", "--dir", str(base), "--protected-mode", "yes"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        _wait_port(port, "redis-server", process)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        shutil.rmtree(base, ignore_errors=True)


_POSTGRES = pytest.StashKey[str]()
_REDIS = pytest.StashKey[str]()


def _shared(config: pytest.Config, key: pytest.StashKey[str],
            start: Callable[[], contextlib.AbstractContextManager[str]]) -> str:
    if key not in config.stash:
        stack = contextlib.ExitStack()
        config.stash[key] = stack.enter_context(start())
        config.add_cleanup(stack.close)  # at the end of this test process's session
    return config.stash[key]


def shared_postgres(config: pytest.Config) -> str:
    """The test process's one PostgreSQL server (:func:`postgres`), started on first use."""
    return _shared(config, _POSTGRES, postgres)


def shared_redis(config: pytest.Config) -> str:
    """The test process's one Redis server (:func:`redis`), started on first use."""
    return _shared(config, _REDIS, redis)


def empty_postgres(config: pytest.Config, database: str = "india1853") -> str:
    """A database of :func:`shared_postgres`'s server, emptied (every table dropped) for one
    test, or for the servers a test module shares; ``database`` other than the first is
    created on first use (a test of its own while the module's servers use the first)."""
    from sqlalchemy import create_engine, text

    url = shared_postgres(config)
    if database != "india1853":
        admin = create_engine(url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            if not conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :d"),
                                {"d": database}).scalar():
                conn.execute(text(f'CREATE DATABASE "{database}"'))
        admin.dispose()
        url = url.rsplit("/", 1)[0] + "/" + database
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return url
