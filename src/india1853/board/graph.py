"""The track graph of a board state, and the lines a company can follow on it.

Nodes are stations ``("S", hex, station_id)`` and tile edges ``("E", hex, side)``; an edge is
named by the (hex, side) pair that sorts first of the two hexes sharing it, so both tiles meet
at one node.  Every piece of track of a tile is one :class:`Track` between two nodes.

Gauge (rules 4.1.5, 4.1.6, 4.2.8 / 31.3, 31.4, 31.18): a line of one gauge may use track of that
gauge or dual track.  Blocking (4.2.9, 4.4.3, 4.5.6, 4.5.7 / 31.19, 32.2, 33.6, 33.7): a station
all of whose slots hold other companies' bases cannot be passed through, though a line may end
there.  Continuity (4.5.5 / 33.5: "without reversing"): a line crosses a tile edge from a track
of one hex to a track of the neighbouring hex, never from one track of a hex back into another
track of the same hex (the merging lines of junction tiles).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from india1853.board.hexes import neighbour, opposite
from india1853.board.state import BoardState
from india1853.board.tiles import map_paths
from india1853.data.model import Gauge, PathEnd, StationKind, TileSpec

StationNode = tuple[Literal["S"], str, str]
EdgeNode = tuple[Literal["E"], str, int]
Node = StationNode | EdgeNode

# A line's gauge: the gauges of track it may use.
USABLE: dict[Gauge, frozenset[Gauge]] = {
    "broad": frozenset({"broad", "dual"}),
    "metre": frozenset({"metre", "dual"}),
    "dual": frozenset({"dual"}),
}
LINE_GAUGES: tuple[Gauge, ...] = ("broad", "metre")


def station_node(hex: str, station_id: str) -> StationNode:
    return ("S", hex, station_id)


def edge_node(hex: str, side: int) -> EdgeNode:
    """The canonical node of the edge on ``side`` of ``hex`` (shared with the neighbour)."""
    across = neighbour(hex, side)
    if across is None:
        return ("E", hex, side)
    other = opposite(side)
    if (across, other) < (hex, side):
        return ("E", across, other)
    return ("E", hex, side)


def side_of(node: EdgeNode, hex: str) -> int:
    """The side of ``hex`` that the edge node lies on."""
    return node[2] if node[1] == hex else opposite(node[2])


@dataclass(frozen=True, slots=True)
class Track:
    """One path of a tile: a piece of track between two nodes."""

    id: int
    hex: str
    a: Node
    b: Node
    gauge: Gauge

    def other(self, node: Node) -> Node:
        return self.b if node == self.a else self.a


@dataclass(frozen=True, slots=True)
class StationInfo:
    """A station on the map.  ``city`` is shared by all stations of one city or town."""

    node: StationNode
    hex: str
    kind: StationKind
    value: int
    slots: int
    city: str


def _node(hex: str, end: PathEnd) -> Node:
    return edge_node(hex, end) if isinstance(end, int) else station_node(hex, end)


def _city_ids(hex: str, tile: TileSpec) -> dict[str, str]:
    """Two small stations on one tile are two towns (4.5.5 / 33.5); any other tile is one city."""
    towns = len(tile.stations) > 1 and all(st.kind == "small" for st in tile.stations)
    return {st.id: (f"{hex}/{st.id}" if towns else hex) for st in tile.stations}


# The line gauges that may use track of each gauge (the inverse of USABLE).
_LINES_USING: dict[Gauge, tuple[Gauge, ...]] = {
    track: tuple(g for g in USABLE if track in USABLE[g]) for track in ("broad", "metre", "dual")
}


PlacedTracks = tuple[tuple[StationInfo, ...], tuple[tuple[Node, Node, Gauge], ...]]


@dataclass
class _PlacedCache:
    """Memo of :func:`_placed_uncached` keyed by (hex, tile id, rotation); each entry keeps
    its tile so that a different tile object with the same id (another edition's data)
    is never served a stale answer.  (Hashing a whole TileSpec per lookup would cost as much
    as the work saved.)"""

    entries: dict[tuple[str, str, int], tuple[TileSpec, PlacedTracks]] = field(
        default_factory=dict)

    def get(self, coord: str, tile: TileSpec, rotation: int) -> PlacedTracks:
        key = (coord, tile.id, rotation)
        found = self.entries.get(key)
        if found is not None and found[0] is tile:
            return found[1]
        value = _placed_uncached(coord, tile, rotation)
        self.entries[key] = (tile, value)
        return value


def _placed_uncached(coord: str, tile: TileSpec, rotation: int) -> PlacedTracks:
    """The stations and the track (as node pairs) of one placed tile: a pure function of its
    arguments, memoised because a board differs from the previous one by a tile or two and
    the graph is rebuilt for every board state."""
    cities = _city_ids(coord, tile)
    stations = tuple(
        StationInfo(station_node(coord, st.id), coord, st.kind, st.value, st.slots,
                    cities[st.id])
        for st in tile.stations
    )
    paths = tuple(
        (_node(coord, path.a), _node(coord, path.b), path.gauge)
        for path in map_paths(tile, rotation)
    )
    return stations, paths


_PLACED = _PlacedCache()


@dataclass
class TrackGraph:
    """All track on the board, with stations and base tokens.  Build with :meth:`build`."""

    tracks: tuple[Track, ...]
    stations: dict[StationNode, StationInfo]
    _incident: dict[Node, tuple[Track, ...]]
    _by_gauge: dict[Gauge, dict[Node, tuple[Track, ...]]]
    _tokens: dict[StationNode, tuple[str, ...]]
    _by_hex: dict[str, tuple[Track, ...]] = field(default_factory=dict)
    # What the layers above work out from this graph alone and keep with it (the router's
    # reduced graphs, which depend on no company): a graph never changes once built.
    derived: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(cls, state: BoardState) -> TrackGraph:
        """The graph of ``state``.  Built once per board state and then shared: the state is
        immutable and no reader changes a graph, and the rules ask for the same board's graph
        many times (contracts, frontier posts, bases, runs)."""
        cached = state._derived.get("track_graph")
        if isinstance(cached, TrackGraph):
            return cached
        graph = cls._grown(state)
        if graph is None:
            graph = cls._build(state)
        state._derived["track_graph"] = graph
        return graph

    @classmethod
    def _grown(cls, state: BoardState) -> TrackGraph | None:
        """The graph of a state made from another by one tile on a new hex, or by a base
        (``BoardState._note_grown_from``), grown from that state's graph if it is built: the
        same graph as :meth:`_build` gives, to the ids and the order of every tuple and dict
        (the new hex is the last of the tiles, so its tracks are the last).  A board changes
        by one lay or base at a time, and rebuilding the whole graph for each was a quarter
        of a checked replay's time."""
        hint = state._derived.pop("grown_from", None)
        if not isinstance(hint, tuple):
            return None
        ref, old, hex, promoted = hint
        if old is None:
            parent = None if ref is None else ref()
            old = None if parent is None else parent._derived.get("track_graph")
        if not isinstance(old, TrackGraph):
            return None
        tokens = _tokens_of(state)
        if promoted:
            assert hex is not None
            return cls._promoted(old, state, hex, tokens)
        if hex is None:
            return cls(old.tracks, old.stations, old._incident, old._by_gauge, tokens,
                       old._by_hex)
        tile, rotation = state.tiles[hex].tile, state.tiles[hex].rotation
        placed_stations, paths = _PLACED.get(hex, state.edition.tiles[tile], rotation)
        stations = dict(old.stations)
        for info in placed_stations:
            stations[info.node] = info
        first = len(old.tracks)
        added = tuple(Track(first + i, hex, a, b, gauge) for i, (a, b, gauge) in enumerate(paths))
        incident = dict(old._incident)
        by_gauge = {g: dict(nodes) for g, nodes in old._by_gauge.items()}
        for t in added:
            ends = (t.a,) if t.b == t.a else (t.a, t.b)
            for n in ends:
                incident[n] = (*incident.get(n, ()), t)
            for g in _LINES_USING[t.gauge]:
                usable = by_gauge[g]
                for n in ends:
                    usable[n] = (*usable.get(n, ()), t)
        by_hex = dict(old._by_hex)
        if added:
            by_hex[hex] = added
        return cls(old.tracks + added, stations, incident, by_gauge, tokens, by_hex)

    @classmethod
    def _promoted(cls, old: TrackGraph, state: BoardState, hex: str,
                  tokens: dict[StationNode, tuple[str, ...]]) -> TrackGraph | None:
        """The graph of a state made from another by a promotion on ``hex`` (the hex keeps
        its place among the tiles), from that state's graph: the same graph as :meth:`_build`
        gives, to the ids and the order of every tuple and dict.  The hex's tracks are
        replaced where they stood and the tracks after them renumbered; only the nodes those
        tracks touch get new tuples.  None (build it anew) where the hex had no track, or where
        more than a third of the tracks follow it (renumbering them costs more than a build)."""
        before = old._by_hex.get(hex, ())
        if not before:
            return None
        first, end = before[0].id, before[-1].id + 1
        if 3 * (len(old.tracks) - end) > len(old.tracks):
            return None
        tile, rotation = state.tiles[hex].tile, state.tiles[hex].rotation
        placed_stations, paths = _PLACED.get(hex, state.edition.tiles[tile], rotation)
        if not placed_stations and any(info.hex == hex for info in old.stations.values()):
            return None
        added = tuple(Track(first + i, hex, a, b, gauge) for i, (a, b, gauge) in enumerate(paths))
        delta = len(added) - (end - first)
        tail = old.tracks[end:]
        moved = tail if not delta else tuple(
            Track(t.id + delta, t.hex, t.a, t.b, t.gauge) for t in tail)
        tracks = old.tracks[:first] + added + moved
        stations: dict[StationNode, StationInfo] = {}
        placed = False
        for node, info in old.stations.items():
            if info.hex != hex:
                stations[node] = info
            elif not placed:
                placed = True
                for new_info in placed_stations:
                    stations[new_info.node] = new_info
        if placed_stations and not placed:
            return None  # the hex had no station: the new ones' place is not known
        # The nodes whose tuples change: the hex's old and new tracks', and the renumbered.
        here: dict[Node, list[Track]] = {}
        for t in added:
            for n in ((t.a,) if t.b == t.a else (t.a, t.b)):
                here.setdefault(n, []).append(t)
        affected: set[Node] = set(here)
        for t in (*before, *(tail if delta else ())):
            affected.add(t.a)
            affected.add(t.b)
        renumbered = _Renumbered(first, end, moved)
        incident = renumbered.nodes(old._incident, affected, here)
        by_gauge = {
            g: renumbered.nodes(nodes, affected, {
                n: [t for t in ts if g in _LINES_USING[t.gauge]] for n, ts in here.items()})
            for g, nodes in old._by_gauge.items()
        }
        by_hex = renumbered.hexes(old._by_hex, hex, added)
        return cls(tracks, stations, incident, by_gauge, tokens, by_hex)

    @classmethod
    def _build(cls, state: BoardState) -> TrackGraph:
        """The graph built anew: the tiles' tracks numbered in the order of the tiles, each
        dict's keys in the order of the first track touching them (end ``a`` before ``b``).
        One pass per tile, each node's lists looked up once per track end (a promotion of an
        early hex and every board made otherwise are built so)."""
        tracks: list[Track] = []
        stations: dict[StationNode, StationInfo] = {}
        incident: dict[Node, list[Track]] = {}
        by_hex: dict[str, tuple[Track, ...]] = {}
        usable: dict[Gauge, dict[Node, list[Track]]] = {g: {} for g in USABLE}
        # Per track gauge, the dicts of the line gauges that may use it.
        using = {gauge: (incident, *(usable[g] for g in lines))
                 for gauge, lines in _LINES_USING.items()}
        tiles = state.edition.tiles
        for coord, placed in state.tiles.items():
            placed_stations, paths = _PLACED.get(coord, tiles[placed.tile], placed.rotation)
            for info in placed_stations:
                stations[info.node] = info
            if not paths:
                continue
            first = len(tracks)
            here = tuple(Track(first + i, coord, a, b, gauge)
                         for i, (a, b, gauge) in enumerate(paths))
            tracks.extend(here)
            by_hex[coord] = here
            for t in here:
                ends = (t.a,) if t.b == t.a else (t.a, t.b)
                for nodes in using[t.gauge]:
                    for n in ends:
                        found = nodes.get(n)
                        if found is None:
                            nodes[n] = [t]
                        else:
                            found.append(t)
        by_gauge: dict[Gauge, dict[Node, tuple[Track, ...]]] = {
            g: {n: tuple(ts) for n, ts in nodes.items()} for g, nodes in usable.items()
        }
        return cls(
            tuple(tracks),
            stations,
            {n: tuple(ts) for n, ts in incident.items()},
            by_gauge,
            _tokens_of(state),
            by_hex,
        )

    def incident(self, node: Node) -> tuple[Track, ...]:
        """Every track ending at ``node``, whatever its gauge."""
        return self._incident.get(node, ())

    def adjacent(self, node: Node, gauge: Gauge) -> tuple[Track, ...]:
        """Tracks at ``node`` usable by a line of ``gauge``: that gauge or dual (4.2.8 / 31.18)."""
        return self._by_gauge[gauge].get(node, ())

    def tracks_in(self, hex: str) -> tuple[Track, ...]:
        return self._by_hex.get(hex, ())

    def tokens(self, node: StationNode) -> tuple[str, ...]:
        """Initials of the companies with a base on this station."""
        return self._tokens.get(node, ())

    def blocked_for(self, node: StationNode, company: str) -> bool:
        """Rules 4.2.9, 4.5.6 / 31.19, 33.6: every slot holds another company's base."""
        info = self.stations.get(node)
        if info is None or info.slots == 0:
            return False
        others = sum(1 for c in self.tokens(node) if c != company)
        return others >= info.slots and company not in self.tokens(node)

    def base_nodes(self, company: str) -> tuple[StationNode, ...]:
        return tuple(n for n, cs in self._tokens.items() if company in cs)


def _first_id(item: tuple[object, tuple[Track, ...]]) -> int:
    return item[1][0].id


@dataclass(frozen=True)
class _Renumbered:
    """A promotion's tracks in a graph's tuples (:meth:`TrackGraph._promoted`): the tracks
    ``first``..``end - 1`` (the hex's) replaced, those from ``end`` on by ``moved``.

    A graph's dicts hold their keys in the order :meth:`TrackGraph._build` inserts them, by
    the first track touching each (a track's end ``a`` before its end ``b``), so the keys
    whose first track precedes the hex keep their places - a prefix, found by bisection -
    and only the others are put in order again."""

    first: int
    end: int
    moved: tuple[Track, ...]

    def tracks(self, found: tuple[Track, ...], here: Iterable[Track]) -> tuple[Track, ...]:
        first, end, moved = self.first, self.end, self.moved
        return (*(t for t in found if t.id < first), *here,
                *(moved[t.id - end] for t in found if t.id >= end))

    def nodes(self, old: dict[Node, tuple[Track, ...]], affected: set[Node],
              here: dict[Node, list[Track]]) -> dict[Node, tuple[Track, ...]]:
        items = list(old.items())
        k = bisect_left(items, self.first, key=_first_id)
        out = dict(items[:k])
        # The keys after the prefix, whether their tracks change or not, then the new ones.
        later: dict[Node, tuple[Track, ...]] = {
            n: found for n, found in items[k:] if n not in affected}
        for n in affected:
            found = self.tracks(old.get(n, ()), here.get(n, ()))
            if n in out:
                if found:
                    out[n] = found
                else:
                    del out[n]
            elif found:
                later[n] = found

        def place(item: tuple[Node, tuple[Track, ...]]) -> tuple[int, bool]:
            return item[1][0].id, item[1][0].a != item[0]
        out.update(sorted(later.items(), key=place))
        return out

    def hexes(self, old: dict[str, tuple[Track, ...]], hex: str,
              added: tuple[Track, ...]) -> dict[str, tuple[Track, ...]]:
        items = list(old.items())
        k = bisect_left(items, self.first, key=_first_id)
        out = dict(items[:k])
        if added:
            out[hex] = added
        for h, found in items[k + 1:]:
            out[h] = tuple(self.moved[t.id - self.end] for t in found)
        return out


def _tokens_of(state: BoardState) -> dict[StationNode, tuple[str, ...]]:
    """The companies with a base on each station, in the order of the bases."""
    tokens: dict[StationNode, list[str]] = {}
    for b in state.bases:
        if b.station is not None:
            tokens.setdefault(station_node(b.hex, b.station), []).append(b.company)
    return {n: tuple(cs) for n, cs in tokens.items()}


# --- lines: continuous track of one gauge from a company's bases ---------------------------

# A search state: the node reached and the hex of the track that reached it ("" at a start
# station).  Edge nodes need the hex so that a line never turns back into the same tile.
State = tuple[Node, str]


@dataclass(frozen=True)
class Reach:
    """Where a company's lines of one gauge go (rules 4.1.6, 4.4.6 / 31.4, 32.5).

    ``arrivals`` maps every node reached to the hexes of the tracks that reached it (the empty
    string for the bases themselves); ``tracks`` holds the ids of every track on such a line.
    """

    gauge: Gauge
    arrivals: dict[Node, set[str]]
    tracks: frozenset[int]

    def reached_from_outside(self, node: EdgeNode, hex: str) -> bool:
        """Whether a line arrives at this edge of ``hex`` along a track of another hex."""
        return any(h != hex for h in self.arrivals.get(node, ()))


def reach(
    graph: TrackGraph,
    company: str,
    gauge: Gauge,
    *,
    sources: Iterable[StationNode] | None = None,
    usable: Callable[[Track], bool] | None = None,
) -> Reach:
    """Every node a line of ``gauge`` from the company's bases can reach.

    The line may end at a station blocked by other companies' bases but not pass it; it never
    changes gauge (a base where gauges meet is itself a source, rule 4.2.6 / 31.16).
    """
    starts = list(graph.base_nodes(company) if sources is None else sources)
    arrivals: dict[Node, set[str]] = {n: {""} for n in starts}
    seen: set[State] = {(n, "") for n in starts}
    used: set[int] = set()
    queue: deque[State] = deque(seen)
    # The steps written out (no generator per node): this loop runs for every company's lines on
    # every board (lays, frontier posts, bases), and a generator per node cost a third of it.
    by_node = graph._by_gauge[gauge]
    no_tracks: tuple[Track, ...] = ()
    while queue:
        state = queue.popleft()
        node, came_from = state
        if node[0] == "S":
            if came_from and graph.blocked_for(node, company):
                continue
            came_from = ""  # every track of a station leads on
        for t in by_node.get(node, no_tracks):
            if t.hex == came_from or (usable is not None and not usable(t)):
                continue
            used.add(t.id)
            nxt = (t.b if node == t.a else t.a, t.hex)
            if nxt not in seen:
                seen.add(nxt)
                arrivals.setdefault(nxt[0], set()).add(nxt[1])
                queue.append(nxt)
    return Reach(gauge, arrivals, frozenset(used))
