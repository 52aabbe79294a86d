"""``india1853 render --edition first|second --out FILE.svg|FILE.png``: draw the board.

``--tile HEX:TILE:ROTATION`` (repeatable) lays a tile on the printed board and
``--base COMPANY:HEX[:STATION]`` (repeatable) draws a base token, so that a position can be
sketched by hand; a tile must suit its hex and stay on the board (see :func:`sketch_tiles`).
Prints the path written; a missing directory of ``--out`` is created.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from india1853.board.hexes import parse_coord
from india1853.board.tiles import (
    fitting_rotations,
    is_reserved,
    labels_allow,
)
from india1853.data.loader import load_edition
from india1853.data.model import Edition, HexSpec, TileSpec
from india1853.errors import InputError
from india1853.interfaces.render import render_board_svg, write_picture
from india1853.rules.construction.lays import fits_kind, station_count


def register(sub: Any) -> None:
    parser = sub.add_parser("render", help="draw the board as SVG or PNG")
    parser.add_argument("--edition", default=None,
                        help="first or second (default: second; a game log's own edition)")
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


def sketch_tiles(ed: Edition, texts: Sequence[str]) -> dict[str, tuple[str, int]]:
    """The ``--tile`` options as hex -> (tile, rotation), each checked as a position a game
    could reach: one tile per hex, a tile of the kind the hex takes (4.1.9 / 31.7, 4.2.5 /
    31.15, 4.2.12 / 31.22) and a rotation whose track stays on the board (4.1.10 / 31.8).
    A bad option raises InputError naming it."""
    tiles: dict[str, tuple[str, int]] = {}
    for text in texts:
        hex_text, tile_id, rotation = parse_tile(text)
        where = f"--tile {text!r}"
        try:
            coord = parse_coord(hex_text)
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
        if coord in tiles:
            raise InputError(f"{where}: a second tile for {coord} (one tile per hex)")
        spec = ed.board.hexes.get(coord)
        if spec is None:
            raise InputError(f"{where}: hex {coord} is not on the {ed.name} edition board")
        if tile_id not in ed.tiles:
            raise InputError(f"{where}: unknown tile {tile_id!r} in the {ed.name} edition")
        if rotation not in range(6):
            raise InputError(f"{where}: bad rotation {rotation}: expected 0..5")
        tile = ed.tiles[tile_id]
        _check_kind(ed, spec, tile, where)
        fits = fitting_rotations(tile, coord, ed.board)
        if rotation not in fits:
            others = (f"it fits at rotation{'s' if len(fits) > 1 else ''} "
                      f"{', '.join(map(str, fits))}" if fits else "it fits at no rotation")
            raise InputError(f"{where}: track runs off the board at rotation {rotation} "
                             f"(4.1.10 / 31.8); {others}")
        tiles[coord] = (tile_id, rotation)
    return tiles


def _check_kind(ed: Edition, spec: HexSpec, tile: TileSpec, where: str) -> None:
    """The tile's stations must suit the hex: none on open country, one town (or, from green
    on, the large station a town may become) on a town, two towns on a double town, large
    stations on a city (4.1.9 / 31.7, 4.2.5 / 31.15); a large city takes only the tiles reserved
    for it (4.2.12 / 31.22), and those tiles nothing else."""
    place = f"{spec.coord} ({spec.kind.replace('_', ' ')})"
    if tile.preprinted:
        raise InputError(f"{where}: tile {tile.id} is printed on the board, not laid")
    if not spec.playable:
        raise InputError(f"{where}: {spec.coord} is a grey margin hex: no tile "
                         "(4.1.10 / 31.8)")
    if spec.kind == "large_city":
        printed = ed.tiles[spec.preprinted or ""]
        if not labels_allow(printed, tile):
            raise InputError(f"{where}: {place} takes only the tiles reserved for it "
                             f"(4.2.12 / 31.22), not tile {tile.id}")
        return
    if is_reserved(tile):
        raise InputError(f"{where}: tile {tile.id} ({tile.label}) is reserved for the large "
                         f"cities (4.2.12 / 31.22), not {place}")
    small, large = station_count(tile)
    if not fits_kind(spec.kind, tile):
        raise InputError(f"{where}: tile {tile.id} ({_stations_text(small, large)}) does not "
                         f"fit {place} (4.1.9 / 31.7, 4.2.5 / 31.15)")


def _stations_text(small: int, large: int) -> str:
    parts = [f"{n} {what}{'s' if n != 1 else ''}"
             for n, what in ((small, "town"), (large, "large station")) if n]
    return " and ".join(parts) or "no station"


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
    ed = load_edition(args.edition or "second")
    tiles = sketch_tiles(ed, args.tile)
    bases = [parse_base(b) for b in args.base]
    svg = render_board_svg(ed, tiles=tiles, bases=bases)
    print(write_picture(svg, args.out))
    return 0
