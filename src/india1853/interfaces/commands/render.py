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
from india1853.board.state import Base, BoardState, PlacedTile
from india1853.board.tiles import (
    fitting_rotations,
    is_reserved,
    labels_allow,
)
from india1853.data.loader import load_edition
from india1853.data.model import Edition, HexSpec, TileSpec
from india1853.errors import InputError
from india1853.interfaces.game_render import describe_run, game_board_svg, optimal_run
from india1853.interfaces.logfile import load_log
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


def sketch_board(ed: Edition, tiles: Sequence[str], bases: Sequence[str]) -> BoardState:
    """The printed board with the ``--tile`` options (:func:`sketch_tiles`) and then the
    ``--base`` options (:func:`sketch_bases`) on it."""
    laid = {**BoardState.initial(ed).tiles,
            **{coord: PlacedTile(tile, rotation)
               for coord, (tile, rotation) in sketch_tiles(ed, tiles).items()}}
    board = BoardState(ed, laid)
    return BoardState(ed, laid, sketch_bases(board, bases))


def sketch_bases(board: BoardState, texts: Sequence[str]) -> tuple[Base, ...]:
    """The ``--base`` options as base tokens on ``board`` (4.4, 4.2.9): a station named, the
    tile's only large station, or the printed city circle of a hex without a tile.  A token
    never disappears silently from the picture: a hex without a city, a town, an unnamed
    station among several or more tokens than slots raises InputError."""
    ed = board.edition
    out: list[Base] = []
    taken: dict[tuple[str, str | None], int] = {}
    for initials, text, station in map(parse_base, texts):
        company = ed.company(initials)
        coord = parse_coord(text)
        if coord not in ed.board.hexes:
            raise InputError(f"bases: hex {coord} is not on the {ed.name} edition board")
        tile = board.tile_at(coord)
        station, slots = (_printed_city_slot(ed, coord, station) if tile is None
                          else _tile_station_slots(tile[0], coord, station))
        if taken.get((coord, station), 0) >= slots:
            where = coord if station is None else f"{coord}/{station}"
            raise InputError(f"bases: no free slot for {company.initials} on {where} "
                             f"({slots} slot{'s' if slots != 1 else ''})")
        taken[coord, station] = taken.get((coord, station), 0) + 1
        out.append(Base(company.initials, coord, station))
    return tuple(out)


def _printed_city_slot(ed: Edition, coord: str, station: str | None) -> tuple[None, int]:
    """A hex without a tile: only a printed city circle takes a token (one slot)."""
    if station is not None:
        raise InputError(f"bases: no station {station!r} on {coord} (no tile there)")
    if ed.board.hexes[coord].kind != "city":
        raise InputError(f"bases: {coord} has no city to hold a base")
    return None, 1


def _tile_station_slots(tile: TileSpec, coord: str, station: str | None) -> tuple[str, int]:
    """The station of ``tile`` a base goes to and its slot count; an unnamed station is the
    tile's only large station."""
    large = [s for s in tile.stations if s.kind == "large"]
    if station is None:
        if len(large) != 1:
            if not large:
                raise InputError(f"bases: tile {tile.id} on {coord} has no large station")
            names = ", ".join(s.id for s in large)
            raise InputError(f"bases: name the station on {coord} (one of {names})")
        return large[0].id, large[0].slots
    for s in tile.stations:
        if s.id == station:
            if s.kind != "large":
                raise InputError(f"bases: station {station!r} on {coord} is a town, not a "
                                 "large station")
            return s.id, s.slots
    raise InputError(f"bases: no station {station!r} on {coord}")


def run_game_render(args: argparse.Namespace) -> int:
    """The ``render GAME`` form of the render command."""
    if args.tile or args.base:
        raise InputError("--tile/--base: draw a game's own board; they apply without a game log")
    game = load_log(args.game, args.to)
    edition = getattr(args, "edition", None)
    if edition is not None and edition != game.settings.edition:
        raise InputError(f"--edition {edition}: {args.game!r} is a game of the "
                         f"{game.settings.edition} edition")
    run = optimal_run(game, args.routes) if args.routes else None
    path = write_picture(game_board_svg(game, run), args.out)
    if run is not None:
        print(describe_run(run))
    print(path)
    return 0


def run(args: argparse.Namespace) -> int:
    if args.game is not None:
        return run_game_render(args)
    if args.to is not None or args.routes is not None:
        raise InputError("--to/--routes: need a game log, e.g. render game.json --out b.svg")
    ed = load_edition(args.edition or "second")
    svg = render_board_svg(sketch_board(ed, args.tile, args.base))
    print(write_picture(svg, args.out))
    return 0
