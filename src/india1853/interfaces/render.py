"""Draw the board and the tiles as SVG, and convert SVG to PNG.

The picture follows the printed board: pointy-top hexes in rows B (north) to V (south), buff
land, the Ganges valley shaded beige, grey margin hexes, terrain symbols with their TABLE 4
costs (broad / metre gauge), towns as dots, cities as circles with their name, the companies
a contract bid may claim for them and their bond value, frontier posts with their value
(rule 4.1.14 / 31.11) and the preprinted large cities with their separate stations (4.2.12 /
31.22).  Tiles show broad gauge as a solid black line and metre gauge as a black and white
dashed line (rule 4.1.5 / 31.3); dual gauge (4.2.8) is drawn as a pair of rails.

Everything here is a pure function of the edition data and what lies on the board; only
:func:`write_picture` and :func:`svg_to_png` touch the file system; PNG comes from resvg (a
self-contained wheel) with the DejaVu fonts bundled in matplotlib.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from india1853.board.hexes import ROWS, neighbour, parse_coord, split
from india1853.board.state import home_station_on
from india1853.board.tiles import map_paths, small_stations
from india1853.data.model import (
    CompanySpec,
    Edition,
    HexSpec,
    PathEnd,
    PathSpec,
    StationSpec,
    Terrain,
    TileSpec,
)
from india1853.errors import InputError

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


def _side_mid(center: Point, side: int, radius: float) -> Point:
    dx, dy = side_direction(side)
    d = radius * SQRT3 / 2
    return (center[0] + d * dx, center[1] + d * dy)


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _value(v: str | float) -> str:
    return _f(v) if isinstance(v, float) else str(v)


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


class _Svg:
    """A growing list of SVG elements."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, tag: str, text: str | None = None, **attrs: str | float) -> None:
        rendered = " ".join(
            f"{k.rstrip('_').replace('_', '-')}={quoteattr(_value(v))}" for k, v in attrs.items()
        )
        if text is None:
            self.parts.append(f"<{tag} {rendered}/>")
        else:
            self.parts.append(f"<{tag} {rendered}>{escape(text)}</{tag}>")

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
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
            f'viewBox="0 0 {_f(width)} {_f(height)}">\n'
            f'<rect x="0" y="0" width="{_f(width)}" height="{_f(height)}" fill="{background}"/>\n'
        )
        return head + "\n".join(self.parts) + "\n</svg>\n"


# --- tiles ---------------------------------------------------------------------------------


def station_positions(tile: TileSpec, rotation: int, center: Point, radius: float) -> dict[
    str, Point
]:
    """Where each station of a tile lies: a lone station in the middle, several stations
    pulled towards the sides their track leads to (halfway to the side on the CD tiles)."""
    if len(tile.stations) == 1:
        return {tile.stations[0].id: center}
    paths = map_paths(tile, rotation)
    out: dict[str, Point] = {}
    for st in tile.stations:
        sides = [
            end
            for p in paths
            for end in (p.a, p.b)
            if isinstance(end, int) and st.id in (p.a, p.b)
        ]
        out[st.id] = _pulled_towards(center, sides, radius)
    return out


def _pulled_towards(center: Point, sides: Sequence[int], radius: float) -> Point:
    if not sides:
        return center
    vx = sum(side_direction(s)[0] for s in sides) / len(sides)
    vy = sum(side_direction(s)[1] for s in sides) / len(sides)
    norm = math.hypot(vx, vy)
    if norm < 0.2:
        # Track straight through the station: slide it along its own line.
        vx, vy = side_direction(sides[0])
        norm = 1.0
    d = 0.42 * radius
    return (center[0] + d * vx / norm, center[1] + d * vy / norm)


def _slot_centres(at: Point, slots: int, r: float) -> list[Point]:
    x, y = at
    if slots <= 1:
        return [at]
    if slots == 2:
        return [(x - r, y), (x + r, y)]
    return [
        (x + 1.15 * r * math.cos(math.radians(-90 + 120 * k)),
         y + 1.15 * r * math.sin(math.radians(-90 + 120 * k)))
        for k in range(slots)
    ]


def _end_point(
    end: PathEnd, center: Point, stations: Mapping[str, Point], radius: float
) -> Point:
    return _side_mid(center, end, radius) if isinstance(end, int) else stations[end]


def _track_d(a: PathEnd, b: PathEnd, center: Point, stations: Mapping[str, Point], r: float) -> str:
    pa = _end_point(a, center, stations, r)
    pb = _end_point(b, center, stations, r)
    if isinstance(a, int) and isinstance(b, int):
        # Side to side: a curve through the middle region, straight when the sides are opposite.
        return f"M{_f(pa[0])},{_f(pa[1])} Q{_f(center[0])},{_f(center[1])} {_f(pb[0])},{_f(pb[1])}"
    return f"M{_f(pa[0])},{_f(pa[1])} L{_f(pb[0])},{_f(pb[1])}"


def draw_track(svg: _Svg, d: str, gauge: str, radius: float) -> None:
    """Broad: solid black; metre: black and white dashes (4.1.5 / 31.3); dual: two rails."""
    w = radius * 0.1
    if gauge == "broad":
        svg.add("path", d=d, stroke=INK, stroke_width=w, fill="none")
    elif gauge == "metre":
        svg.add("path", d=d, stroke=INK, stroke_width=w, fill="none")
        svg.add(
            "path", d=d, stroke="white", stroke_width=w * 0.5, fill="none",
            stroke_dasharray=f"{_f(w * 1.2)},{_f(w * 1.2)}",
        )
    else:
        svg.add("path", d=d, stroke=INK, stroke_width=w * 1.5, fill="none")
        svg.add("path", d=d, stroke="white", stroke_width=w * 0.6, fill="none")


def _value_badge(svg: _Svg, at: Point, value: int, radius: float) -> None:
    svg.add("circle", cx=at[0], cy=at[1], r=radius * 0.15, fill="white", stroke=INK,
            stroke_width=1.2)
    svg.text(at, str(value), radius * 0.16, weight="bold")


def _badge_spot(center: Point, used: Iterable[Point], radius: float) -> Point:
    """A place for the value badge away from the stations and the track."""
    best: Point = center
    best_gap = -1.0
    for k in range(12):
        angle = math.radians(15 + 30 * k)
        spot = (center[0] + 0.62 * radius * math.cos(angle),
                center[1] + 0.62 * radius * math.sin(angle))
        gap = min((math.dist(spot, u) for u in used), default=radius)
        if gap > best_gap + 1e-6:
            best, best_gap = spot, gap
    return best


def draw_tile(
    svg: _Svg,
    tile: TileSpec,
    rotation: int,
    center: Point,
    radius: float,
    tokens: Mapping[str, Sequence[CompanySpec]] | None = None,
    show_number: bool = True,
) -> list[Point]:
    """A tile with its track, stations, values and base slots (filled with ``tokens``).

    Returns the points it drew on (track ends, stations, badges) so that callers can place
    more marks where they do not cover anything."""
    svg.add("polygon", points=_points(hex_corners(center, radius)),
            fill=TILE_COLOURS[tile.colour], stroke=INK, stroke_width=1.5)
    stations = station_positions(tile, rotation, center, radius)
    paths = map_paths(tile, rotation)
    for p in paths:
        draw_track(svg, _track_d(p.a, p.b, center, stations, radius), p.gauge, radius)
    slot_r = radius * (0.2 if len(tile.stations) <= 2 else 0.16)
    used: list[Point] = [
        _end_point(e, center, stations, radius) for p in paths for e in (p.a, p.b)
    ]
    label_at = (center[0] - 0.5 * radius, center[1] + 0.45 * radius)
    if tile.label:
        used.append(label_at)
    for st in tile.stations:
        used += _draw_station(svg, st, stations[st.id], paths, center, radius, slot_r,
                              (tokens or {}).get(st.id, ()))
    values = {st.value for st in tile.stations}
    # The stations of a large city share one value, printed once; towns each show their own.
    if len(values) == 1 and len(tile.stations) > 1 and not small_stations(tile):
        spot = _badge_spot(center, used, radius)
        used.append(spot)
        _value_badge(svg, spot, values.pop(), radius)
    else:
        for st in tile.stations:
            spot = _badge_spot(stations[st.id], used, radius * 0.75)
            used.append(spot)
            _value_badge(svg, spot, st.value, radius)
    if tile.label:
        svg.text(label_at, tile.label, radius * 0.2, weight="bold")
    if show_number and not tile.preprinted:
        number_at = (center[0] + 0.46 * radius, center[1] + 0.52 * radius)
        used.append(number_at)
        svg.text(number_at, tile.id, radius * 0.14)
    return used


def track_samples(tile: TileSpec, rotation: int, center: Point, radius: float) -> list[Point]:
    """Points every tenth of the way along each track of a laid tile, so that marks placed
    later can keep off the track."""
    stations = station_positions(tile, rotation, center, radius)
    out: list[Point] = []
    paths = map_paths(tile, rotation)
    for p in paths:
        a = _end_point(p.a, center, stations, radius)
        b = _end_point(p.b, center, stations, radius)
        # Side to side the track is a quadratic curve through the centre (see _track_d).
        via = center if isinstance(p.a, int) and isinstance(p.b, int) else (
            (a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        for k in range(11):
            t, u = k / 10, 1 - k / 10
            out.append((u * u * a[0] + 2 * u * t * via[0] + t * t * b[0],
                        u * u * a[1] + 2 * u * t * via[1] + t * t * b[1]))
    return out


def _draw_station(
    svg: _Svg,
    st: StationSpec,
    at: Point,
    paths: Sequence[PathSpec],
    center: Point,
    radius: float,
    slot_r: float,
    tokens: Sequence[CompanySpec],
) -> list[Point]:
    if st.kind == "small":
        _draw_town_bar(svg, st, at, paths, radius)
        return [at]
    centres = _slot_centres(at, max(st.slots, 1), slot_r)
    if len(centres) > 1:
        hull = " ".join(f"{_f(x)},{_f(y)}" for x, y in centres)
        svg.add("polyline", points=hull, stroke=INK, stroke_width=slot_r * 2 + 3,
                stroke_linejoin="round", stroke_linecap="round", fill="none")
        svg.add("polyline", points=hull, stroke="white", stroke_width=slot_r * 2,
                stroke_linejoin="round", stroke_linecap="round", fill="none")
    for i, c in enumerate(centres):
        svg.add("circle", cx=c[0], cy=c[1], r=slot_r, fill="white", stroke=INK,
                stroke_width=1.5)
        if i < len(tokens):
            draw_token(svg, c, slot_r * 0.92, tokens[i])
    # More tokens than slots (a game state the caller vouches for): shown beside the station
    # rather than hidden, so the picture never conceals a base.
    for j, extra in enumerate(tokens[len(centres):], start=1):
        at = (centres[-1][0] + slot_r * 1.2 * j, centres[-1][1] - slot_r * 1.2)
        draw_token(svg, at, slot_r * 0.8, extra)
    return centres


def _draw_town_bar(
    svg: _Svg, st: StationSpec, at: Point, paths: Sequence[PathSpec], radius: float
) -> None:
    """A small station: a cross-bar over its track (rule 4.1.9 / 31.7)."""
    direction: Point = (1.0, 0.0)
    for p in paths:
        side = p.b if p.a == st.id else p.a if p.b == st.id else None
        if isinstance(side, int):
            direction = side_direction(side)
            break
    px, py = -direction[1], direction[0]
    half = radius * 0.2
    svg.add("line", x1=at[0] - px * half, y1=at[1] - py * half, x2=at[0] + px * half,
            y2=at[1] + py * half, stroke=INK, stroke_width=radius * 0.13)


def draw_token(svg: _Svg, at: Point, r: float, company: CompanySpec) -> None:
    """A base token in the company's colours with its initials."""
    svg.add("circle", cx=at[0], cy=at[1], r=r, fill=company.colour, stroke=INK,
            stroke_width=1.2)
    size = r * (0.9 if len(company.initials) <= 3 else 0.72)
    svg.text(at, company.initials, size, fill=company.text_colour, weight="bold")


# --- the printed board ---------------------------------------------------------------------


def _terrain_symbol(svg: _Svg, terrain: Terrain, at: Point, r: float) -> None:
    x, y = at
    if terrain in ("river", "multiple_river"):
        lines = 1 if terrain == "river" else 2
        for i in range(lines):
            oy = y + (i - (lines - 1) / 2) * r * 0.16
            d = (f"M{_f(x - r * 0.3)},{_f(oy)} q{_f(r * 0.075)},{_f(-r * 0.1)} {_f(r * 0.15)},0 "
                 f"t{_f(r * 0.15)},0 t{_f(r * 0.15)},0 t{_f(r * 0.15)},0")
            svg.add("path", d=d, stroke=RIVER, stroke_width=r * 0.05, fill="none")
        return
    size = {"hill": 0.2, "mountain": 0.3, "himalaya": 0.3}[terrain]
    peaks = [(x, y)] if terrain != "himalaya" else [(x - r * 0.12, y), (x + r * 0.12, y)]
    fill = {"hill": "#c9a46a", "mountain": "#8a6642", "himalaya": "#6e5236"}[terrain]
    for px, py in peaks:
        tri = [(px, py - size * r * 0.85), (px + size * r * 0.6, py + size * r * 0.4),
               (px - size * r * 0.6, py + size * r * 0.4)]
        svg.add("polygon", points=_points(tri), fill=fill, stroke=INK, stroke_width=1.2)
        if terrain == "himalaya":
            cap = [tri[0], (px + size * r * 0.22, py - size * r * 0.35),
                   (px - size * r * 0.22, py - size * r * 0.35)]
            svg.add("polygon", points=_points(cap), fill="white", stroke="none")


def cost_text(ed: Edition, terrain: Terrain) -> str:
    """TABLE 4 cost as printed beside a symbol: broad / metre gauge."""
    cost = ed.costs.terrain[terrain]
    return f"£{cost.broad}/{cost.metre}"


def _draw_terrain(
    svg: _Svg, ed: Edition, terrains: Sequence[Terrain], at: Point, r: float, text: float
) -> None:
    """Terrain symbols side by side, each with its TABLE 4 cost below it."""
    n = len(terrains)
    for i, terrain in enumerate(terrains):
        x = at[0] + (i - (n - 1) / 2) * r * 0.62
        _terrain_symbol(svg, terrain, (x, at[1]), r)
        svg.text((x, at[1] + r * 0.27), cost_text(ed, terrain), text, halo=True)


def _draw_printed_hex(svg: _Svg, spec: HexSpec, layout: Layout) -> None:
    """The printed hex: buff land, Ganges valley beige, pale grey land or grey margin."""
    c = layout.center(spec.coord)
    r = layout.radius
    fill = (MARGIN_GREY if not spec.playable else GANGES if spec.ganges_valley
            else PALE_GREY if spec.pale_grey else LAND)
    svg.add("polygon", points=_points(hex_corners(c, r)), fill=fill, stroke="#6b6b6b",
            stroke_width=1.2)


def _draw_printed_features(svg: _Svg, ed: Edition, spec: HexSpec, layout: Layout) -> None:
    """Towns (dots), cities (circles) and terrain as printed on a hex without a tile."""
    x, y = layout.center(spec.coord)
    r = layout.radius
    text = r * 0.15
    many = len(spec.terrain) > 1
    if spec.kind == "town":
        dot = (x, y - 0.5 * r) if many else (x + 0.25 * r, y - 0.1 * r) if spec.terrain else (x, y)
        svg.add("circle", cx=dot[0], cy=dot[1], r=r * 0.1, fill=INK)
        at = (x, y - 0.05 * r) if many else (x - 0.22 * r, y - 0.1 * r)
    elif spec.kind == "double_town":
        for dx in (-0.22, 0.22):
            svg.add("circle", cx=x + dx * r, cy=y - 0.18 * r, r=r * 0.09, fill=INK)
        at = (x, y + 0.15 * r)
    elif spec.kind == "city":
        svg.add("circle", cx=x, cy=y, r=r * 0.25, fill="white", stroke=INK, stroke_width=1.8)
        at = (x - 0.5 * r, y - 0.08 * r)
    else:
        at = (x, y - 0.1 * r)
    if spec.terrain:
        scale = r * (0.7 if spec.kind == "city" else 1.0)
        _draw_terrain(svg, ed, spec.terrain, at, scale, text * (0.85 if spec.kind == "city" else 1))


def _draw_covered_terrain(
    svg: _Svg, ed: Edition, spec: HexSpec, layout: Layout, used: list[Point]
) -> None:
    """Terrain of a hex under a tile (the preprinted Calcutta): its cost still applies to the
    first promotion (rule 4.2.13).  Adds the spot it drew on to ``used``."""
    if not spec.terrain:
        return
    center = layout.center(spec.coord)
    spot = _badge_spot(center, used, layout.radius * 0.85)
    used.append(spot)
    _draw_terrain(svg, ed, spec.terrain, spot, layout.radius * 0.6, layout.radius * 0.13)


def _draw_city_notes(
    svg: _Svg, ed: Edition, spec: HexSpec, layout: Layout, covered: Covered | None
) -> None:
    """Names, company numbers and bond values of cities (2.5.5, 2.5.9 / 14.2, 14.4); frontier
    post values (4.1.14 / 31.11).

    Every city shows its numbers and bond value whatever lies on it: a contract bid needs
    them all game long.  On a hex covered by a tile (``covered``: what the tile drew) they go
    into a small white box in the tile's emptiest place."""
    x, y = layout.center(spec.coord)
    r = layout.radius
    city = next((c for c in ed.cities if c.hex == spec.coord), None)
    name = city.name if city else spec.name
    if name:
        svg.text((x, y - (0.72 if covered is not None else 0.52) * r), name, r * 0.19,
                 fill=CITY_NAME, weight="bold", halo=True)
    if city and covered is None:
        svg.text((x, y + 0.43 * r), city_numbers(city.companies), r * 0.17, weight="bold",
                 halo=True)
        svg.text((x + 0.5 * r, y + 0.18 * r), f"£{city.bond_value}", r * 0.14,
                 fill=BOND_INK, halo=True)
    elif city and covered is not None:
        _city_note_box(svg, city.companies, city.bond_value, (x, y), r, covered)
    if spec.frontier_post is not None:
        at = (x + 0.55 * r, y - 0.25 * r) if spec.kind in ("city", "large_city") else (
            x, y - 0.62 * r)
        svg.add("rect", x=at[0] - 0.22 * r, y=at[1] - 0.11 * r, width=0.44 * r, height=0.22 * r,
                rx=0.1 * r, fill="#fff6c8", stroke="#8a1c1c", stroke_width=1.2)
        svg.text(at, f"({spec.frontier_post})", r * 0.15, fill="#8a1c1c", weight="bold")


def city_numbers(companies: Sequence[int]) -> str:
    """The company numbers printed beside a city, e.g. ``1 2 3 5``."""
    return " ".join(str(n) for n in companies)


@dataclass(frozen=True)
class Covered:
    """What a tile drew on a hex: its marks (stations, tokens, badges, labels: about
    MARK_RADIUS across) and points along its track."""

    marks: Sequence[Point]
    track: Sequence[Point]


MARK_RADIUS = 0.2  # of the hex radius: a base slot, a value badge, a home ring
TRACK_RADIUS = 0.06


# Text sizes of a covered city's note, in hex radii: the largest that finds a free place.
NOTE_SIZES = (0.15, 0.14, 0.13)


def _city_note_box(
    svg: _Svg, companies: Sequence[int], bond: int, center: Point, r: float, covered: Covered
) -> None:
    """The numbers and bond value of a city under a tile, in a white box: in a free place
    inside the hex between the name and the hex label (the one that keeps farthest from the
    tile's marks and track, in the largest of NOTE_SIZES that has one), else small and just
    under the name, where it hides least."""
    numbers, value = city_numbers(companies), f"£{bond}"

    def box(size: float) -> tuple[float, float, float, float]:
        # DejaVu Sans digits are about 0.64 em wide; the box is sized to fit both texts.
        numbers_w, value_w, gap = 0.64 * size * len(numbers), 0.64 * size * len(value), 0.35 * size
        return numbers_w, gap, numbers_w + gap + value_w + 0.5 * size, 1.4 * size

    def clearance(spot: Point, width: float, height: float) -> float:
        def gap_to(points: Sequence[Point]) -> float:
            left, top = spot[0] - width / 2, spot[1] - height / 2
            return min((math.hypot(max(left - u[0], 0.0, u[0] - left - width),
                                   max(top - u[1], 0.0, u[1] - top - height)) for u in points),
                       default=r)

        return min(gap_to(covered.marks) - MARK_RADIUS * r,
                   gap_to(covered.track) - TRACK_RADIUS * r)

    for factor in NOTE_SIZES:
        size = factor * r
        numbers_w, gap, width, height = box(size)
        spots = _note_spots(center, r, width, height)
        at = max(spots, key=lambda p: clearance(p, width, height))
        if clearance(at, width, height) >= 0:
            break
    else:
        at = (center[0], center[1] - 0.5 * r)
    left = at[0] - width / 2
    svg.add("rect", x=left, y=at[1] - height / 2, width=width, height=height, rx=0.3 * size,
            fill="white", fill_opacity=0.92, stroke=INK, stroke_width=0.8)
    svg.text((left + 0.25 * size, at[1]), numbers, size, weight="bold", anchor="start")
    svg.text((left + 0.25 * size + numbers_w + gap, at[1]), value, size, fill=BOND_INK,
             anchor="start")


def _note_spots(center: Point, r: float, width: float, height: float) -> list[Point]:
    """Centres for a ``width`` x ``height`` box that keep it inside the hex, below the name
    (0.72 r above the centre) and above the hex label (0.72 r below), nearest the upper
    right first (the order breaks ties)."""
    spots: list[Point] = []
    for j in range(23):
        dy = (-0.55 + 0.05 * j) * r
        # The box's edge farthest from the centre, and half the hex's width there (pointy
        # top: the hex narrows above r/2).
        edge = abs(dy) + height / 2
        if edge > 0.62 * r:
            continue
        half = SQRT3 / 2 * r if edge <= r / 2 else SQRT3 * (r - edge)
        for i in range(21):
            dx = (0.5 - 0.05 * i) * r
            if abs(dx) + width / 2 <= half - 0.04 * r:
                spots.append((center[0] + dx, center[1] + dy))
    return spots or [center]


def _draw_hex_label(svg: _Svg, spec: HexSpec, layout: Layout) -> None:
    x, y = layout.center(spec.coord)
    r = layout.radius
    svg.text((x, y + 0.72 * r), spec.coord, r * 0.15, fill=HEX_LABEL, weight="bold", halo=True)


def land_beyond(ed: Edition, columns: int) -> list[tuple[int, int]]:
    """The hex positions (row index, column; row -1 is the strip above row B) off the board
    that are land: north of the board in every column, and beside it west (rows B-I, north of
    Karachi's coast) and east (rows B-J, north of the Bay of Bengal).  South of those rows the
    board meets the sea (the Arabian Sea, the Bay of Bengal), which stays blue."""
    on_board: dict[int, list[int]] = {}
    by_row: dict[int, list[int]] = {}
    for coord in ed.board.hexes:
        row, col = split(coord)
        on_board.setdefault(col, []).append(ROWS.index(row))
        by_row.setdefault(ROWS.index(row), []).append(col)
    west_last, east_last = ROWS.index("I"), ROWS.index("J")
    out = []
    for ri in range(-1, len(ROWS)):
        for col in range(0, columns + 2):
            if (ri + col) % 2 or (ri >= 0 and col in on_board and ri in on_board[col]):
                continue
            north = col in on_board and ri < min(on_board[col])
            cols = by_row.get(ri, [])
            west = bool(cols) and ri <= west_last and col < min(cols)
            east = bool(cols) and ri <= east_last and col > max(cols)
            if north or west or east or (ri == -1 and col > max(on_board)):
                out.append((ri, col))
    return out


def _draw_land_beyond(svg: _Svg, ed: Edition, layout: Layout) -> None:
    r = layout.radius
    for ri, col in land_beyond(ed, layout.columns):
        centre = (layout.margin + col * layout.half_width, layout.margin + r + ri * 1.5 * r)
        svg.add("polygon", points=_points(hex_corners(centre, r)), fill=LAND_BEYOND,
                stroke=LAND_BEYOND, stroke_width=1.5)


def _draw_frame(svg: _Svg, layout: Layout) -> None:
    size = layout.radius * 0.2
    for col in range(1, layout.columns + 1):
        x = layout.margin + col * layout.half_width
        svg.text((x, layout.margin * 0.45), str(col), size, fill="#555555")
        svg.text((x, layout.height - layout.margin * 0.45), str(col), size, fill="#555555")
    for row in ROWS:
        y = layout.margin + layout.radius + ROWS.index(row) * 1.5 * layout.radius
        svg.text((layout.margin * 0.4, y), row, size, fill="#555555", weight="bold")
        svg.text((layout.width - layout.margin * 0.4, y), row, size, fill="#555555",
                 weight="bold")


def _draw_legend(svg: _Svg, ed: Edition, layout: Layout) -> None:
    """Key in the empty south-west corner: terrain costs, gauges, places."""
    r = layout.radius
    x0 = layout.margin + 0.6 * layout.half_width
    y0 = layout.margin + layout.radius + ROWS.index("P") * 1.5 * r
    width, line = 6.6 * layout.half_width, 0.42 * r
    box_at = len(svg.parts)
    edition = {"first": "first edition (1989)", "second": "second edition (2009)"}[ed.name]
    svg.text((x0, y0 - 0.25 * r), f"1853 India — {edition}", r * 0.24, weight="bold",
             anchor="start")
    y = y0 + 0.35 * r
    svg.text((x0, y), "Terrain: cost broad / metre gauge (TABLE 4)", r * 0.17, anchor="start",
             weight="bold")
    for terrain in ed.costs.terrain:
        y += line
        _terrain_symbol(svg, terrain, (x0 + 0.3 * r, y), r * 0.9)
        svg.text((x0 + 0.8 * r, y), f"{TERRAIN_NAMES[terrain]}  {cost_text(ed, terrain)}",
                 r * 0.17, anchor="start")
    for gauge, name in (("broad", "broad gauge"), ("metre", "metre gauge"), ("dual", "dual gauge")):
        y += line
        draw_track(svg, f"M{_f(x0)},{_f(y)} L{_f(x0 + 0.6 * r)},{_f(y)}", gauge, r)
        svg.text((x0 + 0.8 * r, y), name, r * 0.17, anchor="start")
    y += line
    svg.add("circle", cx=x0 + 0.3 * r, cy=y, r=r * 0.08, fill=INK)
    svg.text((x0 + 0.8 * r, y), "town", r * 0.17, anchor="start")
    y += line
    svg.add("circle", cx=x0 + 0.3 * r, cy=y, r=r * 0.15, fill="white", stroke=INK)
    svg.text((x0 + 0.8 * r, y), "city: bid companies below, bond value right", r * 0.17,
             anchor="start")
    y += line
    svg.add("rect", x=x0 + 0.1 * r, y=y - 0.12 * r, width=0.4 * r, height=0.24 * r, fill=GANGES,
            stroke=INK)
    svg.text((x0 + 0.8 * r, y), "Ganges valley", r * 0.17, anchor="start")
    y += line
    svg.text((x0 + 0.3 * r, y), "(40)", r * 0.15, fill="#8a1c1c", weight="bold")
    svg.text((x0 + 0.8 * r, y), "frontier post value", r * 0.17, anchor="start")
    y += line
    svg.add("rect", x=x0 + 0.1 * r, y=y - 0.12 * r, width=0.4 * r, height=0.24 * r,
            fill=MARGIN_GREY, stroke=INK)
    svg.text((x0 + 0.8 * r, y), "grey margin (no track)", r * 0.17, anchor="start")
    box = _Svg()
    box.add("rect", x=x0 - 0.2 * r, y=y0 - 0.6 * r, width=width, height=y - y0 + 0.6 * r + line,
            fill="white", stroke=INK, stroke_width=1.5, rx=8)
    svg.parts[box_at:box_at] = box.parts


# --- validation ----------------------------------------------------------------------------


def _board_hex(ed: Edition, text: str, field: str) -> str:
    coord = parse_coord(text)
    if coord not in ed.board.hexes:
        raise InputError(f"{field}: hex {coord} is not on the {ed.name} edition board")
    return coord


def _placed_tiles(
    ed: Edition, tiles: Mapping[str, tuple[str, int]] | None
) -> dict[str, tuple[TileSpec, int]]:
    placed: dict[str, tuple[TileSpec, int]] = {
        spec.coord: (ed.tiles[spec.preprinted], spec.preprinted_rotation)
        for spec in ed.board.hexes.values()
        if spec.preprinted is not None
    }
    for text, (tile_id, rotation) in (tiles or {}).items():
        coord = _board_hex(ed, text, "tiles")
        if tile_id not in ed.tiles:
            raise InputError(f"tiles: unknown tile {tile_id!r} on {coord} in the {ed.name} edition")
        if not isinstance(rotation, int) or rotation not in range(6):
            raise InputError(f"tiles: bad rotation {rotation!r} on {coord}: expected 0..5")
        placed[coord] = (ed.tiles[tile_id], rotation)
    return placed


def _tokens(
    ed: Edition,
    placed: Mapping[str, tuple[TileSpec, int]],
    bases: Iterable[tuple[str, str, str | None]],
    check_slots: bool = True,
) -> dict[str, dict[str | None, list[CompanySpec]]]:
    """Base tokens by hex and station; a token never disappears silently (a hex without a
    large station or an unnamed station among several is an error, and so are more tokens than
    slots unless ``check_slots`` is off)."""
    out: dict[str, dict[str | None, list[CompanySpec]]] = {}
    for initials, text, station in bases:
        company = ed.company(initials)
        coord = _board_hex(ed, text, "bases")
        tile = placed.get(coord)
        station, slots = (_printed_city_slot(ed, coord, station) if tile is None
                          else _tile_station_slots(tile[0], coord, station))
        here = out.setdefault(coord, {}).setdefault(station, [])
        if check_slots and len(here) >= slots:
            where = coord if station is None else f"{coord}/{station}"
            raise InputError(f"bases: no free slot for {company.initials} on {where} "
                             f"({slots} slot{'s' if slots != 1 else ''})")
        here.append(company)
    return out


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


# --- routes --------------------------------------------------------------------------------


def _node_point(
    node: RouteNode,
    placed: Mapping[str, tuple[TileSpec, int]],
    layout: Layout,
    ed: Edition,
) -> Point:
    if len(node) != 3 or node[0] not in ("S", "E"):
        raise InputError(f"highlight_routes: bad node {node!r}: expected ('S', hex, station) "
                         "or ('E', hex, side)")
    coord = _board_hex(ed, str(node[1]), "highlight_routes")
    center = layout.center(coord)
    if node[0] == "E":
        side = node[2]
        if not isinstance(side, int) or side not in range(6):
            raise InputError(f"highlight_routes: bad side {side!r} in {node!r}")
        return _side_mid(center, side, layout.radius)
    tile = placed.get(coord)
    if tile is None:
        return center
    positions = station_positions(tile[0], tile[1], center, layout.radius)
    if node[2] not in positions:
        raise InputError(f"highlight_routes: no station {node[2]!r} on {coord}")
    return positions[node[2]]


def _draw_routes(
    svg: _Svg,
    routes: Sequence[Sequence[RouteNode]],
    placed: Mapping[str, tuple[TileSpec, int]],
    layout: Layout,
    ed: Edition,
) -> None:
    """Each route as one coloured line along its track (the curve of each tile crossed), with
    a dot on every station it visits."""
    for i, route in enumerate(routes):
        points = [_node_point(node, placed, layout, ed) for node in route]
        colour = ROUTE_COLOURS[i % len(ROUTE_COLOURS)]
        if len(points) >= 2:
            d = " ".join(_route_segment(a, b, pa, pb, placed, layout)
                         for a, b, pa, pb in zip(route, route[1:], points, points[1:],
                                                 strict=False))
            svg.add("path", d=d, stroke=colour, stroke_width=layout.radius * 0.09, fill="none",
                    stroke_opacity=0.8, stroke_linejoin="round", stroke_linecap="round")
        for node, p in zip(route, points, strict=True):
            if node[0] == "S":
                svg.add("circle", cx=p[0], cy=p[1], r=layout.radius * 0.09, fill=colour,
                        stroke="white", stroke_width=1.5)


def _local_ends(node: RouteNode) -> dict[str, PathEnd]:
    """The hexes a track-graph node belongs to, with its end on each: a station on its own
    hex, a tile edge on both hexes that share it."""
    kind, hex_, end = node
    if kind == "S" or not isinstance(end, int):
        return {str(hex_): str(end)}
    out: dict[str, PathEnd] = {str(hex_): end}
    other = neighbour(str(hex_), end)
    if other is not None:
        out[other] = (end + 3) % 6
    return out


def _route_segment(a: RouteNode, b: RouteNode, pa: Point, pb: Point,
                   placed: Mapping[str, tuple[TileSpec, int]], layout: Layout) -> str:
    """The step between two consecutive nodes, drawn like the track piece it runs on."""
    ends_a, ends_b = _local_ends(a), _local_ends(b)
    for hex_ in ends_a.keys() & ends_b.keys():
        tile = placed.get(hex_)
        if tile is None:
            continue
        center = layout.center(hex_)
        stations = station_positions(tile[0], tile[1], center, layout.radius)
        end_a, end_b = ends_a[hex_], ends_b[hex_]
        if all(isinstance(e, int) or e in stations for e in (end_a, end_b)):
            return _track_d(end_a, end_b, center, stations, layout.radius)
    return f"M{_f(pa[0])},{_f(pa[1])} L{_f(pb[0])},{_f(pb[1])}"


# --- public entry points -------------------------------------------------------------------


def render_board_svg(
    edition: Edition,
    tiles: Mapping[str, tuple[str, int]] | None = None,
    bases: Iterable[tuple[str, str, str | None]] = (),
    highlight_routes: Sequence[Sequence[RouteNode]] = (),
    layout: Layout | None = None,
    check_slots: bool = True,
    variants: Collection[str] = (),
) -> str:
    """The board of ``edition`` as an SVG document.

    ``tiles`` maps a hex to (tile id, rotation) laid on top of the printed board (the
    preprinted large cities are drawn unless replaced); ``bases`` are (company initials, hex,
    station id) drawn as tokens in company colours, station None meaning the printed city
    circle; ``highlight_routes`` are sequences of track-graph nodes (("S", hex, station) or
    ("E", hex, side)), each drawn as a coloured line.  Bad input raises InputError;
    ``check_slots=False`` draws tokens beyond a station's slots beside it instead (for a game's
    state, which the engine vouches for).  ``variants`` are the optional rules in play: a home
    that only an optional rule creates (the first edition's Alternative Rules 3.0 BBCI home)
    is drawn only when its variant is named.
    """
    ed = edition
    lay = layout or Layout(columns=max(split(c)[1] for c in ed.board.hexes))
    placed = _placed_tiles(ed, tiles)
    tokens = _tokens(ed, placed, bases, check_slots)
    svg = _Svg()
    _draw_land_beyond(svg, ed, lay)
    _draw_frame(svg, lay)
    hexes = sorted(ed.board.hexes.values(), key=lambda h: (ROWS.index(h.coord[0]),
                                                           int(h.coord[1:])))
    for spec in hexes:
        _draw_printed_hex(svg, spec, lay)
    covered: dict[str, Covered] = {}
    for spec in hexes:
        if spec.coord in placed:
            tile, rotation = placed[spec.coord]
            here = {k: v for k, v in tokens.get(spec.coord, {}).items() if k is not None}
            center = lay.center(spec.coord)
            used = draw_tile(svg, tile, rotation, center, lay.radius, here)
            if tile.preprinted:
                _draw_covered_terrain(svg, ed, spec, lay, used)
            covered[spec.coord] = Covered(
                marks=used, track=track_samples(tile, rotation, center, lay.radius))
        elif spec.playable:
            _draw_printed_features(svg, ed, spec, lay)
            loose = tokens.get(spec.coord, {}).get(None, [])
            cx, cy = lay.center(spec.coord)
            for j, company in enumerate(loose):
                draw_token(svg, (cx + j * lay.radius * 0.3, cy - j * lay.radius * 0.3),
                           lay.radius * (0.23 if j == 0 else 0.18), company)
    _draw_homes(svg, ed, placed, tokens, lay, variants)
    for spec in hexes:
        _draw_city_notes(svg, ed, spec, lay, covered.get(spec.coord))
        _draw_hex_label(svg, spec, lay)
    _draw_legend(svg, ed, lay)
    _draw_routes(svg, highlight_routes, placed, lay, ed)
    _draw_hex_targets(svg, hexes, lay)
    return svg.document(lay.width, lay.height, SEA)


def hex_title(spec: HexSpec) -> str:
    """The words a screen reader says for a hex: its coordinate, name and terrain."""
    words = [spec.coord]
    if spec.name:
        words.append(spec.name)
    words.extend(TERRAIN_NAMES[t] for t in spec.terrain)
    if not spec.playable:
        words.append("off-board")
    return ", ".join(words)


def _draw_hex_targets(svg: _Svg, hexes: Iterable[HexSpec], layout: Layout) -> None:
    """An invisible outline over every hex, drawn last, named by ``data-hex`` and titled in
    words: the web page finds the hex under a click or a tap there and highlights the hexes
    a decision offers; screen readers read the titles.  Nothing shows in a picture."""
    svg.raw('<g class="hex-targets">')
    for spec in hexes:
        points = _points(hex_corners(layout.center(spec.coord), layout.radius))
        svg.raw(f'<polygon class="hex-target" data-hex={quoteattr(spec.coord)} '
                f'points="{points}" fill="#000000" fill-opacity="0">'
                f'<title>{escape(hex_title(spec))}</title></polygon>')
    svg.raw("</g>")


def _draw_homes(
    svg: _Svg,
    ed: Edition,
    placed: Mapping[str, tuple[TileSpec, int]],
    tokens: Mapping[str, Mapping[str | None, Sequence[CompanySpec]]],
    layout: Layout,
    variants: Collection[str],
) -> None:
    """Home bases (TABLE 1) printed on the board: the company's number in a ring of its colour,
    until its base token is laid there (dashed for a conditional home such as rule 2.6.2's).
    A home that exists only under an optional rule not in ``variants`` is not on the board."""
    for company in ed.companies:
        for home in company.homes:
            if home.variant is not None and home.variant not in variants:
                continue
            center = layout.center(home.hex)
            tile = placed.get(home.hex)
            station = None if tile is None else home_station_on(ed, home, *tile)
            if tile is not None and station is None:
                continue  # the picture cannot tell where the home is on this tile
            here = tokens.get(home.hex, {}).get(station, ())
            if company in here or len(here) >= _slots(tile, station):
                continue
            at = center if tile is None or station is None else station_positions(
                tile[0], tile[1], center, layout.radius)[station]
            r = layout.radius * (0.13 if tile else 0.17)
            dash = "4,3" if home.condition else "none"
            svg.add("circle", cx=at[0], cy=at[1], r=r, fill="white", stroke=company.colour,
                    stroke_width=3, stroke_dasharray=dash)
            svg.text(at, str(company.number), r * 1.1, fill=INK, weight="bold")


def _slots(tile: tuple[TileSpec, int] | None, station: str | None) -> int:
    if tile is None or station is None:
        return 1
    return next(st.slots for st in tile[0].stations if st.id == station)


def render_tiles_svg(
    edition: Edition, only: Sequence[str] | None = None, columns: int = 10
) -> str:
    """Every tile of the edition's manifest with its number and count, then the preprinted
    large cities, grouped by colour; ``only`` restricts the picture to the tiles named."""
    ed = edition
    for tile_id in only or ():
        if tile_id not in ed.tiles:
            raise InputError(f"unknown tile {tile_id!r} in the {ed.name} edition")
    radius = 62.0
    cell_w, cell_h = radius * 2.1, radius * 2.6
    svg = _Svg()
    order = sorted(ed.manifest, key=lambda t: (("yellow", "green", "brown", "grey").index(
        ed.tiles[t].colour), int(t) if t.isdigit() else 10**6, t))
    preprinted = sorted(t for t, spec in ed.tiles.items() if spec.preprinted)
    entries: list[tuple[str, str]] = [(t, f"#{t}  ×{ed.manifest[t]}") for t in order]
    entries += [(t, f"{t}*") for t in preprinted]
    if only is not None:
        entries = [e for e in entries if e[0] in set(only)]
    rows = (len(entries) + columns - 1) // columns
    top = 70.0
    title = {"first": "first edition (1989)", "second": "second edition (2009)"}[ed.name]
    svg.text((20, 30), f"1853 India — tiles of the {title}: number and count",
             22, weight="bold", anchor="start")
    for i, (tile_id, caption) in enumerate(entries):
        col, row = i % columns, i // columns
        center = (20 + cell_w * (col + 0.5), top + cell_h * row + radius)
        draw_tile(svg, ed.tiles[tile_id], 0, center, radius, show_number=False)
        svg.text((center[0], center[1] + radius + 18), caption, 16, weight="bold")
    width = 40 + cell_w * columns
    height = top + cell_h * rows + 20
    if preprinted and entries and entries[-1][0] in preprinted:
        svg.text((20, height - 10), "* printed on the board (rule 4.2.12 / 31.22)", 16,
                 anchor="start")
        height += 10
    return svg.document(width, height, "white")


# The fonts the PNG is drawn with: the DejaVu faces that ship inside matplotlib (a dependency),
# never the system's, so that the picture is the same on every machine.
PNG_FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


def png_font_files() -> list[str]:
    """Paths of the DejaVu Sans faces inside matplotlib's data; InputError if missing."""
    try:
        import matplotlib
    except ImportError:
        raise InputError("PNG output needs matplotlib's DejaVu fonts (pip install matplotlib); "
                         "write .svg instead") from None
    folder = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    files = [folder / name for name in PNG_FONT_FILES]
    missing = [f.name for f in files if not f.is_file()]
    if missing:
        raise InputError(f"PNG output: font {missing[0]} not found in {str(folder)!r}; "
                         "write .svg instead")
    return [str(f) for f in files]


def svg_to_png_bytes(svg: str) -> bytes:
    """Rasterise ``svg`` with resvg (a self-contained wheel: no system library) using only the
    bundled DejaVu fonts; a missing or failing rasteriser raises a one-line InputError."""
    try:
        import resvg_py
    except ImportError:
        raise InputError("PNG output needs the resvg-py package (pip install resvg-py); "
                         "write .svg instead") from None
    fonts = png_font_files()
    try:
        return resvg_py.svg_to_bytes(
            svg_string=svg, font_files=fonts, skip_system_fonts=True,
            font_family=FONT_FAMILY, sans_serif_family=FONT_FAMILY,
        )
    except Exception as exc:  # the binding reports any failure as some exception
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise InputError(f"PNG output: the rasteriser failed: {first}") from None


def svg_to_png(svg: str, path: str | Path) -> None:
    """Rasterise ``svg`` (:func:`svg_to_png_bytes`) and write it to ``path``; an unwritable
    path raises InputError."""
    target = Path(path)
    png = svg_to_png_bytes(svg)
    try:
        target.write_bytes(png)
    except OSError as exc:
        raise InputError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None


def write_picture(svg: str, path: str | Path) -> Path:
    """Write ``svg`` to ``path`` as SVG or PNG according to its suffix; return the path.

    A missing parent directory is created (``make run`` and ``--out out/board.png`` in a fresh
    checkout); a path that cannot be written raises a one-line InputError."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise InputError(f"--out {str(target)!r}: expected a file name ending in .svg or .png")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise InputError(f"cannot write {str(target)!r}: {str(target.parent)!r} is not a "
                         "directory") from None
    except OSError as exc:
        raise InputError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
    try:
        if suffix == ".svg":
            target.write_text(svg, encoding="utf-8")
        else:
            svg_to_png(svg, target)
    except OSError as exc:
        raise InputError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
    return target
