"""``india1853 render-tiles --edition first|second --out FILE.svg|FILE.png``: draw the tiles.

Draws every tile of the edition's manifest with its number and count, then the preprinted
large cities; ``--only 3 4 12`` draws just those tiles.  Prints the path written.
"""

from __future__ import annotations

import argparse
from typing import Any

from india1853.data.loader import load_edition
from india1853.interfaces.render import render_tiles_svg, write_picture


def register(sub: Any) -> None:
    parser = sub.add_parser("render-tiles", help="draw the tile manifest as SVG or PNG")
    parser.add_argument("--edition", default="second", help="first or second (default: second)")
    parser.add_argument("--out", required=True, help="output file ending in .svg or .png")
    parser.add_argument("--only", nargs="+", metavar="TILE", help="draw only these tiles")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    ed = load_edition(args.edition)
    svg = render_tiles_svg(ed, only=args.only)
    print(write_picture(svg, args.out))
    return 0
