"""Routes drawn on the board: each a coloured line along the track it runs on, with a dot
on every station it visits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from india1853.board.hexes import neighbour, parse_coord
from india1853.data.model import (
    Edition,
    PathEnd,
    TileSpec,
)
from india1853.errors import InputError
from india1853.interfaces.render.svg import (
    ROUTE_COLOURS,
    Layout,
    Point,
    RouteNode,
    Svg,
    fmt,
    side_mid,
)
from india1853.interfaces.render.tiles import station_positions, track_d

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
    coord = parse_coord(str(node[1]))
    if coord not in ed.board.hexes:
        raise InputError(f"highlight_routes: hex {coord} is not on the {ed.name} edition "
                         "board")
    center = layout.center(coord)
    if node[0] == "E":
        side = node[2]
        if not isinstance(side, int) or side not in range(6):
            raise InputError(f"highlight_routes: bad side {side!r} in {node!r}")
        return side_mid(center, side, layout.radius)
    tile = placed.get(coord)
    if tile is None:
        return center
    positions = station_positions(tile[0], tile[1], center, layout.radius)
    if node[2] not in positions:
        raise InputError(f"highlight_routes: no station {node[2]!r} on {coord}")
    return positions[node[2]]


def draw_routes(
    svg: Svg,
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
            return track_d(end_a, end_b, center, stations, layout.radius)
    return f"M{fmt(pa[0])},{fmt(pa[1])} L{fmt(pb[0])},{fmt(pb[1])}"


