"""The real web server for tests: ``india1853 serve`` in a process of its own (forked by
forkserver.py) on 127.0.0.1, a free port, a temporary SQLite database.

Fixtures:
- ``server_url``: one server for the test module; yields its base URL (``http://127.0.0.1:PORT``).
- ``browser`` (tests/conftest.py): one chromium per test process, shared by every browser test.
- ``page_pool``: pages kept open between the browser tests of a test process, each handed back
  clean (pagepool.py; test_browser.py's ``pages`` takes its pages from it).
- ``start_server``: a factory ``start_server(data_dir, *options) -> ServerProcess`` for tests
  that stop, kill (``kill -9``) or restart servers, or need more ``serve`` options (the last
  one given wins: ``"--bot-delay", "30"``); every server it started is stopped after the test.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import forkserver
import numpy  # noqa: F401  (whole before any thread: NUMPY_FIRST)
import pytest

if TYPE_CHECKING:
    from pagepool import PagePool
    from playwright.sync_api import Browser

# NUMPY_FIRST: numpy is imported above, once, before any test starts a thread. An in-process
# server imports the router's kernel (numba, numpy) lazily in a worker thread, while Hypothesis
# reads ``numpy.ndarray`` from the main thread whenever numpy is in ``sys.modules``: a
# half-imported numpy there failed test_fuzz_inputs once ("partially initialized module").

START_TIMEOUT = 60.0


class ServerProcess:
    """One ``india1853 serve --port 0`` process; ``url`` once it listens."""

    def __init__(self, data_dir: Path, *options: str,
                 env: dict[str, str] | None = None) -> None:
        self.data_dir = data_dir
        data_dir.mkdir(parents=True, exist_ok=True)
        self._stderr = open(data_dir / "server.err", "ab")  # noqa: SIM115 (closed in stop)
        # Forked from the tests' fork server (forkserver.py: the imports are done once).
        self.stdout, write_end = os.pipe()
        with open(os.devnull, "rb") as null:
            self.process = forkserver.spawn(
                ["serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", str(data_dir),
                 "--bot-delay", "0",
                 # pages here flood one token on purpose (tests/web/test_security.py: the limit)
                 "--rate-limit", "0", *options],
                stdin=null.fileno(), stdout=write_end, stderr=self._stderr.fileno(), env=env)
        os.close(write_end)
        self.url = self._read_address()

    def _read_address(self) -> str:
        selector = selectors.DefaultSelector()
        selector.register(self.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + START_TIMEOUT
        line = b""
        while not line.endswith(b"\n"):
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.kill()
                err = (self.data_dir / "server.err").read_text(errors="replace")
                raise RuntimeError(f"the server did not start: {err[-2000:]}")
            if selector.select(timeout=0.2):
                chunk = os.read(self.stdout, 1)
                line += chunk
        selector.close()
        text = line.decode()
        # "india1853 web server: http://127.0.0.1:PORT/  (Ctrl-C stops it)"
        address = text.split("http://", 1)[1].split("/", 1)[0]
        return f"http://{address}"

    def kill(self) -> None:
        """``kill -9``: no shutdown at all."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self._close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self._close()

    def _close(self) -> None:
        if self.stdout >= 0:
            os.close(self.stdout)
            self.stdout = -1
        self._stderr.close()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    started: list[ServerProcess] = []

    def start(data_dir: Path, *options: str) -> ServerProcess:
        server = ServerProcess(data_dir, *options)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = ServerProcess(tmp_path_factory.mktemp("web-server"))
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def page_pool(browser: Browser, page_timeout_ms: float) -> Iterator[PagePool]:
    from pagepool import PagePool

    pool = PagePool(browser, page_timeout_ms)
    try:
        yield pool
    finally:
        pool.close()
