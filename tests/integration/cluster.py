"""Server processes on one shared database, and clients for them (HTTP and SSE, loopback)."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

# The fork server lives beside the web tests (tests/web/forkserver.py).
sys.path.append(str(Path(__file__).resolve().parents[1] / "web"))
import forkserver
from webclient import TLS

START_TIMEOUT = 90.0


class Server:
    """One ``india1853 serve --port 0`` process on ``db_url`` (and Redis if given)."""

    def __init__(self, log_dir: Path, db_url: str, redis_url: str | None = None,
                 bot_delay: float = 0.0, options: tuple[str, ...] = (),
                 wait: bool = True) -> None:
        """Started; ``url`` once it listens, at once or (``wait=False``) after
        :meth:`ready`, so that two processes start side by side."""
        log_dir.mkdir(parents=True, exist_ok=True)
        self.log_dir = log_dir
        self._stderr = open(log_dir / "server.err", "ab")  # noqa: SIM115 (closed in _close)
        cmd = ["serve", "--host", "127.0.0.1", "--port", "0", "--db", db_url,
               "--bot-delay", str(bot_delay),
               # the pages here send as fast as they can on purpose (no per-token limit)
               "--rate-limit", "0"]
        if redis_url:
            cmd += ["--redis", redis_url]
        cmd += options  # more ``serve`` options (the last one given wins)
        # Forked by the tests' fork server (tests/web/forkserver.py: the imports done once),
        # without DATABASE_URL and REDIS_URL.
        self.stdout, write_end = os.pipe()
        with open(os.devnull, "rb") as null:
            self.process = forkserver.spawn(cmd, stdin=null.fileno(), stdout=write_end,
                                            stderr=self._stderr.fileno())
        os.close(write_end)
        self.url = ""
        if wait:
            self.ready()

    def ready(self) -> Server:
        """Until the process listens: its ``url``."""
        if not self.url:
            self.url = self._address()
        return self

    def _address(self) -> str:
        selector = selectors.DefaultSelector()
        selector.register(self.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + START_TIMEOUT
        line = b""
        while not line.endswith(b"\n"):
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.kill()
                err = (self.log_dir / "server.err").read_text(errors="replace")
                raise RuntimeError(f"the server did not start: {err[-2000:]}")
            if selector.select(timeout=0.2):
                line += os.read(self.stdout, 1)
        selector.close()
        return "http://" + line.decode().split("http://", 1)[1].split("/", 1)[0]

    def kill(self) -> None:
        """``kill -9``."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self._close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self._close()

    def _close(self) -> None:
        if self.stdout >= 0:
            os.close(self.stdout)
            self.stdout = -1
        if not self._stderr.closed:
            self._stderr.close()


def warm() -> None:
    """Boots the test process's fork server now (its imports: some 3 CPU-seconds and several
    of waiting), beside the PostgreSQL and chromium starts, instead of at the first server's
    start; its first ``spawn`` waits for it."""
    forkserver._client()


def client(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=60.0, verify=TLS)


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Stream:
    """A page's event stream (SSE) read in a thread: every event's id and JSON."""

    def __init__(self, url: str, game_id: str, token: str | None = None,
                 ticket_from: str | None = None) -> None:
        """A seat's stream opens with a stream ticket (no token in the URL), asked of
        ``ticket_from`` (another process: the ticket is a database row) or of ``url``."""
        self.events: list[tuple[int, dict[str, Any]]] = []
        self.error: str | None = None
        self._stop = threading.Event()
        self._cond = threading.Condition()
        # The stream's connection, shut by close(): left open at a server's stop, it held the
        # stop for uvicorn's whole graceful timeout (2 s a server).
        self._socket: socket.socket | None = None
        params: dict[str, str] = {}
        if token:
            r = client(ticket_from or url).post(f"/api/games/{game_id}/stream-ticket",
                                                headers=auth(token))
            assert r.status_code == 200, r.text
            params["ticket"] = r.json()["ticket"]
        self._thread = threading.Thread(target=self._read, args=(url, game_id, params),
                                        daemon=True)
        self._thread.start()

    def _read(self, url: str, game_id: str, params: dict[str, str]) -> None:
        try:
            with httpx.Client(base_url=url, timeout=httpx.Timeout(60.0, read=None),
                              verify=TLS) as c, \
                    c.stream("GET", f"/api/games/{game_id}/events", params=params) as r:
                with self._cond:
                    self._socket = r.extensions["network_stream"].get_extra_info("socket")
                if self._stop.is_set():
                    return
                event_id, data = None, ""
                for line in r.iter_lines():
                    if self._stop.is_set():
                        return
                    if line.startswith("id: "):
                        event_id = int(line[4:])
                    elif line.startswith("data: "):
                        data = line[6:]
                    elif not line and data and event_id is not None:
                        with self._cond:
                            self.events.append((event_id, json.loads(data)))
                            self._cond.notify_all()
                        event_id, data = None, ""
        except Exception as exc:  # reported by wait()
            if not self._stop.is_set():
                self.error = f"{type(exc).__name__}: {exc}"

    def last(self) -> int:
        with self._cond:
            return self.events[-1][0] if self.events else -1

    def latest(self) -> dict[str, Any]:
        """The last event's JSON (the page's state now)."""
        with self._cond:
            assert self.events, "no event yet"
            return self.events[-1][1]

    def wait(self, action_id: int, timeout: float = 30.0) -> dict[str, Any]:
        """The first event with an id of at least ``action_id``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for event_id, state in self.events:
                    if event_id >= action_id:
                        return state
                left = deadline - time.monotonic()
                assert self.error is None, self.error
                assert left > 0, f"no event {action_id} within {timeout} s (last {self.last()})"
                self._cond.wait(min(left, 0.5))

    def close(self) -> None:
        """Stops reading and closes the connection (the server sees the page leave)."""
        with self._cond:
            self._stop.set()
            if self._socket is not None:
                with contextlib.suppress(OSError):
                    self._socket.shutdown(socket.SHUT_RDWR)  # wakes the reading thread
        self._thread.join(10)
