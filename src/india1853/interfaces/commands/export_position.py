"""``india1853 export-position GAME.json [--to ID] [-o FILE]``: a game's position file.

Writes the board and the formed companies of a game log (after its last action, or after the
action ``--to``) as a position file (docs/positions.md), which ``moves`` and ``routes`` read.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from india1853.interfaces.logfile import load_log
from india1853.rules.position import game_position, position_to_dict


def register(sub: Any) -> None:
    parser = sub.add_parser("export-position",
                            help="write a game's board and companies as a position file")
    parser.add_argument("log", help="a game log (the file `play --save` writes)")
    parser.add_argument("--to", type=int, default=None, metavar="ACTION_ID",
                        help="the position after the action with this id")
    parser.add_argument("-o", "--out", default=None, metavar="FILE",
                        help="write the position there (default: print it)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_log(args.log, args.to)
    text = json.dumps(position_to_dict(game_position(game)), ensure_ascii=False, indent=1)
    if args.out is None:
        print(text)
        return 0
    Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(args.out)
    return 0
