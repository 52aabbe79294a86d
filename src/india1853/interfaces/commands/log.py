"""``india1853 log game.json [--moderator]``: the game log in words.

One line per action ("EIR lays tile 5 on H24 (Patna), pays £60"), each followed by the events
it set off (bonds revealed, contracts fulfilled, new rounds and phases, final scores).  Secret
bonds and cities are told only once revealed, unless ``--moderator`` is given.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import Any

from india1853.errors import InputError, RuleError
from india1853.interfaces.logfile import load_log, log_start
from india1853.interfaces.narrate import LogLine, game_log
from india1853.rules.game.game import Game


def register(sub: Any) -> None:
    parser = sub.add_parser("log", help="print a game's log in words")
    parser.add_argument("log", help="a game log (the file `play --save` writes)")
    parser.add_argument("--moderator", action="store_true",
                        help="tell secret bonds and cities at once")
    parser.set_defaults(func=run)


def narrated(path: str, moderator: bool = False) -> list[LogLine]:
    """The log's entries, from one replay: the narration's own (each action checked as
    loading the game checks it).  A file or an action the engine refuses is loaded as every
    command loads a log, for the error that names the action at fault."""
    start = log_start(path)
    if start is not None:
        game, actions = start
        with contextlib.suppress(InputError, RuleError):
            return list(game_log(game, actions, moderator=moderator))
    loaded = load_log(path)
    return list(game_log(Game(loaded.settings), loaded.log, moderator=moderator))


def run(args: argparse.Namespace) -> int:
    entries = narrated(args.log, args.moderator)
    try:
        for entry in entries:
            first, *rest = entry.lines
            print(f"{entry.id:>5}  {first}")
            for line in rest:
                print(f"       {line}")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader stopped early (``| head``): not an error; silence the final flush too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
