"""A tile drawn at any place and size: its track by gauge (4.1.5 / 31.3, dual 4.2.8), its
stations with their slots and values, base tokens; and the sheet of every tile
(:func:`render_tiles_svg`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from india1853.board.tiles import map_paths, small_stations
from india1853.data.model import (
    CompanySpec,
    Edition,
    PathEnd,
    PathSpec,
    StationSpec,
    TileSpec,
)
from india1853.errors import InputError
from india1853.interfaces.render.svg import (
    INK,
    TILE_COLOURS,
    Point,
    Svg,
    fmt,
    hex_corners,
    points_attr,
    side_direction,
    side_mid,
)

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
    return side_mid(center, end, radius) if isinstance(end, int) else stations[end]


def track_d(a: PathEnd, b: PathEnd, center: Point, stations: Mapping[str, Point], r: float) -> str:
    pa = _end_point(a, center, stations, r)
    pb = _end_point(b, center, stations, r)
    if isinstance(a, int) and isinstance(b, int):
        # Side to side: a curve through the middle region, straight when the sides are opposite.
        return (f"M{fmt(pa[0])},{fmt(pa[1])} Q{fmt(center[0])},{fmt(center[1])} "
                f"{fmt(pb[0])},{fmt(pb[1])}")
    return f"M{fmt(pa[0])},{fmt(pa[1])} L{fmt(pb[0])},{fmt(pb[1])}"


def draw_track(svg: Svg, d: str, gauge: str, radius: float) -> None:
    """Broad: solid black; metre: black and white dashes (4.1.5 / 31.3); dual: two rails."""
    w = radius * 0.1
    if gauge == "broad":
        svg.add("path", d=d, stroke=INK, stroke_width=w, fill="none")
    elif gauge == "metre":
        svg.add("path", d=d, stroke=INK, stroke_width=w, fill="none")
        svg.add(
            "path", d=d, stroke="white", stroke_width=w * 0.5, fill="none",
            stroke_dasharray=f"{fmt(w * 1.2)},{fmt(w * 1.2)}",
        )
    else:
        svg.add("path", d=d, stroke=INK, stroke_width=w * 1.5, fill="none")
        svg.add("path", d=d, stroke="white", stroke_width=w * 0.6, fill="none")


def _value_badge(svg: Svg, at: Point, value: int, radius: float) -> None:
    svg.add("circle", cx=at[0], cy=at[1], r=radius * 0.15, fill="white", stroke=INK,
            stroke_width=1.2)
    svg.text(at, str(value), radius * 0.16, weight="bold")


def badge_spot(center: Point, used: Iterable[Point], radius: float) -> Point:
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
    svg: Svg,
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
    svg.add("polygon", points=points_attr(hex_corners(center, radius)),
            fill=TILE_COLOURS[tile.colour], stroke=INK, stroke_width=1.5)
    stations = station_positions(tile, rotation, center, radius)
    paths = map_paths(tile, rotation)
    for p in paths:
        draw_track(svg, track_d(p.a, p.b, center, stations, radius), p.gauge, radius)
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
        spot = badge_spot(center, used, radius)
        used.append(spot)
        _value_badge(svg, spot, values.pop(), radius)
    else:
        for st in tile.stations:
            spot = badge_spot(stations[st.id], used, radius * 0.75)
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
        # Side to side the track is a quadratic curve through the centre (see track_d).
        via = center if isinstance(p.a, int) and isinstance(p.b, int) else (
            (a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        for k in range(11):
            t, u = k / 10, 1 - k / 10
            out.append((u * u * a[0] + 2 * u * t * via[0] + t * t * b[0],
                        u * u * a[1] + 2 * u * t * via[1] + t * t * b[1]))
    return out


def _draw_station(
    svg: Svg,
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
        hull = " ".join(f"{fmt(x)},{fmt(y)}" for x, y in centres)
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
    svg: Svg, st: StationSpec, at: Point, paths: Sequence[PathSpec], radius: float
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


def draw_token(svg: Svg, at: Point, r: float, company: CompanySpec) -> None:
    """A base token in the company's colours with its initials."""
    svg.add("circle", cx=at[0], cy=at[1], r=r, fill=company.colour, stroke=INK,
            stroke_width=1.2)
    size = r * (0.9 if len(company.initials) <= 3 else 0.72)
    svg.text(at, company.initials, size, fill=company.text_colour, weight="bold")


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
    svg = Svg()
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





TILE_PICTURE_RADIUS = 50.0


def render_tile_svg(edition: Edition, tile_id: str, rotation: int) -> str:
    """One tile as it would lie at ``rotation`` (0-5): the board's own drawing of it (track
    by gauge, stations, values, number) on a transparent ground, for the web page's tile
    choices.  An unknown tile or a rotation outside 0-5 raises InputError."""
    if tile_id not in edition.tiles:
        raise InputError(f"tile: unknown tile {tile_id!r} in the {edition.name} edition")
    if rotation not in range(6):
        raise InputError(f"rotation: must be 0 to 5, got {rotation}")
    r = TILE_PICTURE_RADIUS
    svg = Svg()
    half_width = r * math.sqrt(3) / 2  # a pointy-top hex: narrower than it is tall
    draw_tile(svg, edition.tiles[tile_id], rotation, (half_width + 2, r + 2), r)
    return svg.document(2 * half_width + 4, 2 * r + 4, "none")
