"""``india1853 stats game.json --out stats.png``: charts of a finished (or running) game
(:mod:`india1853.interfaces.charts`: each player's worth and each company's share price at
the end of every round)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from india1853.interfaces.charts import draw, history
from india1853.interfaces.logfile import load_log


def register(sub: Any) -> None:
    parser = sub.add_parser("stats", help="chart a game: worth per round, share prices")
    parser.add_argument("log", help="a game log (the file `play --save` writes)")
    parser.add_argument("--out", required=True, help="output picture (.png, .svg or .pdf)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_log(args.log)
    colours = {c.initials: c.colour for c in game.rules.ed.companies}
    print(draw(history(game), Path(args.out), colours))
    return 0
