"""What the tests' two fork servers (tests/web/forkserver.py and tests/interfaces/ptyfork.py)
share: a forked child running ``india1853 ARGV`` to its exit, and the server's wait for it.

The fork servers run as scripts, so each puts tests/ on ``sys.path`` before importing this.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import traceback
from collections.abc import Callable
from typing import NoReturn


def run_cli(argv: list[str], prepare: Callable[[], None]) -> NoReturn:
    """In a forked child: ``prepare()`` (its streams, session, environment), then exactly
    ``india1853.interfaces.cli.main(argv)``, exiting with its status as ``python -m
    india1853.interfaces.cli`` would (argparse's errors included; any other exception's
    traceback on stderr, status 1). Never returns."""
    code = 1
    try:
        prepare()
        from india1853.interfaces.cli import main

        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's errors
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if isinstance(exc.code, str):
                print(exc.code, file=sys.stderr)
    except BaseException:  # as the interpreter would: the traceback on stderr, status 1
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


def wait_child(pid: int, timeout: float) -> int | None:
    """The forked child's exit status once it ends within ``timeout`` seconds (it is then
    reaped), else None. A pid that is no child waiting raises ChildProcessError (or
    ProcessLookupError)."""
    pidfd = os.pidfd_open(pid)
    try:
        select.select([pidfd], [], [], timeout)
    finally:
        os.close(pidfd)
    done, status = os.waitpid(pid, os.WNOHANG)
    return os.waitstatus_to_exitcode(status) if done else None
