"""The land beyond the board is drawn as land (issue 13, item 12): grey north of the board
(the Himalaya), west of it above Karachi and east of it above the Bay of Bengal; the seas stay
blue."""

from __future__ import annotations

from pathlib import Path

import pytest

from india1853.board.hexes import ROWS
from india1853.data.loader import load_edition
from india1853.interfaces.cli import main
from india1853.interfaces.render.board import land_beyond
from india1853.interfaces.render.svg import LAND_BEYOND, SEA


def _at(row: str, col: int) -> tuple[int, int]:
    return (-1 if row == "A" else ROWS.index(row), col)


@pytest.mark.parametrize("edition", ["second", "first"])
def test_the_northern_frontier_is_land_and_the_seas_are_not(edition: str) -> None:
    ed = load_edition(edition)
    columns = max(int(c[1:]) for c in ed.board.hexes)
    land = set(land_beyond(ed, columns))
    # North of Peshawar's row, above Lahore's column, north of Cawnpore, Lucknow and Patna.
    for row, col in (("A", 9), ("A", 13), ("D", 18), ("E", 21), ("F", 24), ("B", 20)):
        assert _at(row, col) in land, (row, col)
    # The Arabian Sea west of Bombay and south of Karachi, the Bay of Bengal below Waltair.
    for row, col in (("M", 7), ("K", 3), ("N", 8), ("P", 22), ("R", 20), ("V", 18)):
        assert _at(row, col) not in land, (row, col)
    assert not any(coord in ed.board.hexes for coord in
                   (f"{ROWS[ri]}{col}" for ri, col in land if ri >= 0))


def test_the_rendered_board_fills_the_land_beyond_in_grey(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    assert main(["render", "--out", str(out)]) == 0
    svg = out.read_text()
    ed = load_edition("second")
    count = len(land_beyond(ed, max(int(c[1:]) for c in ed.board.hexes)))
    assert count > 40
    assert svg.count(f'fill="{LAND_BEYOND}"') == count
    assert SEA in svg  # the background is still the sea
