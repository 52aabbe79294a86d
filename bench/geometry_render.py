"""Tile geometry and rendering: promotion checks over both charts, board SVG and PNG."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from india1853.board.state import BoardState
from india1853.board.tiles import fitting_rotations, promotion_rotations
from india1853.data.loader import load_edition
from india1853.interfaces.render import render_board_svg, svg_to_png


def _chart_pairs(edition: str) -> int:
    ed = load_edition(edition)
    n = 0
    for old_id, new_ids in ed.promotions.items():
        for new_id in new_ids:
            for r in range(6):
                promotion_rotations(ed.tiles[old_id], r, ed.tiles[new_id])
                n += 1
    return n


def run() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for edition in ("first", "second"):
        ed = load_edition(edition)
        start = time.perf_counter()
        calls = _chart_pairs(edition)
        cold = time.perf_counter() - start
        start = time.perf_counter()
        _chart_pairs(edition)
        warm = time.perf_counter() - start
        rows.append({"edition": edition, "what": "promotion_rotations, chart (cold)",
                     "calls": calls, "us_per_call": cold / calls * 1e6})
        rows.append({"edition": edition, "what": "promotion_rotations, chart (cached)",
                     "calls": calls, "us_per_call": warm / calls * 1e6})
        tiles = [ed.tiles[t] for t in ed.manifest]
        start = time.perf_counter()
        n = 0
        for coord in ed.board.hexes:
            for tile in tiles:
                fitting_rotations(tile, coord, ed.board)
                n += 1
        rows.append({"edition": edition, "what": "fitting_rotations, every tile x hex",
                     "calls": n, "us_per_call": (time.perf_counter() - start) / n * 1e6})
        start = time.perf_counter()
        svg = render_board_svg(BoardState.initial(ed))
        rows.append({"edition": edition, "what": "render_board_svg", "calls": 1,
                     "us_per_call": (time.perf_counter() - start) * 1e6})
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            svg_to_png(svg, Path(tmp) / "board.png")
            rows.append({"edition": edition, "what": "svg_to_png (resvg)", "calls": 1,
                         "us_per_call": (time.perf_counter() - start) * 1e6})
    return rows
