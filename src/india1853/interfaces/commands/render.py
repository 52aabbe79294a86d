"""``india1853 render --edition first|second --out FILE.svg|FILE.png``: draw the board.

``--tile HEX:TILE:ROTATION`` (repeatable) lays a tile on the printed board and
``--base COMPANY:HEX[:STATION]`` (repeatable) draws a base token, so that a position can be
sketched by hand.  Prints the path written.
"""

from __future__ import annotations

import argparse
from typing import Any

from india1853.data.loader import load_edition
from india1853.errors import InputError
from india1853.interfaces.render import render_board_svg, write_picture


def register(sub: Any) -> None:
    parser = sub.add_parser("render", help="draw the board as SVG or PNG")
    parser.add_argument("--edition", default="second", help="first or second (default: second)")
    parser.add_argument("--out", required=True, help="output file ending in .svg or .png")
    parser.add_argument("--tile", action="append", default=[], metavar="HEX:TILE:ROTATION",
                        help="lay a tile, e.g. K17:14:1 (repeatable)")
    parser.add_argument("--base", action="append", default=[], metavar="COMPANY:HEX[:STATION]",
                        help="draw a base token, e.g. BNR:K17:st1 (repeatable)")
    # A game log instead: its board at any point (india1853.interfaces.game_render).
    parser.add_argument("game", nargs="?", help="a game log: draw that game's board")
    parser.add_argument("--to", type=int, default=None, metavar="ACTION_ID",
                        help="with a game log: the board after this action")
    parser.add_argument("--routes", metavar="COMPANY",
                        help="with a game log: highlight the company's optimal routes")
    parser.set_defaults(func=run)


def parse_tile(text: str) -> tuple[str, str, int]:
    """``"K17:14:1"`` -> ``("K17", "14", 1)``."""
    parts = text.split(":")
    if len(parts) != 3 or not parts[2].strip().lstrip("-").isdigit():
        raise InputError(f"--tile {text!r}: expected HEX:TILE:ROTATION, e.g. K17:14:1")
    return parts[0].strip(), parts[1].strip(), int(parts[2])


def parse_base(text: str) -> tuple[str, str, str | None]:
    """``"BNR:K17:st1"`` -> ``("BNR", "K17", "st1")``; the station may be left out."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) not in (2, 3) or not all(parts):
        raise InputError(f"--base {text!r}: expected COMPANY:HEX or COMPANY:HEX:STATION")
    return parts[0], parts[1], parts[2] if len(parts) == 3 else None


def run(args: argparse.Namespace) -> int:
    if args.game is not None:
        from india1853.interfaces.game_render import run_game_render

        return run_game_render(args)
    if args.to is not None or args.routes is not None:
        raise InputError("--to/--routes: need a game log, e.g. render game.json --out b.svg")
    ed = load_edition(args.edition)
    tiles = {hex_: (tile, rotation) for hex_, tile, rotation in map(parse_tile, args.tile)}
    bases = [parse_base(b) for b in args.base]
    svg = render_board_svg(ed, tiles=tiles, bases=bases)
    print(write_picture(svg, args.out))
    return 0
