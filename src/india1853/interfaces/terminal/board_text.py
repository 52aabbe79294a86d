"""The hexes around the acting company's railheads, drawn as text for the terminal.

When a company lays track or places a base, the screen shows the part of the map where its
options lie: each hex as one short cell (a base's company, a laid tile's number, a city's first
letters, ``o`` a town, ``.`` open country), the hexes it may build on starred.  The data come
from the turn model (the options' hexes) and the view's board; the map's layout from the
edition's board data.  Nothing here decides what is legal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from india1853.board.hexes import MAX_COL, MIN_COL, ROWS, SIDE_NAMES, split
from india1853.data.model import Edition

# The window drawn: at most this many rows and columns of the grid (a hex spans two columns);
# each column is three characters wide, so 36 columns fill 108 of the 120.
MAX_ROWS = 6
MAX_COLS = 36
CELL = 3
BOARD_MOVES = ("lay_tile", "promote_tile", "place_base")


def _window(values: list[int], low: int, high: int, margin: int, size: int) -> range:
    """Up to ``size`` consecutive values covering ``values`` with ``margin`` (centred on their
    median when they do not fit), within ``low``..``high``."""
    first, last = min(values) - margin, max(values) + margin
    if last - first + 1 > size:
        middle = sorted(values)[len(values) // 2]
        first = middle - size // 2
        last = first + size - 1
    first, last = max(low, first), min(high, last)
    return range(first, last + 1)


def _cell(ed: Edition, coord: str, tiles: Mapping[str, Any], bases: Mapping[str, str],
          starred: bool) -> str:
    spec = ed.board.hexes.get(coord)
    if spec is None:
        return ""
    if coord in bases:
        text = bases[coord]
    elif coord in tiles and tiles[coord][0] != spec.preprinted:
        text = str(tiles[coord][0])
    elif spec.name:
        text = spec.name[:3]
    elif spec.kind in ("town", "double_town"):
        text = "o"
    else:
        text = "."
    return ("*" if starred else "") + text


def local_board(model: Mapping[str, Any], ed: Edition, entity: str) -> RenderableType | None:
    """The hexes around ``entity``'s track and base options, or None when it has none."""
    decision = next((d for d in model["decisions"] if d["entity"] == entity), None)
    if decision is None:
        return None
    starred = {o["ui"]["hex"] for o in decision["options"] if o["type"] in BOARD_MOVES}
    if not starred:
        return None
    board = model["view"]["board"]
    tiles: Mapping[str, Any] = board["tiles"]
    bases: dict[str, str] = {}
    for company, coord, _ in board["bases"]:
        bases.setdefault(coord, company)
    rows = _window([ROWS.index(split(h)[0]) for h in starred], 0, len(ROWS) - 1, 2, MAX_ROWS)
    cols = _window([split(h)[1] for h in starred], MIN_COL, MAX_COL, 6, MAX_COLS)
    header = "".join(f"{c:<{2 * CELL}}" for c in cols if c % 2 == cols[0] % 2)
    header2 = "".join(f"{c:<{2 * CELL}}" for c in cols if c % 2 != cols[0] % 2)
    lines = [Text(f"   {header}".rstrip(), style="dim"),
             Text(f"      {header2}".rstrip(), style="dim")]
    for r in rows:
        row = ROWS[r]
        line = Text(f"{row:<3}")
        for c in cols:
            coord = f"{row}{c}"
            text = _cell(ed, coord, tiles, bases, coord in starred)
            if not text:
                continue
            # Each grid column is CELL characters: a hex starts at its column's place.
            line.append(" " * (3 + (c - cols[0]) * CELL - len(line.plain)))
            style = "bold cyan" if coord in starred else ("bold" if coord in bases else "")
            line.append(text[: 2 * CELL - 1], style=style)
        lines.append(line)
    legend = Text(
        "*: you may build · EIR base · 57 tile · Pat city · o town · . open · rotation r turns "
        f"a tile r×60° clockwise; each lay lists its track's sides [{' '.join(SIDE_NAMES)}]",
        style="dim")
    return Panel(Group(*lines, legend), title=f"Around {entity}'s options (the board file "
                 "has the whole map)", title_align="left")
