"""The terminal: rich output, line input, and hidden input for secret choices.

Everything goes through the two streams given, so that tests can drive the game with
``io.StringIO`` and the real command runs on ``sys.stdin`` / ``sys.stdout``.  When the input is
a terminal, hidden input switches the terminal's echo off (as ``getpass`` does) and the screen is
cleared between players; otherwise the line is read as it comes.

Clearing the screen alone (``ESC[2J``) is not enough to keep a secret: terminals such as tmux,
VTE (GNOME Terminal) and xterm push the cleared screen into their scrollback, where the next
player could scroll up and read it.  :meth:`Console.clear` with ``scrollback=True`` also sends
``ESC[3J`` (erase the saved lines, as ``clear(1)`` does), so a secret screen is gone for good.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import IO

from rich.console import Console as RichConsole
from rich.console import RenderableType

# ED 3, "erase saved lines" (xterm, tmux, VTE, the Linux console): the scrollback.
ERASE_SCROLLBACK = "\x1b[3J"


class EndOfInput(Exception):
    """The input stream is exhausted (end of file, Ctrl-D)."""


def _is_tty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def _no_echo(stream: IO[str]) -> Iterator[None]:
    """Switch the terminal's echo off while reading a secret (like ``getpass``)."""
    if not _is_tty(stream) or os.name != "posix":
        yield
        return
    import termios

    fd = stream.fileno()
    old = termios.tcgetattr(fd)
    new = termios.tcgetattr(fd)
    new[3] &= ~termios.ECHO
    try:
        # TCSADRAIN, not getpass's TCSAFLUSH: a line typed ahead must not be thrown away.
        termios.tcsetattr(fd, termios.TCSADRAIN, new)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


class Console:
    """Rich output on ``stdout`` and line input from ``stdin``."""

    def __init__(self, stdin: IO[str], stdout: IO[str], *, width: int | None = None,
                 color: bool | None = None) -> None:
        self.stdin = stdin
        self.stdout = stdout
        # Bytes that are not in the terminal's encoding (a Latin-1 "£", a stray paste) become
        # U+FFFD and get "unknown command", instead of a decoding traceback.
        reconfigure = getattr(stdin, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
        self.interactive = _is_tty(stdin) and _is_tty(stdout)
        self.rich = RichConsole(
            file=stdout,
            width=width or (None if _is_tty(stdout) else 110),
            force_terminal=_is_tty(stdout) if color is None else color,
            no_color=False if color is None else not color,
            highlight=False,
            soft_wrap=False,
        )

    def print(self, *items: RenderableType, style: str | None = None) -> None:
        self.rich.print(*items, style=style)
        self.stdout.flush()

    def clear(self, *, scrollback: bool = False) -> None:
        """Clear the screen (on a terminal); elsewhere a separator keeps logs readable.
        ``scrollback``: erase the terminal's scrollback too (between players, around a
        secret), so nothing cleared can be scrolled back to."""
        if self.interactive:
            self.rich.clear()
            if scrollback:
                self.stdout.write(ERASE_SCROLLBACK)
        else:
            self.stdout.write("\n" + "=" * 40 + "\n")
        self.stdout.flush()

    def _readline(self) -> str:
        line = self.stdin.readline()
        if not line:
            raise EndOfInput
        return line.rstrip("\r\n")

    def prompt(self, text: str) -> str:
        """Show ``text`` and read one line (without its end of line)."""
        self.stdout.write(text)
        self.stdout.flush()
        return self._readline()

    def secret(self, text: str) -> str:
        """Read one line without echoing it (on a terminal)."""
        # Echo goes off before the prompt appears, so nothing typed after it can show.
        with _no_echo(self.stdin):
            self.stdout.write(text)
            self.stdout.flush()
            line = self._readline()
        # The user's Enter was not echoed either.
        self.stdout.write("\n")
        self.stdout.flush()
        return line
