"""``india1853`` commands for the tests, forked from a process that has imported them once.

A server start as ``python -m india1853.interfaces.cli serve`` spends about 3 CPU seconds
importing (FastAPI, SQLAlchemy, Alembic, pydantic, the engine, numba; matplotlib for the
charts) before it runs a line of its own, and so does each ``india1853 admin`` run: with some
seventy server starts and thirty admin runs, most of the web tests' time.  So each test
process starts one *fork server* (this file run as a script) that imports the command line,
the web application, the router's compiled kernel, uvicorn and matplotlib once, then forks
for each command: the child is a real process of its own (its own pid, sockets, ``kill -9``),
running exactly ``india1853.interfaces.cli.main(argv)`` as ``python -m
india1853.interfaces.cli`` does, on the standard streams the test handed over
(``socket.send_fds``).  ``random`` is reseeded in every child by Python itself
(``os.register_at_fork``); the server's secrets come from ``secrets``.  The fork server holds
no thread, no event loop and no database connection when it forks.

The tests' side: :func:`spawn` (a ``Forked`` process: ``pid``, ``poll``, ``wait``,
``send_signal``) and :func:`run` (``subprocess.run``'s ``CompletedProcess``).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import inspect
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from typing import Any, NoReturn

# The environment every command runs in: that of the tests less the database and Redis
# every command is given explicitly (as the tests' servers did).
HIDDEN_ENV = ("DATABASE_URL", "REDIS_URL")


class Forked:
    """One command forked by the fork server (a ``subprocess.Popen`` look-alike)."""

    def __init__(self, server: _Client, pid: int) -> None:
        self._server = server
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._server.wait(self.pid, 0.0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = self._server.wait(self.pid, 3600.0 if timeout is None
                                                else timeout)
        if self.returncode is None:
            raise subprocess.TimeoutExpired(f"india1853 (pid {self.pid})", timeout or 0.0)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class _Client:
    """The tests' end of the fork server: one request at a time over a packet socket."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = {k: v for k, v in os.environ.items() if k not in HIDDEN_ENV}
        self._process = subprocess.Popen([sys.executable, __file__], stdin=theirs,
                                         stdout=subprocess.DEVNULL, env=env)
        theirs.close()
        self._sock = ours
        self._lock = threading.Lock()  # one question, one answer, whichever thread asks

    def _ask(self, request: dict[str, Any], fds: list[int] | None = None) -> Any:
        data = json.dumps(request).encode()
        with self._lock:
            if fds:
                socket.send_fds(self._sock, [data], fds)
            else:
                self._sock.send(data)
            answer = self._sock.recv(65536)
        if not answer:
            raise RuntimeError("the fork server is gone")
        return json.loads(answer)

    def spawn(self, argv: list[str], env: dict[str, str], stdin: int, stdout: int,
              stderr: int) -> Forked:
        pid = int(self._ask({"argv": argv, "env": env}, [stdin, stdout, stderr]))
        return Forked(self, pid)

    def wait(self, pid: int, timeout: float) -> int | None:
        code: int | None = self._ask({"wait": pid, "timeout": timeout})
        return code

    def close(self) -> None:
        self._sock.close()  # the fork server ends every command it forked, then itself
        self._process.wait(60)


@functools.cache
def _client() -> _Client:
    made = _Client()
    atexit.register(made.close)
    return made


def spawn(argv: list[str], *, stdin: int, stdout: int, stderr: int,
          env: dict[str, str] | None = None) -> Forked:
    """``india1853 ARGV`` on the given standard streams (file descriptors, kept open), with
    the variables ``env`` added to its environment."""
    return _client().spawn(argv, env or {}, stdin, stdout, stderr)


def run(argv: list[str], timeout: float = 120.0,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``india1853 ARGV`` to its end (``env`` added to its environment): its exit status,
    standard output and error as text."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            open(os.devnull, "rb") as null:
        process = spawn(argv, stdin=null.fileno(), stdout=out.fileno(), stderr=err.fileno(),
                        env=env)
        try:
            code = process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
            raise
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(["india1853", *argv], code,
                                           out.read().decode(), err.read().decode())


# --- the fork server itself (this file run as a script) -------------------------------------

def _child(argv: list[str], env: dict[str, str], fds: list[int],
           sock: socket.socket) -> NoReturn:
    """In the forked child: the command on the handed-over streams; never returns."""

    def on_its_streams() -> None:
        sock.close()
        os.environ.update(env)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)

    from clichild import run_cli

    run_cli(argv, on_its_streams)


def _warm_server_start() -> None:
    """A server's start done once here on a throwaway SQLite database, so that each server
    forked inherits what it loads: SQLite's dialect and driver, Alembic's runtime and the
    migrations' head revision (db.py), anyio's event-loop backend (the first request run in
    a thread imports it), what FastAPI and pydantic keep of the application's routes, and
    each edition's board painter with the hexes of a start's board drawn.
    Nothing of it stays open: the engines are disposed, the application never started."""
    import anyio._backends._asyncio  # noqa: F401

    from india1853.interfaces.web.app import create_app
    from india1853.interfaces.web.db import Database
    from india1853.rules.game import Game, Settings

    with tempfile.TemporaryDirectory() as warm:
        url = f"sqlite:///{warm}/warm.sqlite3"
        db = Database(url)
        try:
            db.migrate()
            db.migrate()  # the check at head (as the application's start does)
        finally:
            db.dispose()
        app = create_app(url)
    # Each edition's board painter (boards.py), with the start's board drawn.
    from india1853.interfaces.web.boards import Boards

    for edition in ("second", "first"):
        Boards().picture(Game(Settings(("Ann", "Bob", "Cat"), 1, edition, ())).state.board,
                         None)
    # FastAPI reads each endpoint's source lines on its first request (for its errors'
    # context): the files read and inspect's map of modules to files made here, once.
    for endpoint in _endpoints(app.routes):
        with contextlib.suppress(OSError, TypeError):
            inspect.getsourcelines(endpoint)


def _endpoints(routes: list[Any]) -> Iterator[Any]:
    """The endpoints of ``routes`` and of the routers included in them."""
    for route in routes:
        if hasattr(route, "endpoint"):
            yield route.endpoint
        yield from _endpoints(getattr(getattr(route, "original_router", None), "routes", []))


def _serve_forks() -> None:
    # Everything a command imports, once; and the kernel loaded from numba's cache.
    import uvicorn  # noqa: F401

    import india1853.interfaces.cli
    import india1853.interfaces.commands.admin
    import india1853.interfaces.commands.serve
    import india1853.interfaces.web.app
    from clichild import wait_child
    from india1853.rules.router import warm_up

    india1853.interfaces.cli.build_parser()  # imports every command module
    warm_up()
    # Each edition's data, loaded and checked on a server's first game of it (cached per
    # process: data/loader.py): about 0.1 CPU-s in every server, paid here once.
    from india1853.interfaces.web.turn import turn
    from india1853.rules.game import Game, Settings

    for edition in ("second", "first"):
        turn(Game(Settings(("Ann", "Bob", "Cat"), 1, edition, ())), None)
    # The charts (stats.svg, interfaces/charts.py) import matplotlib when first drawn: about
    # 0.9 CPU-s in each server that draws them (the secrecy differential's, test_api's, the
    # end screen's), paid here once instead.
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.backends.backend_svg
    import matplotlib.patheffects
    import matplotlib.pyplot

    _warm_server_start()
    sock = socket.socket(fileno=0)
    children: set[int] = set()
    while True:
        try:
            data, fds, _flags, _addr = socket.recv_fds(sock, 65536, 3)
        except ConnectionResetError:
            data, fds = b"", []
        if not data:
            break
        request = json.loads(data)
        if "argv" in request:
            pid = os.fork()
            if pid == 0:
                _child(request["argv"], request["env"], fds, sock)
            for fd in fds:
                os.close(fd)
            children.add(pid)
            sock.send(json.dumps(pid).encode())
        else:
            code = wait_child(int(request["wait"]), float(request["timeout"]))
            if code is not None:
                children.discard(int(request["wait"]))
            sock.send(json.dumps(code).encode())
    for pid in children:  # the tests are over: nothing they started outlives them
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        except ProcessLookupError:
            pass


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # clichild
    _serve_forks()
