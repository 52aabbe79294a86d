"""Draw the board and the tiles as SVG, and convert SVG to PNG.

The picture follows the printed board: pointy-top hexes in rows B (north) to V (south), buff
land, the Ganges valley shaded beige, grey margin hexes, terrain symbols with their TABLE 4
costs (broad / metre gauge), towns as dots, cities as circles with their name, the companies
a contract bid may claim for them and their bond value, frontier posts with their value
(rule 4.1.14 / 31.11) and the preprinted large cities with their separate stations (4.2.12 /
31.22).  Tiles show broad gauge as a solid black line and metre gauge as a black and white
dashed line (rule 4.1.5 / 31.3); dual gauge (4.2.8) is drawn as a pair of rails.

:mod:`.svg` the colours, the hex layout and the SVG writer; :mod:`.tiles` one tile anywhere
and the tile sheet; :mod:`.board` the board of a :class:`~india1853.board.state.BoardState`;
:mod:`.routes` routes on it; :mod:`.png` PNG and files.  Everything is a pure function of
the edition data and the board state; only :func:`write_picture` and :func:`svg_to_png` touch
the file system.
"""

from __future__ import annotations

from india1853.interfaces.render.board import render_board_svg
from india1853.interfaces.render.png import svg_to_png, svg_to_png_bytes, write_picture
from india1853.interfaces.render.svg import Layout
from india1853.interfaces.render.tiles import render_tile_svg, render_tiles_svg

__all__ = ["Layout", "render_board_svg", "render_tile_svg",
           "render_tiles_svg", "svg_to_png", "svg_to_png_bytes",
           "write_picture"]
