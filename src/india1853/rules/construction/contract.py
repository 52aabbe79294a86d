"""Fulfilment of a contract bid: rules 4.3.1 (second edition) and 31.24 (first edition).

The named cities must be joined by track, whoever built it and whatever bases stand on it.
Travellers may change trains at any station and walk between the separate stations of one
large city (not between two towns of one tile), and may change gauge only at a station: along
the track between two stations the line keeps one gauge (dual track serves both).  See
docs/rulings.md, "Contract connections".
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from india1853.board.graph import LINE_GAUGES, Node, StationNode, Track, TrackGraph
from india1853.board.state import BoardState
from india1853.data.model import Gauge


def _city_stations(graph: TrackGraph, hex: str) -> list[StationNode]:
    return [n for n, info in graph.stations.items() if info.hex == hex]


def _walks(graph: TrackGraph) -> dict[StationNode, list[StationNode]]:
    """For each station, the stations a traveller may walk to: every large station of the
    same large city (grouped once, not by comparing every pair of stations)."""
    large: dict[str, list[StationNode]] = {}
    for n, info in graph.stations.items():
        if info.kind == "large":
            large.setdefault(info.city, []).append(n)
    return {
        n: large[info.city] if info.kind == "large" else []
        for n, info in graph.stations.items()
    }


def _connected_stations(
    graph: TrackGraph, start: StationNode,
    walk: dict[StationNode, list[StationNode]] | None = None,
) -> set[StationNode]:
    """Every station joined to ``start`` under the rules of 4.3.1 / 31.24: from each station
    found, its city's other large stations (a walk) and the stations reached along track of
    one gauge without passing a station.  One search for them all:
    where a line goes on from a tile edge depends on the edge, the hex it came from and its
    gauge, not on the station it left, so the track between two stations is followed once
    per gauge, not once from each end."""
    if walk is None:
        walk = _walks(graph)
    found: set[StationNode] = {start}
    stations: deque[StationNode] = deque([start])
    seen: set[tuple[Node, str, Gauge]] = set()

    def arrive(station: StationNode) -> None:
        if station not in found:
            found.add(station)
            stations.append(station)

    # The gauges' track by node, looked up once (this search runs for every pending bid after
    # every lay and promotion).
    by_gauge = [(g, graph._by_gauge[g]) for g in LINE_GAUGES]
    no_tracks: tuple[Track, ...] = ()
    while stations:
        station = stations.popleft()
        for other in walk[station]:
            arrive(other)
        for g, by_node in by_gauge:
            # A station's every track leads on; at a tile edge, not back into the same hex.
            todo: list[tuple[Node, str]] = [(station, "")]
            while todo:
                node, came_from = todo.pop()
                for t in by_node.get(node, no_tracks):
                    if t.hex == came_from:
                        continue
                    nxt = t.b if node == t.a else t.a
                    if nxt[0] == "S":
                        arrive(nxt)
                        continue
                    key = (nxt, t.hex, g)
                    if key not in seen:
                        seen.add(key)
                        todo.append((nxt, t.hex))
    return found


def _joined_hexes(state: BoardState, graph: TrackGraph, start: StationNode) -> frozenset[str]:
    """The hexes of every station joined to ``start``.  Joining is symmetric (a line of one
    gauge can be followed both ways; walking links the stations of one city both ways), so
    the stations fall into classes; each class is found once per board state and kept with
    it, because every pending bid is checked against the same board."""
    classes = state._derived.setdefault("contract_classes", {})
    assert isinstance(classes, dict)
    found = classes.get(start)
    if isinstance(found, frozenset):
        return found
    walk = state._derived.get("contract_walks")
    if not isinstance(walk, dict):
        walk = _walks(graph)
        state._derived["contract_walks"] = walk
    joined = _connected_stations(graph, start, walk)
    hexes = frozenset(graph.stations[n].hex for n in joined)
    for n in joined:
        classes[n] = hexes
    return hexes


def contract_connected(state: BoardState, cities: Iterable[str]) -> bool:
    """Whether every named city (name or hex) is joined to the others (4.3.1 / 31.24)."""
    graph = TrackGraph.build(state)
    hexes = [state.edition.city(c).hex for c in cities]
    if not hexes:
        return True
    starts = _city_stations(graph, hexes[0])
    if not starts:
        return False
    reached = _joined_hexes(state, graph, starts[0])
    return all(h in reached for h in hexes)


def contract_groups(state: BoardState, cities: Iterable[str]) -> list[list[str]]:
    """The named cities split into the groups already joined to one another by track (4.3.1 /
    31.24), in the order named: one group holding them all is a fulfilled contract."""
    graph = TrackGraph.build(state)
    names = list(cities)
    groups: list[list[str]] = []
    placed: set[str] = set()
    for name in names:
        if name in placed:
            continue
        starts = _city_stations(graph, state.edition.city(name).hex)
        reached = _joined_hexes(state, graph, starts[0]) if starts else frozenset()
        group = [name] + [other for other in names if other != name and other not in placed
                          and state.edition.city(other).hex in reached]
        placed.update(group)
        groups.append(group)
    return groups
