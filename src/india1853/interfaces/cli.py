"""The ``india1853`` command line.

Each subcommand lives in its own module under ``india1853.interfaces.commands`` and exposes
``register(subparsers)``, which adds its parser and sets ``func`` to a callable taking the parsed
arguments and returning the exit status.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from india1853.errors import India1853Error

# Subcommand modules, in the order --help lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "data", "render", "render_tiles", "routes", "moves", "play", "replay", "log", "stats",
    "simulate", "export_position", "serve", "admin",
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse's default prints usage; we keep errors to one clear line.
        self.exit(2, f"error: {message}\n")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser; or, for a command line naming a subcommand first (``argv``), only
    that subcommand's, which parses it alike: each subcommand's module imports what it needs
    (``serve`` the web server's libraries, about two CPU-seconds), so a command does not pay
    for the others' imports."""
    parser = _Parser(prog="india1853", description="1853 (India): data, board, routes and play")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    commands = {name.replace("_", "-"): name for name in COMMAND_MODULES}
    named = commands.get(argv[0]) if argv else None
    for name in (named,) if named else COMMAND_MODULES:
        module = importlib.import_module(f"india1853.interfaces.commands.{name}")
        module.register(sub)
    return parser


# Python's cyclic garbage collector with its default thresholds (700, 10, 10) took a sixth to a
# quarter of a game's CPU (the engine and the bots allocate many small objects that live a
# whole turn): `simulate` of two greedy games 9.2-10.3 CPU-s, 8.1-8.2 with these (measured
# side by side; docs/test-speed.md). What it frees is the same; only how often it looks.
GC_THRESHOLDS = (50_000, 50, 100)


def main(argv: Sequence[str] | None = None) -> int:
    gc.set_threshold(*GC_THRESHOLDS)
    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(arguments)
    args = parser.parse_args(arguments)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        status = func(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # The reader stopped early (``| head``): not an error; silence the final flush too.
        _silence_stdout()
        return 0
    except OSError as exc:
        # Any other failure to write (a full disk: ``data --json > /dev/full``); a file the
        # command itself could not use names that file.
        if exc.filename is None:
            _silence_stdout()
            print(f"error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        else:
            print(f"error: {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except India1853Error as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except RecursionError:
        # A reader that met input nested too deeply for it (the JSON readers refuse such
        # files first: india1853.data.jsonfile); one line, never a traceback.
        print("error: the input is nested too deeply to read", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


MESSAGE_CHARS = 500


def one_line(message: str) -> str:
    """An error message fit for the terminal: control characters (an escape sequence from a
    file, say) shown escaped, never sent raw, and at most :data:`MESSAGE_CHARS` characters,
    so that a message quoting a huge input value does not echo it whole."""
    text = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in message)
    if len(text) > MESSAGE_CHARS:
        text = text[:MESSAGE_CHARS] + f"... ({len(text) - MESSAGE_CHARS} more characters)"
    return text


def _silence_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's last flush of what is still
    buffered cannot fail a second time (and print a traceback) on the way out."""
    # When stdout is no real file (a test's capture) nothing will be flushed to it.
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
