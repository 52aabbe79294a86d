"""``india1853 log game.json [--moderator]``: the game log in words.

One line per action ("EIR lays tile 5 on H24 (Patna), pays £60"), each followed by the events
it set off (bonds revealed, contracts fulfilled, new rounds and phases, final scores).  Secret
bonds and cities are told only once revealed, unless ``--moderator`` is given.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from india1853.interfaces.logfile import load_log
from india1853.interfaces.narrate import game_log
from india1853.rules.game.game import Game


def register(sub: Any) -> None:
    parser = sub.add_parser("log", help="print a game's log in words")
    parser.add_argument("log", help="a game log (the file `play --save` writes)")
    parser.add_argument("--moderator", action="store_true",
                        help="tell secret bonds and cities at once")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_log(args.log)
    try:
        for entry in game_log(Game(game.settings), game.log, moderator=args.moderator):
            first, *rest = entry.lines
            print(f"{entry.id:>5}  {first}")
            for line in rest:
                print(f"       {line}")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader stopped early (``| head``): not an error; silence the final flush too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
