"""The board of a game as SVG, from a :class:`~india1853.board.state.BoardState`.

The printed board (terrain with its TABLE 4 costs, towns, cities with their name, the
companies a contract bid may claim for them and their bond value, frontier posts, the
Ganges valley, the grey margin, the land beyond), then the tiles and base tokens the state
holds, the home rings (TABLE 1) and any routes to highlight.  The state is drawn as it is:
it vouches for its tiles and bases (tokens beyond a station's slots are drawn beside it).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from india1853.board.hexes import ROWS, split
from india1853.board.state import BoardState, home_station_on
from india1853.data.model import (
    CompanySpec,
    Edition,
    HexSpec,
    Terrain,
    TileSpec,
)
from india1853.interfaces.render.routes import draw_routes
from india1853.interfaces.render.svg import (
    BOND_INK,
    CITY_NAME,
    GANGES,
    HEX_LABEL,
    INK,
    LAND,
    LAND_BEYOND,
    MARGIN_GREY,
    PALE_GREY,
    RIVER,
    SEA,
    SQRT3,
    TERRAIN_NAMES,
    Layout,
    Point,
    RouteNode,
    Svg,
    escape,
    fmt,
    hex_corners,
    points_attr,
    quoteattr,
)
from india1853.interfaces.render.tiles import (
    badge_spot,
    draw_tile,
    draw_token,
    draw_track,
    station_positions,
    track_samples,
)

# --- the printed board ---------------------------------------------------------------------


def _terrain_symbol(svg: Svg, terrain: Terrain, at: Point, r: float) -> None:
    x, y = at
    if terrain in ("river", "multiple_river"):
        lines = 1 if terrain == "river" else 2
        for i in range(lines):
            oy = y + (i - (lines - 1) / 2) * r * 0.16
            d = (f"M{fmt(x - r * 0.3)},{fmt(oy)} q{fmt(r * 0.075)},{fmt(-r * 0.1)} "
                 f"{fmt(r * 0.15)},0 t{fmt(r * 0.15)},0 t{fmt(r * 0.15)},0 t{fmt(r * 0.15)},0")
            svg.add("path", d=d, stroke=RIVER, stroke_width=r * 0.05, fill="none")
        return
    size = {"hill": 0.2, "mountain": 0.3, "himalaya": 0.3}[terrain]
    peaks = [(x, y)] if terrain != "himalaya" else [(x - r * 0.12, y), (x + r * 0.12, y)]
    fill = {"hill": "#c9a46a", "mountain": "#8a6642", "himalaya": "#6e5236"}[terrain]
    for px, py in peaks:
        tri = [(px, py - size * r * 0.85), (px + size * r * 0.6, py + size * r * 0.4),
               (px - size * r * 0.6, py + size * r * 0.4)]
        svg.add("polygon", points=points_attr(tri), fill=fill, stroke=INK, stroke_width=1.2)
        if terrain == "himalaya":
            cap = [tri[0], (px + size * r * 0.22, py - size * r * 0.35),
                   (px - size * r * 0.22, py - size * r * 0.35)]
            svg.add("polygon", points=points_attr(cap), fill="white", stroke="none")


def cost_text(ed: Edition, terrain: Terrain) -> str:
    """TABLE 4 cost as printed beside a symbol: broad / metre gauge."""
    cost = ed.costs.terrain[terrain]
    return f"£{cost.broad}/{cost.metre}"


def _draw_terrain(
    svg: Svg, ed: Edition, terrains: Sequence[Terrain], at: Point, r: float, text: float
) -> None:
    """Terrain symbols side by side, each with its TABLE 4 cost below it."""
    n = len(terrains)
    for i, terrain in enumerate(terrains):
        x = at[0] + (i - (n - 1) / 2) * r * 0.62
        _terrain_symbol(svg, terrain, (x, at[1]), r)
        svg.text((x, at[1] + r * 0.27), cost_text(ed, terrain), text, halo=True)


def _draw_printed_hex(svg: Svg, spec: HexSpec, layout: Layout) -> None:
    """The printed hex: buff land, Ganges valley beige, pale grey land or grey margin."""
    c = layout.center(spec.coord)
    r = layout.radius
    fill = (MARGIN_GREY if not spec.playable else GANGES if spec.ganges_valley
            else PALE_GREY if spec.pale_grey else LAND)
    svg.add("polygon", points=points_attr(hex_corners(c, r)), fill=fill, stroke="#6b6b6b",
            stroke_width=1.2)


def _draw_printed_features(svg: Svg, ed: Edition, spec: HexSpec, layout: Layout) -> None:
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
    svg: Svg, ed: Edition, spec: HexSpec, layout: Layout, used: list[Point]
) -> None:
    """Terrain of a hex under a tile (the preprinted Calcutta): its cost still applies to the
    first promotion (rule 4.2.13).  Adds the spot it drew on to ``used``."""
    if not spec.terrain:
        return
    center = layout.center(spec.coord)
    spot = badge_spot(center, used, layout.radius * 0.85)
    used.append(spot)
    _draw_terrain(svg, ed, spec.terrain, spot, layout.radius * 0.6, layout.radius * 0.13)


def _draw_city_notes(
    svg: Svg, ed: Edition, spec: HexSpec, layout: Layout, covered: Covered | None
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
    svg: Svg, companies: Sequence[int], bond: int, center: Point, r: float, covered: Covered
) -> None:
    """The numbers and bond value of a city under a tile, in a white box: in a free place
    inside the hex between the name and the hex label (the one that keeps farthest from the
    tile's marks and track, in the largest of NOTE_SIZES that has one), else small and just
    under the name, where it hides least."""
    numbers, value = city_numbers(companies), f"£{bond}"
    at, size = _note_place(center, r, len(numbers), len(value), tuple(covered.marks),
                           tuple(covered.track))
    numbers_w, gap, width, height = _note_box(size, len(numbers), len(value))
    left = at[0] - width / 2
    svg.add("rect", x=left, y=at[1] - height / 2, width=width, height=height, rx=0.3 * size,
            fill="white", fill_opacity=0.92, stroke=INK, stroke_width=0.8)
    svg.text((left + 0.25 * size, at[1]), numbers, size, weight="bold", anchor="start")
    svg.text((left + 0.25 * size + numbers_w + gap, at[1]), value, size, fill=BOND_INK,
             anchor="start")


def _note_box(size: float, numbers: int, value: int) -> tuple[float, float, float, float]:
    """The widths of a note's numbers and of the gap after them, the box's width and height,
    for texts of ``numbers`` and ``value`` characters."""
    # DejaVu Sans digits are about 0.64 em wide; the box is sized to fit both texts.
    numbers_w, value_w, gap = 0.64 * size * numbers, 0.64 * size * value, 0.35 * size
    return numbers_w, gap, numbers_w + gap + value_w + 0.5 * size, 1.4 * size


# A pure function of its arguments, remembered: the terminal draws the board before each human
# decision and the web after each change, and most covered cities are the same from one board
# to the next; their search (hundreds of spots against every mark and track point of the
# tile) was most of a board's drawing time.
@functools.lru_cache(maxsize=4096)
def _note_place(center: Point, r: float, numbers: int, value: int,
                marks: tuple[Point, ...], track: tuple[Point, ...]) -> tuple[Point, float]:
    """Where a covered city's note box goes (its centre) and its text size."""

    def clearance(spot: Point, width: float, height: float, beat: float = -math.inf) -> float:
        # The box's distance to the nearest mark or track point, less that one's radius
        # (r, less the radius, where the tile drew none of a kind).  The search stops once it
        # is no more than ``beat``: such a spot loses to the one that scored ``beat``.
        left, top = spot[0] - width / 2, spot[1] - height / 2
        nearest = math.inf
        for points, radius in ((marks, MARK_RADIUS * r), (track, TRACK_RADIUS * r)):
            if not points:
                nearest = min(nearest, r - radius)
            for u in points:
                clear = math.hypot(max(left - u[0], 0.0, u[0] - left - width),
                                   max(top - u[1], 0.0, u[1] - top - height)) - radius
                if clear < nearest:
                    nearest = clear
                    if nearest <= beat:
                        return nearest
        return nearest

    for factor in NOTE_SIZES:
        size = factor * r
        _, _, width, height = _note_box(size, numbers, value)
        # The spot farthest from the marks and track; the first such one on a tie.
        spots = _note_spots(center, r, width, height)
        at, best = spots[0], clearance(spots[0], width, height)
        for spot in spots[1:]:
            score = clearance(spot, width, height, best)
            if score > best:
                at, best = spot, score
        if best >= 0:
            return at, size
    return (center[0], center[1] - 0.5 * r), size


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


def _draw_hex_label(svg: Svg, spec: HexSpec, layout: Layout) -> None:
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


def _draw_land_beyond(svg: Svg, ed: Edition, layout: Layout) -> None:
    r = layout.radius
    for ri, col in land_beyond(ed, layout.columns):
        centre = (layout.margin + col * layout.half_width, layout.margin + r + ri * 1.5 * r)
        svg.add("polygon", points=points_attr(hex_corners(centre, r)), fill=LAND_BEYOND,
                stroke=LAND_BEYOND, stroke_width=1.5)


def _draw_frame(svg: Svg, layout: Layout) -> None:
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


def _draw_legend(svg: Svg, ed: Edition, layout: Layout) -> None:
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
        draw_track(svg, f"M{fmt(x0)},{fmt(y)} L{fmt(x0 + 0.6 * r)},{fmt(y)}", gauge, r)
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
    box = Svg()
    box.add("rect", x=x0 - 0.2 * r, y=y0 - 0.6 * r, width=width, height=y - y0 + 0.6 * r + line,
            fill="white", stroke=INK, stroke_width=1.5, rx=8)
    svg.parts[box_at:box_at] = box.parts



def _tokens(board: BoardState) -> dict[str, dict[str | None, list[CompanySpec]]]:
    """Base tokens by hex and station (None: the printed city circle of a hex without a tile)."""
    out: dict[str, dict[str | None, list[CompanySpec]]] = {}
    for base in board.bases:
        here = out.setdefault(base.hex, {}).setdefault(base.station, [])
        here.append(board.edition.company(base.company))
    return out


# --- public entry points -------------------------------------------------------------------


def render_board_svg(
    board: BoardState,
    highlight_routes: Sequence[Sequence[RouteNode]] = (),
    layout: Layout | None = None,
    variants: Collection[str] = (),
) -> str:
    """The board of ``board`` (its tiles, the preprinted large cities among them, and its base
    tokens in company colours) as an SVG document.

    ``highlight_routes`` are sequences of track-graph nodes (("S", hex, station) or ("E", hex,
    side)), each drawn as a coloured line; a bad node raises InputError.  The state vouches
    for its tiles and bases (:class:`~india1853.board.state.BoardState`): tokens beyond a
    station's slots are drawn beside it, never hidden.  ``variants`` are the optional rules in
    play: a home that only an optional rule creates (the first edition's Alternative Rules 3.0
    BBCI home) is drawn only when its variant is named.
    """
    return BoardPainter(board.edition, layout, variants).svg(board, highlight_routes)


# The most hex pictures a painter keeps (each a few KB): a game's board changes a hex at a time.
PAINTER_HEXES = 6000


class BoardPainter:
    """Draws boards of one edition, keeping what it drew of each hex by content (its tile,
    rotation and tokens), so a board that differs from an earlier one by a tile costs that
    hex, not the board (a city note under a tile, placed where it hides least, is most of a
    board's cost).  The same picture as drawn from scratch, element for element."""

    def __init__(self, ed: Edition, layout: Layout | None = None,
                 variants: Collection[str] = ()) -> None:
        self.ed = ed
        self.lay = layout or Layout(columns=max(split(c)[1] for c in ed.board.hexes))
        self.variants = tuple(variants)
        self.hexes = sorted(ed.board.hexes.values(), key=lambda h: (ROWS.index(h.coord[0]),
                                                                    int(h.coord[1:])))
        under = Svg()
        _draw_land_beyond(under, ed, self.lay)
        _draw_frame(under, self.lay)
        for spec in self.hexes:
            _draw_printed_hex(under, spec, self.lay)
        self.under = tuple(under.parts)
        legend = Svg()
        _draw_legend(legend, ed, self.lay)
        self.legend = tuple(legend.parts)
        targets = Svg()
        _draw_hex_targets(targets, self.hexes, self.lay)
        self.targets = tuple(targets.parts)
        self._drawn: dict[tuple[object, ...], tuple[tuple[str, ...], Covered | None]] = {}

    def svg(self, board: BoardState, highlight_routes: Sequence[Sequence[RouteNode]] = ()) -> str:
        """The board as :func:`render_board_svg` draws it."""
        lay = self.lay
        placed = {coord: (tile, rotation) for coord, tile, rotation in board.tiles_on_board()}
        tokens = _tokens(board)
        out = Svg()
        out.parts.extend(self.under)
        covered: dict[str, Covered | None] = {}
        notes: list[tuple[str, ...]] = []
        for spec in self.hexes:
            parts, covered[spec.coord] = self._hex(spec, placed.get(spec.coord),
                                                   tokens.get(spec.coord, {}))
            out.parts.extend(parts)
        _draw_homes(out, self.ed, placed, tokens, lay, self.variants)
        for spec in self.hexes:
            notes.append(self._notes(spec, placed.get(spec.coord), covered[spec.coord]))
        for part in notes:
            out.parts.extend(part)
        out.parts.extend(self.legend)
        draw_routes(out, highlight_routes, placed, lay, self.ed)
        out.parts.extend(self.targets)
        return out.document(lay.width, lay.height, SEA)

    def _hex(self, spec: HexSpec, tile: tuple[TileSpec, int] | None,
             tokens: Mapping[str | None, Sequence[CompanySpec]],
             ) -> tuple[tuple[str, ...], Covered | None]:
        """A hex's tile and tokens (or its printed features and loose tokens), and what the
        tile covers for the city notes."""
        key = ("hex", spec.coord, tile[0].id if tile else None, tile[1] if tile else None,
               tuple((station, tuple(c.initials for c in cos))
                     for station, cos in tokens.items()))
        found = self._drawn.get(key)
        if found is not None:
            return found
        lay = self.lay
        svg = Svg()
        covered: Covered | None = None
        if tile is not None:
            here = {k: v for k, v in tokens.items() if k is not None}
            center = lay.center(spec.coord)
            used = draw_tile(svg, tile[0], tile[1], center, lay.radius, here)
            if tile[0].preprinted:
                _draw_covered_terrain(svg, self.ed, spec, lay, used)
            covered = Covered(marks=used, track=track_samples(tile[0], tile[1], center,
                                                              lay.radius))
        elif spec.playable:
            _draw_printed_features(svg, self.ed, spec, lay)
            cx, cy = lay.center(spec.coord)
            for j, company in enumerate(tokens.get(None, [])):
                draw_token(svg, (cx + j * lay.radius * 0.3, cy - j * lay.radius * 0.3),
                           lay.radius * (0.23 if j == 0 else 0.18), company)
        return self._keep(key, (tuple(svg.parts), covered))

    def _notes(self, spec: HexSpec, tile: tuple[TileSpec, int] | None,
               covered: Covered | None) -> tuple[str, ...]:
        """A hex's city notes and label (their place depends on the tile and its tokens)."""
        key = ("notes", spec.coord, tile[0].id if tile else None, tile[1] if tile else None,
               None if covered is None else (tuple(covered.marks), tuple(covered.track)))
        found = self._drawn.get(key)
        if found is not None:
            return found[0]
        svg = Svg()
        _draw_city_notes(svg, self.ed, spec, self.lay, covered)
        _draw_hex_label(svg, spec, self.lay)
        return self._keep(key, (tuple(svg.parts), None))[0]

    def _keep(self, key: tuple[object, ...], value: tuple[tuple[str, ...], Covered | None],
              ) -> tuple[tuple[str, ...], Covered | None]:
        if len(self._drawn) >= PAINTER_HEXES:
            self._drawn.clear()  # a new start: the current board is drawn again once
        self._drawn[key] = value
        return value


def hex_title(spec: HexSpec) -> str:
    """The words a screen reader says for a hex: its coordinate, name and terrain."""
    words = [spec.coord]
    if spec.name:
        words.append(spec.name)
    words.extend(TERRAIN_NAMES[t] for t in spec.terrain)
    if not spec.playable:
        words.append("off-board")
    return ", ".join(words)


def _draw_hex_targets(svg: Svg, hexes: Iterable[HexSpec], layout: Layout) -> None:
    """An invisible outline over every hex, drawn last, named by ``data-hex`` and titled in
    words: the web page finds the hex under a click or a tap there and highlights the hexes
    a decision offers; screen readers read the titles.  Nothing shows in a picture."""
    svg.raw('<g class="hex-targets">')
    for spec in hexes:
        points = points_attr(hex_corners(layout.center(spec.coord), layout.radius))
        svg.raw(f'<polygon class="hex-target" data-hex={quoteattr(spec.coord)} '
                f'points="{points}" fill="#000000" fill-opacity="0">'
                f'<title>{escape(hex_title(spec))}</title></polygon>')
    svg.raw("</g>")


def _draw_homes(
    svg: Svg,
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


