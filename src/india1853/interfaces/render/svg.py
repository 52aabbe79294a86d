"""The picture's alphabet: colours, the hex layout and a small SVG writer.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from india1853.board.hexes import ROWS, split
from india1853.data.model import (
    Terrain,
)

Point = tuple[float, float]
# A track-graph node: ("S", hex, station id) or ("E", hex, side), see board.graph.
RouteNode = tuple[str, str, str | int]

SQRT3 = math.sqrt(3.0)

TILE_COLOURS: dict[str, str] = {
    "yellow": "#f4d63c",
    "green": "#5fbf5a",
    "brown": "#b9804e",
    "grey": "#b4b4b4",
}
LAND = "#f4efd6"
GANGES = "#f7d2a4"
MARGIN_GREY = "#a8a8a8"
# Pale grey playable hexes outside India (first edition map notes): lighter than the margin.
PALE_GREY = "#dcdcd8"
SEA = "#cfe3ee"
# Land beyond the board (the Himalaya, Afghanistan, Burma): grey, as the printed board shows it,
# lighter than the margin hexes and without hex edges, so that it reads as land, not as hexes.
LAND_BEYOND = "#c6c6c2"
INK = "#1b1b1b"
HEX_LABEL = "#b0302a"
CITY_NAME = "#10226b"
RIVER = "#2a6fd0"
BOND_INK = "#6b3d00"
ROUTE_COLOURS: tuple[str, ...] = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4")

TERRAIN_NAMES: dict[Terrain, str] = {
    "river": "river",
    "multiple_river": "multiple river",
    "hill": "hill",
    "mountain": "mountain",
    "himalaya": "Himalaya",
}

# The PNG is drawn with the DejaVu Sans faces bundled in matplotlib (see svg_to_png_bytes); an
# SVG viewer without them falls back to the next names.
FONT_FAMILY = "DejaVu Sans"
FONT = f"{FONT_FAMILY}, Verdana, Arial, sans-serif"


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of the hex grid: ``radius`` is centre to corner."""

    radius: float = 72.0
    margin: float = 70.0
    columns: int = 36

    @property
    def half_width(self) -> float:
        return self.radius * SQRT3 / 2

    def center(self, coord: str) -> Point:
        row, col = split(coord)
        return (
            self.margin + col * self.half_width,
            self.margin + self.radius + ROWS.index(row) * 1.5 * self.radius,
        )

    @property
    def width(self) -> float:
        return 2 * self.margin + (self.columns + 1) * self.half_width

    @property
    def height(self) -> float:
        return 2 * self.margin + 2 * self.radius + (len(ROWS) - 1) * 1.5 * self.radius


def side_direction(side: int) -> Point:
    """Unit vector from a hex centre towards the middle of map side ``side`` (y down)."""
    angle = math.radians(120 + 60 * side)
    return (math.cos(angle), math.sin(angle))


def hex_corners(center: Point, radius: float) -> list[Point]:
    cx, cy = center
    return [
        (cx + radius * math.cos(math.radians(-90 + 60 * k)),
         cy + radius * math.sin(math.radians(-90 + 60 * k)))
        for k in range(6)
    ]


def side_mid(center: Point, side: int, radius: float) -> Point:
    dx, dy = side_direction(side)
    d = radius * SQRT3 / 2
    return (center[0] + d * dx, center[1] + d * dy)


def fmt(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _value(v: str | float) -> str:
    return fmt(v) if isinstance(v, float) else str(v)


# The characters that quoteattr and escape replace; most values hold none, and testing for
# them first makes a board's hundred thousand attributes several times cheaper to write (the
# terminal draws the board before each human decision, the web on each change).
_SPECIAL = re.compile(r'[&<>"\n\r\t]')


def escape(text: str) -> str:
    """``xml.sax.saxutils.escape(text)``: &, < and > as entities.  Written out here because
    importing ``xml.sax`` imports ``urllib.request`` and with it ``http``, ``email`` and
    ``ssl``, a tenth of the start of every command that draws a board."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(value: str) -> str:
    """``xml.sax.saxutils.quoteattr(value)``: escaped (line ends and tabs as character
    references too) and quoted, in single quotes when the value holds a double one only."""
    text = escape(value).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"{}"'.format(text.replace('"', "&quot;"))


def _quoted(value: str) -> str:
    """``quoteattr(value)``, the same text."""
    return quoteattr(value) if _SPECIAL.search(value) else f'"{value}"'


def _escaped(text: str) -> str:
    """``escape(text)``, the same text."""
    return escape(text) if _SPECIAL.search(text) else text


def points_attr(points: Iterable[Point]) -> str:
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in points)


@functools.cache
def _attribute_name(keyword: str) -> str:
    """``stroke_width`` -> ``stroke-width``, ``class_`` -> ``class``."""
    return keyword.rstrip("_").replace("_", "-")


class Svg:
    """A growing list of SVG elements."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, tag: str, text: str | None = None, **attrs: str | float) -> None:
        rendered = " ".join(
            f"{_attribute_name(k)}={_quoted(_value(v))}" for k, v in attrs.items()
        )
        if text is None:
            self.parts.append(f"<{tag} {rendered}/>")
        else:
            self.parts.append(f"<{tag} {rendered}>{_escaped(text)}</{tag}>")

    def raw(self, markup: str) -> None:
        self.parts.append(markup)

    def text(
        self,
        at: Point,
        content: str,
        size: float,
        fill: str = INK,
        weight: str = "normal",
        anchor: str = "middle",
        halo: bool = False,
    ) -> None:
        common: dict[str, str | float] = {
            "x": at[0],
            "y": at[1] + size * 0.35,
            "font_size": size,
            "font_family": FONT,
            "font_weight": weight,
            "text_anchor": anchor,
        }
        if halo:
            # A white outline under the text keeps it legible over track and symbols
            # (drawn separately: not every renderer honours paint-order).
            self.add("text", content, fill="white", stroke="white", stroke_width=size / 4,
                     stroke_linejoin="round", **common)
        self.add("text", content, fill=fill, **common)

    def document(self, width: float, height: float, background: str) -> str:
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{fmt(width)}" height="{fmt(height)}" '
            f'viewBox="0 0 {fmt(width)} {fmt(height)}">\n'
            f'<rect x="0" y="0" width="{fmt(width)}" height="{fmt(height)}" fill="{background}"/>\n'
        )
        return head + "\n".join(self.parts) + "\n</svg>\n"



