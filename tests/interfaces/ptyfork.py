"""``india1853`` commands in a pseudo-terminal, forked from a process that imported them once.

A fresh ``india1853 play`` spends about a CPU-second starting Python and importing the engine,
the bots, the router's compiled kernel and rich before it draws its first screen; the terminal
tests start a dozen of them.  So the first test to ask starts one *fork server* (this file run
as a script) that imports the command line and plays the first screen of a game into memory
once (every import and every cached table of edition data a ``play`` needs), then forks for
each command.  The child is what a shell starts: a new session whose controlling terminal is
the pseudo-terminal's slave (``setsid`` and ``TIOCSCTTY``, so Ctrl-C's signal, hidden input
and ``/dev/tty`` behave as at a keyboard), the slave as its standard streams (opened afresh, as
Python opens them at start: line-buffered on a terminal), Ctrl-C's default handler, the test's
environment and working directory; it runs exactly ``india1853.interfaces.cli.main(argv)`` and
exits with its status, as ``python -m india1853.interfaces.cli`` does.

tests/interfaces/test_play_pty.py keeps one test on the real ``india1853`` executable.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import functools
import io
import json
import os
import signal
import socket
import subprocess
import sys
import termios
import threading
from typing import Any, NoReturn


class _Client:
    """The tests' end of the fork server: one request at a time over a packet socket."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._process = subprocess.Popen([sys.executable, __file__], stdin=theirs.fileno(),
                                         stdout=subprocess.DEVNULL)
        theirs.close()
        self._sock = ours
        self._lock = threading.Lock()

    def ask(self, request: dict[str, Any], fds: list[int] | None = None) -> Any:
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

    def close(self) -> None:
        self._sock.close()  # the fork server ends every command it forked, then itself
        self._process.wait(60)


@functools.cache
def _client() -> _Client:
    made = _Client()
    atexit.register(made.close)
    return made


def spawn(argv: list[str], terminal: int, cwd: str, env: dict[str, str]) -> int:
    """``india1853 ARGV`` with the pseudo-terminal slave ``terminal`` (a file descriptor, kept
    open: the caller closes it) as its controlling terminal and standard streams, in ``cwd``
    with exactly the environment ``env``; its pid."""
    return int(_client().ask({"argv": argv, "cwd": cwd, "env": env}, [terminal]))


def wait(pid: int, timeout: float) -> int | None:
    """The exit status of the command ``pid`` once it ends within ``timeout`` seconds (it is
    then reaped), else None."""
    answer = _client().ask({"wait": pid, "timeout": timeout})
    if isinstance(answer, str):
        raise ChildProcessError(answer)
    code: int | None = answer
    return code


# --- the fork server itself (this file run as a script) -------------------------------------

def _standard_streams() -> None:
    """sys.stdin, stdout and stderr on descriptors 0-2 as Python opens them at its start (the
    fork server's were opened on a socket and /dev/null): line-buffered on a terminal, in the
    same encoding and error handlers, which the environment chose alike."""
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        old = getattr(sys, name)
        stream = open(fd, mode, encoding=old.encoding, errors=old.errors,  # noqa: SIM115
                      newline="\n", closefd=False)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _child(request: dict[str, Any], terminal: int, sock: socket.socket) -> NoReturn:
    """In the forked child: the command on its terminal; never returns."""

    def on_its_terminal() -> None:
        sock.close()
        os.setsid()
        fcntl.ioctl(terminal, termios.TIOCSCTTY, 0)
        for target in (0, 1, 2):
            os.dup2(terminal, target)
        os.close(terminal)
        _standard_streams()
        # As a fresh interpreter: Ctrl-C raises KeyboardInterrupt, no signal blocked.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])

    from clichild import run_cli

    run_cli(request["argv"], on_its_terminal)


def _warm_up() -> None:
    """Everything ``play`` imports and caches, once: the first screen of a game with a bot,
    drawn into memory, then ``quit``."""
    import tempfile
    from pathlib import Path

    from india1853.interfaces.cli import build_parser
    from india1853.interfaces.logfile import Table
    from india1853.interfaces.terminal.console import Console
    from india1853.interfaces.terminal.loop import Hotseat
    from india1853.rules.game.game import Game
    from india1853.rules.game.settings import Settings

    build_parser(["play"])
    with tempfile.TemporaryDirectory() as directory:
        game = Game(Settings(("Ann", "Bob", "Cat"), 1, "second", ()))
        console = Console(io.StringIO("quit\n"), io.StringIO())
        Hotseat(game, Table({"Cat": "greedy"}), console, Path(directory) / "game.json").run()


def _serve_forks() -> None:
    from clichild import wait_child

    _warm_up()
    sock = socket.socket(fileno=0)
    children: set[int] = set()
    while True:
        try:
            data, fds, _flags, _addr = socket.recv_fds(sock, 65536, 1)
        except ConnectionResetError:
            data, fds = b"", []
        if not data:
            break
        request = json.loads(data)
        if "argv" in request:
            pid = os.fork()
            if pid == 0:
                _child(request, fds[0], sock)
            for fd in fds:
                os.close(fd)
            children.add(pid)
            sock.send(json.dumps(pid).encode())
        else:
            try:
                code = wait_child(int(request["wait"]), float(request["timeout"]))
            except (ProcessLookupError, ChildProcessError) as exc:  # not a child waiting
                sock.send(json.dumps(f"pid {request['wait']}: {exc}").encode())
                continue
            if code is not None:
                children.discard(int(request["wait"]))
            sock.send(json.dumps(code).encode())
    for pid in children:  # the tests are over: nothing they started outlives them
        with contextlib.suppress(ChildProcessError, ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # clichild
    _serve_forks()
