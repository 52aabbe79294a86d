"""Two connecting lines that share no track: rule 4.1.7 / 31.5, decided exactly.

"Each lay must be connected to a DIFFERENT Base and the connecting railways must not use the
same piece of track at any point, although they may meet or cross at Stations" (4.1.7; 31.5).
A connecting line is continuous track of one gauge from a base (4.1.6 / 31.4): it never turns
back into the tile it came from at a tile edge (4.5.5 / 33.5), never passes a station that other
companies' bases fill (4.2.9 / 31.19), and, like a train route (4.5.10 / 33.10, as the players'
guide reads 4.1.7), uses no piece of track and no tile edge twice.  Two lines must also share no
tile edge: lines that merge at a junction's edge share that edge.

**The side graph.**  For one gauge the lines are paths in an undirected graph whose nodes are

* the stations not blocked for the company (uncapacitated: lines may meet there and turn freely),
* one *side node* per tile edge and per hex with usable track there, the two side nodes of an
  edge joined by one *link* (crossing the edge from one tile into the next),
* one *hub* per junction: where tracks of one tile merge at an edge, the tile's side-to-side
  tracks form a complete graph on their sides (every junction tile of both editions does;
  :func:`build_side_graph` checks it), and the hub joins those sides, one arc per side.

Every other track is an arc between its two end nodes.  All arcs have capacity 1.  A side node
then has at most three arcs (its tile's track or hub, the link, and at most one arc to a target),
so at most one line passes it: each tile edge is used once.  A path that passes a side node goes
between its tile and the link (crossing the edge) or from its tile to the target (arriving from
outside the target's hex), never from one track of a tile into another track of the same tile:
the hub takes the line straight from one side to another along the junction's own track for that
pair of sides.  So a simple path of the side graph is a legal line, and a legal line contains
one (a line passing a junction twice is shortened through the hub to a line using fewer
resources; a line visiting a station twice is shortened at the station).

**Same gauge: maximum flow.**  A super-source feeds every company base (capacity 1 each: two
lines from two different bases); the entries of each lay's hex feed that lay's target (capacity
1), both targets feed the sink.  A flow of 2 decomposes, after dropping cycles, into two simple
paths that respect every capacity: two legal lines from different bases, sharing no track and no
tile edge.  Which base serves which lay does not matter (4.1.7 asks only that they differ).  The
line to the first lay must not use the first lay's own tile (it was traced before the tile was
laid); a flow path to the first target that enters that tile from outside has already reached the
first target at that edge, so it is cut there - a legal line using fewer resources.  Conversely
two legal lines are a flow of 2.  Two augmenting paths on a graph of N nodes and M arcs: O(N + M).

**Different gauges (one broad line, one metre line).**  Two commodities with shared resources
(dual track and tile edges) have no flow formulation; :func:`mixed_pair` searches exactly: it
enumerates the simple broad (metre) lines from each base to the first lay, and for each tests by
breadth-first search whether a metre (broad) line from another base reaches the second lay
avoiding the first line's tile edges and station-to-station track.  Only those can conflict
(track with a tile-edge end dies with the edge), so each candidate is reduced to that
*projection*, a bit mask; a candidate - or a partial line - whose projection contains one that
already failed is skipped.  Worst case exponential in the network size (the number of simple
lines); with the pruning and a first flow test over both gauges at once (necessary for any pair,
so most impossible pairs never reach the search) the real boards answer in milliseconds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from india1853.board.graph import USABLE, EdgeNode, Node, StationNode, Track, TrackGraph
from india1853.board.hexes import neighbour
from india1853.data.model import Gauge
from india1853.errors import DataError

# A connecting line's gauge; "any" is the relaxation that accepts every track (4.2.8 / 31.18).
LineGauge = Literal["broad", "metre", "any"]
ACCEPTS: dict[LineGauge, frozenset[Gauge]] = {
    "broad": USABLE["broad"],
    "metre": USABLE["metre"],
    "any": frozenset({"broad", "metre", "dual"}),
}

ONE_GAUGE: tuple[LineGauge, ...] = ("broad", "metre")
MIXED_GAUGES: tuple[tuple[LineGauge, LineGauge], ...] = (("broad", "metre"), ("metre", "broad"))

SideKey = tuple[Literal["side"], EdgeNode, str]
HubKey = tuple[Literal["hub"], str, int]
Key = StationNode | SideKey | HubKey


class Resources:
    """One bit per thing two lines may not share: a tile edge, a station-to-station track."""

    def __init__(self) -> None:
        self._bits: dict[object, int] = {}

    def bit(self, item: object) -> int:
        index = self._bits.get(item)
        if index is None:
            index = self._bits[item] = len(self._bits)
        return 1 << index


@dataclass
class SideGraph:
    """The side graph of one gauge for one company (see the module docstring)."""

    gauge: LineGauge
    keys: list[Key] = field(default_factory=list)
    index: dict[Key, int] = field(default_factory=dict)
    hexes: list[str] = field(default_factory=list)
    bits: list[int] = field(default_factory=list)  # a side node's tile-edge bit, else 0
    adj: list[list[tuple[int, int]]] = field(default_factory=list)  # (neighbour, arc)
    ends: list[tuple[int, int]] = field(default_factory=list)
    arc_bits: list[int] = field(default_factory=list)  # a station-to-station track's bit

    def node(self, key: Key, hex: str, bit: int = 0) -> int:
        found = self.index.get(key)
        if found is not None:
            return found
        n = self.index[key] = len(self.keys)
        self.keys.append(key)
        self.hexes.append(hex)
        self.bits.append(bit)
        self.adj.append([])
        return n

    def arc(self, a: int, b: int, bit: int = 0) -> None:
        e = len(self.ends)
        self.ends.append((a, b))
        self.arc_bits.append(bit)
        self.adj[a].append((b, e))
        self.adj[b].append((a, e))

    def side(self, edge: EdgeNode, hex: str) -> int | None:
        return self.index.get(("side", edge, hex))

    def station(self, node: StationNode) -> int | None:
        return self.index.get(node)


def _junctions(hex: str, tracks: Sequence[Track]) -> list[tuple[list[EdgeNode], list[Track]]]:
    """The junctions of one tile: groups of side-to-side tracks merging at tile edges.

    Raises DataError unless each group joins every pair of its sides directly and no station
    track ends at its sides - the property that lets a hub stand for the group.
    """
    at: dict[Node, list[Track]] = {}
    for t in tracks:
        for end in (t.a, t.b):
            if end[0] == "E":
                at.setdefault(end, []).append(t)
    merging = [e for e, ts in at.items() if len(ts) > 1]
    seen: set[Node] = set()
    out: list[tuple[list[EdgeNode], list[Track]]] = []
    for start in merging:
        if start in seen:
            continue
        sides: list[EdgeNode] = []
        group: dict[int, Track] = {}
        todo = [start]
        seen.add(start)
        while todo:
            edge = todo.pop()
            assert edge[0] == "E"
            sides.append(edge)
            for t in at[edge]:
                if t.a[0] != "E" or t.b[0] != "E":
                    raise DataError(f"tile on {hex}: a station track merges with other track "
                                    "at a tile edge; rule 4.1.7 needs complete junctions")
                group[t.id] = t
                other = t.other(edge)
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        pairs = {frozenset((t.a, t.b)) for t in group.values()}
        if len(pairs) != len(sides) * (len(sides) - 1) // 2:
            raise DataError(f"tile on {hex}: merging tracks do not join every pair of their "
                            "sides; rule 4.1.7 needs complete junctions")
        out.append((sides, list(group.values())))
    return out


def build_side_graph(
    graph: TrackGraph, company: str, gauge: LineGauge, resources: Resources
) -> SideGraph:
    """The side graph of ``gauge`` for ``company``; stations blocked for it are left out
    (4.2.9 / 31.19: a line may not pass them, and a connecting line ends at a tile edge)."""
    accepts = ACCEPTS[gauge]
    g = SideGraph(gauge)
    for node, info in graph.stations.items():
        if not graph.blocked_for(node, company):
            g.node(node, info.hex)
    by_hex: dict[str, list[Track]] = {}
    for t in graph.tracks:
        if t.gauge in accepts and t.a != t.b:
            by_hex.setdefault(t.hex, []).append(t)

    def end(node: Node, hex: str) -> int | None:
        if node[0] == "S":
            return g.station(node)
        return g.node(("side", node, hex), hex, resources.bit(node))

    for hex, tracks in by_hex.items():
        in_junction: set[int] = set()
        for k, (sides, group) in enumerate(_junctions(hex, tracks)):
            hub = g.node(("hub", hex, k), hex)
            for edge in sides:
                side = end(edge, hex)
                assert side is not None
                g.arc(hub, side)
            in_junction.update(t.id for t in group)
        for t in tracks:
            if t.id in in_junction:
                continue
            a, b = end(t.a, hex), end(t.b, hex)
            if a is None or b is None:
                continue
            both_stations = t.a[0] == "S" and t.b[0] == "S"
            g.arc(a, b, resources.bit(("T", t.id)) if both_stations else 0)
    for key in list(g.keys):
        if key[0] != "side":
            continue
        edge, hex = key[1], key[2]
        across = neighbour(edge[1], edge[2])
        other = edge[1] if across == hex else across
        if other is not None and other > hex:
            partner = g.side(edge, other)
            if partner is not None:
                g.arc(g.index[key], partner)
    return g


@dataclass(frozen=True)
class Target:
    """Where a line to a lay ends, in one side graph: side nodes outside the lay's hex at the
    edges its tile's track meets (``entries``), or the lay's own home base (``home``: a lay on
    a company's home city needs no line, 4.1.8 / 31.6)."""

    hex: str
    entries: frozenset[int]
    home: int | None = None

    @property
    def nodes(self) -> frozenset[int]:
        return self.entries if self.home is None else self.entries | {self.home}


def target_in(
    g: SideGraph, hex: str, edges: Iterable[EdgeNode], home: StationNode | None
) -> Target:
    """The target of a lay on ``hex`` whose tile meets ``edges`` with track of this gauge."""
    entries: set[int] = set()
    for edge in edges:
        across = neighbour(edge[1], edge[2])
        outside = across if edge[1] == hex else edge[1]
        if outside is None:
            continue
        node = g.side(edge, outside)
        if node is not None:
            entries.add(node)
    return Target(hex, frozenset(entries), None if home is None else g.station(home))


# --- one line -------------------------------------------------------------------------------


def _search(
    g: SideGraph,
    sources: Iterable[int],
    goals: frozenset[int],
    banned: int = 0,
    avoid_hex: str | None = None,
) -> bool:
    """Whether a line runs from a source to a goal, avoiding the resources in ``banned`` and
    every node of ``avoid_hex``."""
    hexes, bits, adj, arc_bits = g.hexes, g.bits, g.adj, g.arc_bits
    seen: set[int] = set()
    queue: deque[int] = deque()
    for s in sources:
        if s not in seen and hexes[s] != avoid_hex:
            seen.add(s)
            queue.append(s)
    while queue:
        n = queue.popleft()
        if n in goals:
            return True
        for m, e in adj[n]:
            if m in seen or bits[m] & banned or arc_bits[e] & banned or hexes[m] == avoid_hex:
                continue
            seen.add(m)
            queue.append(m)
    return False


def has_line(g: SideGraph, sources: Iterable[StationNode], target: Target,
             avoid_hex: str | None = None) -> bool:
    """Whether a line of this gauge joins one of ``sources`` to ``target``."""
    starts = [n for n in (g.station(s) for s in sources) if n is not None]
    if target.home is not None and target.home in starts:
        return True
    return _search(g, starts, target.entries, avoid_hex=avoid_hex)


# --- two lines of one gauge: maximum flow ---------------------------------------------------

_SOURCE, _T1, _T2, _SINK = -1, -2, -3, -4


def pair_flow(
    g: SideGraph, bases: Sequence[StationNode], first: Target, second: Target
) -> int:
    """The maximum flow, up to 2, from the company's bases (1 each) to the two targets (1 each)
    in the side graph: 2 exactly when two legal lines of this gauge serve the two lays."""
    starts = {n for n in (g.station(b) for b in bases) if n is not None}
    arcs: list[tuple[int, int]] = [(_SOURCE, n) for n in sorted(starts)]
    arcs += [(n, _T1) for n in sorted(first.nodes)]
    arcs += [(n, _T2) for n in sorted(second.nodes)]
    arcs += [(_T1, _SINK), (_T2, _SINK)]
    m = len(g.ends)
    extra: dict[int, list[tuple[int, int]]] = {}
    for i, (a, b) in enumerate(arcs):
        extra.setdefault(a, []).append((b, m + i))
        extra.setdefault(b, []).append((a, m + i))
    ends, adj = g.ends, g.adj
    flow: dict[int, int] = {}
    none: list[tuple[int, int]] = []
    value = 0
    while value < 2:
        parent: dict[int, tuple[int, int]] = {_SOURCE: (_SOURCE, -1)}
        queue: deque[int] = deque([_SOURCE])
        while queue and _SINK not in parent:
            n = queue.popleft()
            if n >= 0:
                for nxt, e in adj[n]:
                    if nxt not in parent:
                        # Residual capacity of the graph's arc (1 each way, flow f one way).
                        f = flow.get(e, 0)
                        if (1 - f if n == ends[e][0] else 1 + f) > 0:
                            parent[nxt] = (n, e)
                            queue.append(nxt)
            for nxt, e in extra.get(n, none):
                if nxt not in parent:
                    f = flow.get(e, 0)
                    if (1 - f if n == arcs[e - m][0] else f) > 0:
                        parent[nxt] = (n, e)
                        queue.append(nxt)
        if _SINK not in parent:
            break
        n = _SINK
        while n != _SOURCE:
            prev, e = parent[n]
            a = arcs[e - m][0] if e >= m else ends[e][0]
            flow[e] = flow.get(e, 0) + (1 if prev == a else -1)
            n = prev
        value += 1
    return value


# --- two lines of different gauges: exact search --------------------------------------------


_FAR = 1 << 30


def _distances(g: SideGraph, goals: frozenset[int], avoid_hex: str) -> dict[int, int]:
    dist = {n: 0 for n in goals}
    queue = deque(goals)
    while queue:
        n = queue.popleft()
        for m, _ in g.adj[n]:
            if m not in dist and g.hexes[m] != avoid_hex:
                dist[m] = dist[n] + 1
                queue.append(m)
    return dist


def _first_lines(g: SideGraph, start: int, goals: frozenset[int], avoid_hex: str,
                 dist: dict[int, int], failed: list[int]) -> Iterator[int]:
    """The projections of the simple lines from ``start`` to ``goals`` avoiding ``avoid_hex``,
    nearest branches first; a line (or partial line) whose projection contains one in
    ``failed`` (which the caller extends as candidates fail) is skipped."""
    if start not in dist:
        return
    visited = {start}
    stack: list[tuple[int, int, Iterator[tuple[int, int]]]] = [
        (start, g.bits[start], iter(sorted(g.adj[start], key=lambda s: dist.get(s[0], _FAR))))
    ]
    while stack:
        node, mask, steps = stack[-1]
        step = next(steps, None)
        if step is None:
            visited.discard(node)
            stack.pop()
            continue
        nxt, e = step
        if nxt in visited or nxt not in dist:
            continue
        grown = mask | g.bits[nxt] | g.arc_bits[e]
        if any((grown & f) == f for f in failed):
            continue
        if nxt in goals:
            yield grown
            continue
        visited.add(nxt)
        order = sorted(g.adj[nxt], key=lambda s: dist.get(s[0], _FAR))
        stack.append((nxt, grown, iter(order)))


def mixed_pair(
    g1: SideGraph,
    g2: SideGraph,
    bases: Sequence[StationNode],
    first: Target,
    second: Target,
) -> bool:
    """Whether a line of ``g1``'s gauge from one base reaches ``first`` (without using the first
    lay's tile) while a line of ``g2``'s gauge from another base reaches ``second``, the two
    sharing no tile edge and no track (see the module docstring for the method)."""
    starts2 = {b: g2.station(b) for b in bases}
    for b1 in bases:
        start = g1.station(b1)
        others = [n for b, n in starts2.items() if b != b1 and n is not None]
        if start is None or not others:
            continue
        if second.home is not None and second.home in others:
            if start == first.home or _search(g1, [start], first.entries,
                                              avoid_hex=first.hex):
                return True
            continue
        if not _search(g2, others, second.entries):
            continue
        if start == first.home:
            return True
        failed: list[int] = []
        dist = _distances(g1, first.entries, first.hex)
        for mask in _first_lines(g1, start, first.entries, first.hex, dist, failed):
            if _search(g2, others, second.entries, banned=mask):
                return True
            failed[:] = [f for f in failed if (f & mask) != mask]
            failed.append(mask)
    return False
