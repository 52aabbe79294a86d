"""A company's network: what its bases reach, its railheads, and disjoint connecting lines.

Rules 4.1.6-4.1.7, 4.2.2, 4.2.6, 4.4.6 (second edition) and 31.4-31.5, 31.13, 31.16, 32.5
(first edition).  A connecting line is continuous track of one gauge (dual track serves both)
from one of the company's bases, never passing a station that other companies' bases fill.
A line may change gauge only at a station holding the company's base; such a station is a base
itself, so every line is traced from a base in a single gauge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property

from india1853.board.graph import (
    LINE_GAUGES,
    USABLE,
    EdgeNode,
    Reach,
    State,
    StationNode,
    Track,
    TrackGraph,
    edge_node,
    find_line,
    reach,
    side_of,
)
from india1853.board.hexes import neighbours
from india1853.board.state import BoardState
from india1853.board.tiles import map_paths
from india1853.data.model import Gauge, TileSpec

# How many candidate lines of the first lay the exhaustive search of rule 4.1.7 tries before
# giving up; see docs/rulings.md "Two lays".
DISJOINT_SEARCH_BUDGET = 20_000


@dataclass(frozen=True)
class Network:
    """The company's lines on one board state (computed lazily, then cached)."""

    state: BoardState
    company: str

    @cached_property
    def graph(self) -> TrackGraph:
        return TrackGraph.build(self.state)

    @cached_property
    def reaches(self) -> dict[Gauge, Reach]:
        return {g: reach(self.graph, self.company, g) for g in LINE_GAUGES}

    def railhead_gauges(self, hex: str, side: int) -> tuple[Gauge, ...]:
        """Gauges of the company's lines that end at this edge of an empty hex (4.1.6 / 31.4)."""
        node = edge_node(hex, side)
        return tuple(g for g in LINE_GAUGES if self.reaches[g].reached_from_outside(node, hex))

    def railheads(self) -> dict[str, dict[int, tuple[Gauge, ...]]]:
        """Every empty playable hex with a railhead on one of its sides."""
        out: dict[str, dict[int, tuple[Gauge, ...]]] = {}
        board = self.state.edition.board
        for g, r in self.reaches.items():
            for node in r.arrivals:
                if node[0] != "E":
                    continue
                for hex in (node[1], _across(node)):
                    if hex is None or hex in self.state.tiles or not board.playable(hex):
                        continue
                    if not r.reached_from_outside(node, hex):
                        continue
                    side = side_of(node, hex)
                    gauges = out.setdefault(hex, {}).setdefault(side, ())
                    if g not in gauges:
                        out[hex][side] = (*gauges, g)
        return out

    def touches(self, hex: str) -> bool:
        """Whether any line reaches a track of ``hex`` (or a base sits on it)."""
        if any(b.hex == hex for b in self.state.company_bases(self.company)):
            return True
        tracks = {t.id for t in self.graph.tracks_in(hex)}
        return any(tracks & r.tracks for r in self.reaches.values())

    def reaches_station(self, node: StationNode) -> bool:
        return any(node in r.arrivals for r in self.reaches.values())

    def enters(self, hex: str, tile: TileSpec, rotation: int) -> bool:
        """Whether a line from outside ``hex`` meets a track of ``tile`` laid there in its
        gauge (a promotion "establishes a connection without a break of gauge", 4.2.2)."""
        for path in map_paths(tile, rotation):
            for end in (path.a, path.b):
                if not isinstance(end, int):
                    continue
                node = edge_node(hex, end)
                for g in LINE_GAUGES:
                    if path.gauge in USABLE[g] and self.reaches[g].reached_from_outside(node, hex):
                        return True
        return False


def _across(node: EdgeNode) -> str | None:
    return neighbours(node[1]).get(node[2])


# --- rule 4.1.7 / 31.5: two lays, each from a different base, on disjoint lines ------------


@dataclass(frozen=True)
class LayTarget:
    """Where a lay's connecting line must end: an edge of ``hex`` met by one of the tile's
    tracks in the line's gauge, reached from outside ``hex``.  ``home_base`` is a base on the
    hex itself (a home-base lay, 4.1.8 / 31.6) that needs no line at all."""

    hex: str
    entries: frozenset[tuple[EdgeNode, Gauge]]
    home_base: StationNode | None = None

    def matcher(self, gauge: Gauge) -> Callable[[State], bool]:
        def is_target(state: State) -> bool:
            node, came_from = state
            return (
                node[0] == "E"
                and came_from not in ("", self.hex)
                and (node, gauge) in self.entries
            )

        return is_target


def lay_target(hex: str, tile: TileSpec, rotation: int, home_base: StationNode | None) -> LayTarget:
    entries: set[tuple[EdgeNode, Gauge]] = set()
    for path in map_paths(tile, rotation):
        for end in (path.a, path.b):
            if isinstance(end, int):
                for g in LINE_GAUGES:
                    if path.gauge in USABLE[g]:
                        entries.add((edge_node(hex, end), g))
    return LayTarget(hex, frozenset(entries), home_base)


def _edges(line: list[Track]) -> frozenset[EdgeNode]:
    out: set[EdgeNode] = set()
    for t in line:
        for n in (t.a, t.b):
            if n[0] == "E":
                out.add(n)
    return frozenset(out)


def disjoint_lines(graph: TrackGraph, company: str, first: LayTarget, second: LayTarget) -> bool:
    """Rule 4.1.7 / 31.5: each lay connected to a DIFFERENT base, the connecting lines sharing
    no track (nor a tile edge, as train routes may not, 4.5.10).

    The first lay's line may not use the first lay's own tile (it was traced before the tile
    was laid); the second lay's line may.
    """
    bases = graph.base_nodes(company)

    def not_first_hex(track: Track) -> bool:
        return track.hex != first.hex

    for b1 in bases:
        for b2 in bases:
            if b1 == b2:
                continue
            if _pair(graph, company, b1, b2, first, second, not_first_hex):
                return True
    return False


def _pair(
    graph: TrackGraph,
    company: str,
    b1: StationNode,
    b2: StationNode,
    first: LayTarget,
    second: LayTarget,
    not_first_hex: Callable[[Track], bool],
) -> bool:
    for g2 in LINE_GAUGES:
        # No line at all from b2 to the second lay: no first line can help.
        if second.home_base != b2 and find_line(graph, company, g2, [b2],
                                                second.matcher(g2)) is None:
            continue
        for g1 in LINE_GAUGES:
            lines1 = _candidate_lines(graph, company, b1, g1, first, not_first_hex)
            for line1 in lines1:
                banned = frozenset(t.id for t in line1)
                if second.home_base == b2:
                    return True
                if find_line(graph, company, g2, [b2], second.matcher(g2), banned,
                             _edges(line1)) is not None:
                    return True
    return False


def _candidate_lines(
    graph: TrackGraph,
    company: str,
    base: StationNode,
    gauge: Gauge,
    target: LayTarget,
    usable: Callable[[Track], bool],
) -> Iterator[list[Track]]:
    """Lines from ``base`` to ``target``: the shortest first, then every other one found by a
    depth-first search, up to :data:`DISJOINT_SEARCH_BUDGET` steps."""
    if target.home_base == base:
        yield []
        return
    banned = frozenset(t.id for t in graph.tracks if not usable(t))
    shortest = find_line(graph, company, gauge, [base], target.matcher(gauge), banned)
    if shortest is None:
        return
    yield shortest
    is_target = target.matcher(gauge)
    budget = DISJOINT_SEARCH_BUDGET
    stack: list[tuple[State, list[Track], frozenset[object]]] = [((base, ""), [], frozenset())]
    while stack and budget > 0:
        state, line, seen = stack.pop()
        budget -= 1
        if line and is_target(state):
            if line != shortest:
                yield line
            continue
        node, came_from = state
        if node[0] == "S" and came_from and graph.blocked_for(node, company):
            continue
        for t in graph.adjacent(node, gauge):
            if not usable(t) or t.id in seen or (node[0] == "E" and t.hex == came_from):
                continue
            nxt = t.other(node)
            if nxt[0] == "E" and nxt in seen:
                continue
            stack.append(((nxt, t.hex), [*line, t], seen | {t.id, nxt}))
