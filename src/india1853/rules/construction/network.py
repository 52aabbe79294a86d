"""A company's network: what its bases reach, its railheads, and disjoint connecting lines.

Rules 4.1.6-4.1.7, 4.2.2, 4.2.6, 4.4.6 (second edition) and 31.4-31.5, 31.13, 31.16, 32.5
(first edition).  A connecting line is continuous track of one gauge (dual track serves both)
from one of the company's bases, never passing a station that other companies' bases fill.
A line may change gauge only at a station holding the company's base; such a station is a base
itself, so every line is traced from a base in a single gauge.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from india1853.board.graph import (
    LINE_GAUGES,
    USABLE,
    EdgeNode,
    Reach,
    StationNode,
    TrackGraph,
    edge_node,
    reach,
    side_of,
)
from india1853.board.hexes import neighbours
from india1853.board.state import BoardState
from india1853.board.tiles import map_paths
from india1853.data.model import Gauge, TileSpec
from india1853.rules.construction.lines import (
    MIXED_GAUGES,
    ONE_GAUGE,
    LineGauge,
    Resources,
    SideGraph,
    Target,
    build_side_graph,
    has_line,
    mixed_pair,
    pair_flow,
    target_in,
)
from india1853.rules.construction.trainreach import TrainReach
from india1853.rules.routes import Train


class _Shared:
    """What a company's network on one board state works out, kept with the (immutable)
    state so that every :class:`Network` of that state and company shares it: the engine
    asks for the lays, the promotions, the bases, a lay's check and the frontier posts of
    one board, each with its own Network."""

    def __init__(self) -> None:
        self.side_graphs: dict[LineGauge, SideGraph] | None = None
        self.train_reaches: dict[tuple[str, ...], TrainReach] = {}
        self.reaches: dict[Gauge, Reach] | None = None
        self.railhead_gauges: dict[tuple[str, int], tuple[Gauge, ...]] = {}
        self.touches: dict[str, bool] = {}
        self.arriving: dict[tuple[str, int], frozenset[Gauge]] = {}


@dataclass(frozen=True)
class Network:
    """The company's lines on one board state (computed lazily, then shared by every Network
    of the same state and company)."""

    state: BoardState
    company: str

    @cached_property
    def _shared(self) -> _Shared:
        networks = self.state._derived.setdefault("networks", {})
        assert isinstance(networks, dict)
        found = networks.get(self.company)
        if not isinstance(found, _Shared):
            found = networks[self.company] = _Shared()
        return found

    @cached_property
    def graph(self) -> TrackGraph:
        return TrackGraph.build(self.state)

    @property
    def side_graphs(self) -> dict[LineGauge, SideGraph]:
        """The side graphs of rule 4.1.7 / 31.5 (:mod:`.lines`), sharing one resource table."""
        shared = self._shared
        if shared.side_graphs is None:
            resources = Resources()
            gauges: tuple[LineGauge, ...] = ("any", "broad", "metre")
            shared.side_graphs = {g: build_side_graph(self.graph, self.company, g, resources)
                                  for g in gauges}
        return shared.side_graphs

    def train_reach(self, trains: Iterable[str]) -> TrainReach:
        """Where runs of the named trains of the company go (4.2.3, 4.4.2), shared by every
        move asked of this network."""
        key = tuple(sorted(trains))
        reaches = self._shared.train_reaches
        found = reaches.get(key)
        if found is None:
            edition = self.state.edition
            found = TrainReach(self.graph, self.company, [Train.named(edition, n) for n in key])
            reaches[key] = found
        return found

    @property
    def reaches(self) -> dict[Gauge, Reach]:
        shared = self._shared
        if shared.reaches is None:
            shared.reaches = {g: reach(self.graph, self.company, g) for g in LINE_GAUGES}
        return shared.reaches

    def railhead_gauges(self, hex: str, side: int) -> tuple[Gauge, ...]:
        """Gauges of the company's lines that end at this edge of an empty hex (4.1.6 / 31.4)."""
        memo = self._shared.railhead_gauges
        found = memo.get((hex, side))
        if found is None:
            node = edge_node(hex, side)
            reaches = self.reaches
            found = memo[(hex, side)] = tuple(
                g for g in LINE_GAUGES if reaches[g].reached_from_outside(node, hex))
        return found

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
        memo = self._shared.touches
        found = memo.get(hex)
        if found is None:
            found = memo[hex] = self._touches(hex)
        return found

    def _touches(self, hex: str) -> bool:
        if any(b.hex == hex and b.company == self.company for b in self.state.bases):
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
                if isinstance(end, int) and path.gauge in self._arriving(hex, end):
                    return True
        return False

    def _arriving(self, hex: str, side: int) -> frozenset[Gauge]:
        """The track gauges that a line arriving at this edge of ``hex`` from outside may go
        on along (the gauges of :meth:`railhead_gauges`, each with dual track)."""
        memo = self._shared.arriving
        found = memo.get((hex, side))
        if found is None:
            usable: set[Gauge] = set()
            for g in self.railhead_gauges(hex, side):
                usable |= USABLE[g]
            found = memo[(hex, side)] = frozenset(usable)
        return found


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

    def edges(self, gauge: LineGauge) -> frozenset[EdgeNode]:
        """The edges a line of ``gauge`` may arrive at ("any": every edge with track)."""
        return frozenset(e for e, g in self.entries if gauge in ("any", g))

    def target(self, g: SideGraph) -> Target:
        return target_in(g, self.hex, self.edges(g.gauge), self.home_base)


def lay_target(hex: str, tile: TileSpec, rotation: int, home_base: StationNode | None) -> LayTarget:
    entries: set[tuple[EdgeNode, Gauge]] = set()
    for path in map_paths(tile, rotation):
        for end in (path.a, path.b):
            if isinstance(end, int):
                for g in LINE_GAUGES:
                    if path.gauge in USABLE[g]:
                        entries.add((edge_node(hex, end), g))
    return LayTarget(hex, frozenset(entries), home_base)


def disjoint_lines(net: Network, first: LayTarget, second: LayTarget) -> bool:
    """Rule 4.1.7 / 31.5: each lay connected to a DIFFERENT base, the connecting lines sharing
    no track (nor a tile edge, as train routes may not, 4.5.10).  Exact; the method is in
    :mod:`india1853.rules.construction.lines`.

    ``net`` is the board after the first lay.  The first lay's line may not use the first lay's
    own tile (it was traced before the tile was laid); the second lay's line may.
    """
    graphs = net.side_graphs
    bases = net.graph.base_nodes(net.company)
    if len(bases) < 2:
        return False
    # Any pair of lines is a flow of 2 in the graph of all track: the cheap refusal first.
    if pair_flow(graphs["any"], bases, first.target(graphs["any"]),
                 second.target(graphs["any"])) < 2:
        return False
    for g in ONE_GAUGE:
        if pair_flow(graphs[g], bases, first.target(graphs[g]), second.target(graphs[g])) == 2:
            return True
    for g1, g2 in MIXED_GAUGES:
        if mixed_pair(graphs[g1], graphs[g2], bases, first.target(graphs[g1]),
                      second.target(graphs[g2])):
            return True
    return False


def first_lay_has_line(net: Network, first: LayTarget) -> bool:
    """Whether a line from any base, not using the first lay's own tile, reaches the first lay
    (4.1.6 / 31.4 as 4.1.7 / 31.5 traces it, when the second lay needs no line)."""
    bases = net.graph.base_nodes(net.company)
    return any(
        has_line(net.side_graphs[g], bases, first.target(net.side_graphs[g]), avoid_hex=first.hex)
        for g in ONE_GAUGE
    )
