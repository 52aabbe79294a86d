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

from india1853.board.graph import LINE_GAUGES, Node, StationNode, TrackGraph
from india1853.board.state import BoardState
from india1853.data.model import Gauge


def _city_stations(graph: TrackGraph, hex: str) -> list[StationNode]:
    return [n for n, info in graph.stations.items() if info.hex == hex]


def _connected_stations(graph: TrackGraph, start: StationNode) -> set[StationNode]:
    """Every station joined to ``start`` under the rules of 4.3.1 / 31.24."""
    walk = {
        n: [m for m, o in graph.stations.items()
            if o.city == info.city and o.kind == "large" == info.kind]
        for n, info in graph.stations.items()
    }
    found: set[StationNode] = set()
    todo: deque[StationNode] = deque([start])
    while todo:
        station = todo.popleft()
        if station in found:
            continue
        found.add(station)
        todo.extend(walk[station])
        for g in LINE_GAUGES:
            todo.extend(_next_stations(graph, station, g))
    return found


def _next_stations(graph: TrackGraph, start: StationNode, gauge: Gauge) -> Iterable[StationNode]:
    """Stations reached from ``start`` along track of one gauge without passing a station."""
    seen: set[tuple[Node, str]] = set()
    todo: deque[tuple[Node, str]] = deque([(start, "")])
    while todo:
        node, came_from = todo.popleft()
        for t in graph.adjacent(node, gauge):
            if node[0] == "E" and t.hex == came_from:
                continue
            nxt = t.other(node)
            if nxt[0] == "S":
                if nxt != start:
                    yield nxt
                continue
            state = (nxt, t.hex)
            if state not in seen:
                seen.add(state)
                todo.append(state)


def contract_connected(state: BoardState, cities: Iterable[str]) -> bool:
    """Whether every named city (name or hex) is joined to the others (4.3.1 / 31.24)."""
    graph = TrackGraph.build(state)
    hexes = [state.edition.city(c).hex for c in cities]
    if not hexes:
        return True
    starts = _city_stations(graph, hexes[0])
    if not starts:
        return False
    joined = _connected_stations(graph, starts[0])
    reached = {graph.stations[n].hex for n in joined}
    return all(h in reached for h in hexes)
