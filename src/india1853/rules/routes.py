"""Train runs: the route model, the literal rules checker and the route file format.

A route is a path in the track graph (:mod:`india1853.board.graph`): a sequence of nodes
(stations and tile edges) joined by pieces of track.  :func:`check_routes` applies the running
rules one by one, exactly as written, and either returns the revenue or raises a
:class:`~india1853.errors.RuleError` naming the rule and the hex where it is broken.  It is the
referee for routes proposed by a Director (``india1853 routes --check``), for the optimal
router's answers, and for the brute-force oracle of the tests.

Rules: second edition 4.5 (running trains), 4.6.2-4.6.3 and 4.6.6 (revenue, mail), 4.8.18 ('1M'
trains), 4.2.3 / 4.4.2 (duties); first edition 33, 34.2-34.3, 34.6.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar, cast

from india1853.board.hexes import neighbour, opposite, parse_coord, side_between
from india1853.data.model import Edition, TrainSpec
from india1853.data.model import TrainGauge as TrainGauge
from india1853.errors import DataError, InputError, RuleError

_T = TypeVar("_T")

Gauge = Literal["broad", "metre", "dual"]
StationNode = tuple[Literal["S"], str, str]
EdgeNode = tuple[Literal["E"], str, int]
Node = StationNode | EdgeNode


class TrackLike(Protocol):
    """One piece of track (a tile path), as :class:`india1853.board.graph.Track` provides."""

    @property
    def id(self) -> int: ...
    @property
    def hex(self) -> str: ...
    @property
    def a(self) -> Node: ...
    @property
    def b(self) -> Node: ...
    @property
    def gauge(self) -> Gauge: ...


class StationLike(Protocol):
    """A station, as :class:`india1853.board.graph.StationInfo` provides."""

    @property
    def node(self) -> StationNode: ...
    @property
    def hex(self) -> str: ...
    @property
    def kind(self) -> Literal["small", "large"]: ...
    @property
    def value(self) -> int: ...
    @property
    def slots(self) -> int: ...
    @property
    def city(self) -> str: ...


class RouteGraph(Protocol):
    """The part of :class:`india1853.board.graph.TrackGraph` that routes need."""

    @property
    def tracks(self) -> Sequence[TrackLike]: ...
    @property
    def stations(self) -> Mapping[StationNode, StationLike]: ...
    def adjacent(self, node: Node, gauge: Gauge) -> Sequence[TrackLike]: ...
    def tokens(self, station_node: StationNode) -> Sequence[str]: ...
    def blocked_for(self, station_node: StationNode, company: str) -> bool: ...
    def base_nodes(self, company: str) -> Sequence[StationNode]: ...


@dataclass(frozen=True, slots=True)
class Train:
    """A train as far as running is concerned.

    ``large`` is the train number: the most Large Stations a run may include (4.5.4 / 33.4).
    ``min_stations`` is the fewest stations a run includes (4.5.4 / 33.4, the edition's
    ``rules.route_min_stations``); ``min_small`` the fewest Small Stations (the train's
    ``min_small_stations``: 4.8.18 b for a '1M').  ``one_m`` marks the minor companies' '1M'
    train (4.8.18 b): exactly one Large Station, holding one of the company's bases.  The
    minimums come from the edition's data (:meth:`named`), never from this code.
    """

    name: str
    gauge: TrainGauge
    large: int
    min_stations: int
    min_small: int
    one_m: bool

    @staticmethod
    def from_spec(spec: TrainSpec, route_min_stations: int) -> Train:
        """The running rules of an edition's train type (``ed.trains``), with the edition's
        fewest stations of a run (``ed.rules.route_min_stations``)."""
        return Train(spec.name, spec.gauge, spec.large_stations, route_min_stations,
                     spec.min_small_stations, spec.large_station_needs_base)

    @staticmethod
    def named(edition: Edition, name: str) -> Train:
        """The train type ``name`` of ``edition`` (e.g. "3", "2M", "1M")."""
        try:
            return Train.from_spec(edition.trains.get(name), edition.rules.route_min_stations)
        except DataError as exc:
            raise InputError(str(exc)) from None


def _node_hexes(node: Node) -> tuple[str, ...]:
    """The hexes a node lies in: a station's hex; both hexes of a tile edge."""
    if node[0] == "S":
        return (node[1],)
    across = neighbour(node[1], node[2])
    return (node[1],) if across is None else (node[1], across)


def track_hex(a: Node, b: Node) -> str:
    """The hex of the piece of track joining nodes ``a`` and ``b`` (the one hex both lie in;
    a track's two ends are always on its own tile)."""
    here = _node_hexes(a)
    there = set(_node_hexes(b))
    for hex_ in here:
        if hex_ in there:
            return hex_
    return here[0]


@dataclass(frozen=True, slots=True)
class Route:
    """One train's run: ``nodes`` from end to end, ``tracks`` the track ids between them."""

    train: Train
    nodes: tuple[Node, ...]
    tracks: tuple[int, ...]
    mail: bool = False

    @property
    def stations(self) -> tuple[StationNode, ...]:
        return tuple(n for n in self.nodes if n[0] == "S")

    @property
    def hexes(self) -> tuple[str, ...]:
        """The hexes the run passes, in order, each once per visit: the hex of every piece of
        track (a hex with no station visited included), as the route-file form lists them."""
        out: list[str] = []
        for k in range(len(self.tracks)):
            hex_ = track_hex(self.nodes[k], self.nodes[k + 1])
            if not out or out[-1] != hex_:
                out.append(hex_)
        if not out and self.nodes:
            out.append(self.nodes[0][1])
        return tuple(out)


@dataclass(frozen=True, slots=True)
class RouteValue:
    """What one route earns: ``revenue`` (4.6.2) and ``mail`` (4.6.6, 0 unless nominated)."""

    route: Route
    revenue: int
    mail: int


@dataclass(frozen=True, slots=True)
class RunValue:
    """A company's whole run: per-route values and the totals.

    ``revenue`` is the train earnings (dividend or retained, 4.6.4); ``mail`` the Government
    Mail sum, always paid to the company (4.6.6); ``total`` both.
    """

    routes: tuple[RouteValue, ...]

    @property
    def revenue(self) -> int:
        return sum(r.revenue for r in self.routes)

    @property
    def mail(self) -> int:
        return sum(r.mail for r in self.routes)

    @property
    def total(self) -> int:
        return self.revenue + self.mail


def _where(node: Node) -> str:
    return node[1]


def _label(index: int, route: Route) -> str:
    return f"route {index + 1} (train {route.train.name})"


def _kept(graph: RouteGraph, key: str, make: Callable[[RouteGraph], _T]) -> _T:
    """``make(graph)``, kept with a track graph (its ``derived``: a graph never changes once
    built) so that every run checked on one board shares it; made anew for a graph without."""
    derived = getattr(graph, "derived", None)
    if not isinstance(derived, dict):
        return make(graph)
    found = derived.get(key)
    if found is None:
        found = derived[key] = make(graph)
    return cast(_T, found)


def _track_index(graph: RouteGraph) -> Mapping[int, TrackLike]:
    return _kept(graph, "routes_track_index", _make_track_index)


def _make_track_index(graph: RouteGraph) -> dict[int, TrackLike]:
    return {t.id: t for t in graph.tracks}


def check_continuity(i: int, route: Route, tracks: Mapping[int, TrackLike]) -> None:
    """4.5.5 / 33.5: the run is continuous: each track joins the nodes either side of it."""
    if len(route.tracks) != len(route.nodes) - 1:
        raise InputError(f"{_label(i, route)}: needs one track between each pair of nodes")
    for k, tid in enumerate(route.tracks):
        track = tracks.get(tid)
        here, there = route.nodes[k], route.nodes[k + 1]
        if track is None:
            raise RuleError("4.5.5", f"{_label(i, route)}: no track {tid} at {_where(here)}")
        if {track.a, track.b} != {here, there} or here == there:
            raise RuleError(
                "4.5.5",
                f"{_label(i, route)}: run is not continuous at {_where(here)}",
            )


def check_ends(i: int, route: Route, graph: RouteGraph) -> None:
    """4.5.4 / 33.4: a run starts and ends at stations and includes at least the edition's
    ``route_min_stations`` (two in both editions; docs/rulings.md)."""
    first, last = route.nodes[0], route.nodes[-1]
    for node in (first, last):
        if node[0] != "S" or node not in graph.stations:
            raise RuleError("4.5.4", f"{_label(i, route)}: must end at a station, not at "
                            f"{_where(node)}")
    fewest = route.train.min_stations
    if len(route.stations) < fewest:
        raise RuleError("4.5.4", f"{_label(i, route)}: a run includes at least {fewest} "
                        f"stations (at {_where(first)})")


def check_gauge(i: int, route: Route, tracks: Mapping[int, TrackLike]) -> None:
    """4.5.3 / 33.3: all track is of the train's gauge or dual gauge."""
    for tid in route.tracks:
        track = tracks[tid]
        if track.gauge not in (route.train.gauge, "dual"):
            raise RuleError("4.5.3", f"{_label(i, route)}: {track.gauge} gauge track at "
                            f"{track.hex} cannot carry a {route.train.gauge} gauge train")


def check_no_repeats(i: int, route: Route, graph: RouteGraph) -> None:
    """4.5.5, 4.5.8, 4.5.10 / 33.5, 33.8, 33.10: no reversing, no track or tile edge used twice,
    no two visits to one city (Delhi's stations are one city; a two-town tile's are two)."""
    seen_nodes: set[Node] = set()
    seen_cities: set[str] = set()
    for node in route.nodes:
        # A station met again is a second visit to its city (4.5.5), whatever track led
        # back to it; only a tile edge met again means track used twice (4.5.8).
        if node[0] == "S":
            city = graph.stations[node].city
            if city in seen_cities:
                raise RuleError("4.5.5", f"{_label(i, route)}: visits the city at "
                                f"{_where(node)} twice")
            seen_cities.add(city)
        elif node in seen_nodes:
            raise RuleError("4.5.8", f"{_label(i, route)}: uses the same track twice at "
                            f"{_where(node)}")
        seen_nodes.add(node)
    check_junction_once(i, route, graph)
    if len(set(route.tracks)) != len(route.tracks):
        raise RuleError("4.5.8", f"{_label(i, route)}: uses the same track twice")


def junction_hexes(graph: RouteGraph) -> frozenset[str]:
    """The hexes of junction tiles: tiles without a station on which two lines meet at a tile
    edge (green 80-86, brown 106-108, grey 112).  4.2.5 / 31.15: trains run through the brown
    and grey ones "as if they were Stations but without scoring" (docs/rulings.md)."""
    return _kept(graph, "routes_junction_hexes", _junction_hexes)


def _junction_hexes(graph: RouteGraph) -> frozenset[str]:
    with_station = {info.hex for info in graph.stations.values()}
    met: set[tuple[str, Node]] = set()  # (hex, node) where a track of the hex ends
    out: set[str] = set()
    for t in graph.tracks:
        hex_ = t.hex
        if hex_ in with_station or hex_ in out:
            continue
        one, two = (hex_, t.a), (hex_, t.b)
        if one in met or (two in met and two != one):
            out.add(hex_)  # two of its tracks meet at a node
        met.add(one)
        met.add(two)
    return frozenset(out)


def check_junction_once(i: int, route: Route, graph: RouteGraph) -> None:
    """4.2.5 / 31.15 with 4.5.5 / 33.5: a junction tile is run through as if it were a
    Station, so one run passes it at most once, even on different lines (two runs may meet
    there on different lines, 4.5.10)."""
    junctions = junction_hexes(graph)
    if not junctions:
        return
    # The hexes a run passes are those of its tracks (a track joins two nodes of its own
    # tile): a run with no track on a junction passes none, and needs no count.
    tracks = _track_index(graph)
    if all(t in tracks and tracks[t].hex not in junctions for t in route.tracks):
        return
    visits = Counter(h for h in route.hexes if h in junctions)
    for hex_ in sorted(h for h, n in visits.items() if n > 1):
        if hex_ in junctions:
            raise RuleError("4.5.5", f"{_label(i, route)}: passes the junction at {hex_} "
                            "twice (4.2.5: a junction is run through as a station, and a "
                            "run visits a station once)")


def check_no_reversing(i: int, route: Route, tracks: Mapping[int, TrackLike]) -> None:
    """4.5.5 / 33.5 "without reversing", 4.5.10 / 33.10: at a tile edge a run passes from one
    tile into the next; turning back into the same tile (from one merging line of a junction
    into the other) is reversing."""
    for k in range(1, len(route.nodes) - 1):
        if route.nodes[k][0] == "E":
            before, after = tracks[route.tracks[k - 1]], tracks[route.tracks[k]]
            if before.hex == after.hex:
                raise RuleError("4.5.5", f"{_label(i, route)}: reverses at the edge of "
                                f"{before.hex}")


def check_not_blocked(i: int, route: Route, graph: RouteGraph, company: str) -> None:
    """4.5.6-4.5.7 / 33.6-33.7: no passing through a station full of other companies' bases."""
    for node in route.nodes[1:-1]:
        if node[0] == "S" and graph.blocked_for(node, company):
            raise RuleError("4.5.6", f"{_label(i, route)}: cannot pass the station at "
                            f"{_where(node)}, fully occupied by other companies' bases")


def check_base(i: int, route: Route, graph: RouteGraph, company: str) -> None:
    """4.5.2 / 33.2: each run includes at least one of the company's bases."""
    if not any(company in graph.tokens(s) for s in route.stations):
        raise RuleError("4.5.2", f"{_label(i, route)}: includes no base of {company} "
                        f"(from {_where(route.nodes[0])})")


def check_station_count(i: int, route: Route, graph: RouteGraph, company: str) -> None:
    """4.5.4 / 33.4: at most N Large Stations for an 'N' train; any number of Small ones.

    4.8.18 b: a '1M' train runs through exactly one Large Station, which holds one of the
    company's bases, and at least its ``min_small_stations`` Small Stations (one).
    """
    large = [s for s in route.stations if graph.stations[s].kind == "large"]
    if route.train.one_m and (len(large) != 1 or company not in graph.tokens(large[0])):
        where = _where(large[1] if len(large) > 1 else route.nodes[0])
        raise RuleError("4.8.18", f"{_label(i, route)}: a 1M train runs through exactly "
                        f"one Large Station holding a base of {company} (at {where})")
    fewest = route.train.min_small
    if len(route.stations) - len(large) < fewest:
        raise RuleError("4.8.18", f"{_label(i, route)}: a {route.train.name} train needs at "
                        f"least {fewest} Small Station(s) (from {_where(route.nodes[0])})")
    if route.train.one_m:
        return
    if len(large) > route.train.large:
        raise RuleError("4.5.4", f"{_label(i, route)}: Large Station at "
                        f"{_where(large[route.train.large])} is one more than a "
                        f"{route.train.name} train may run to")


def route_value(route: Route, graph: RouteGraph) -> RouteValue:
    """4.6.2-4.6.3 / 34.2-34.3: every station visited scores; 4.6.6 / 34.6: the mail train
    also earns its two end stations."""
    revenue = sum(graph.stations[s].value for s in route.stations)
    mail = 0
    if route.mail:
        mail = graph.stations[route.nodes[0]].value  # type: ignore[index]
        mail += graph.stations[route.nodes[-1]].value  # type: ignore[index]
    return RouteValue(route, revenue, mail)


def resources(route: Route, tracks: Mapping[int, TrackLike]) -> set[object]:
    """What a run consumes: its track pieces and the tile edges it crosses (4.5.10)."""
    out: set[object] = set(route.tracks)
    out.update(n for n in route.nodes if n[0] == "E")
    return out


def check_separate(routes: Sequence[Route], tracks: Mapping[int, TrackLike]) -> None:
    """4.5.10 / 33.10: a company's runs share no track piece and no tile edge (a junction's
    merged edge is one piece of track); they may meet or cross at stations."""
    # A run's own repeats are check_no_repeats's: with one run nothing is shared (the
    # checker's every judgement of a lone run, the oracle's thousands a position among them).
    if len(routes) < 2:
        return
    used: dict[object, int] = {}
    for i, route in enumerate(routes):
        mine: list[object] = []
        for k, tid in enumerate(route.tracks):
            ends = [n for n in (route.nodes[k], route.nodes[k + 1]) if n[0] == "E"]
            for item in (tid, *ends):
                if item in used:
                    j = used[item]
                    raise RuleError("4.5.10", f"{_label(i, route)}: shares track at "
                                    f"{tracks[tid].hex} with {_label(j, routes[j])}")
                mine.append(item)
        for item in mine:
            used[item] = i


def check_trains(routes: Sequence[Route], trains: Sequence[Train]) -> None:
    """4.5.1 / 33.1: each train runs once; only trains able to run this turn (a train bought
    this turn is not among ``trains``).  4.6.6 / 34.6: at most one mail train."""
    owned = Counter(trains)
    running = Counter(r.train for r in routes)
    for train, count in sorted(running.items(), key=lambda kv: kv[0].name):
        if count > owned[train]:
            raise RuleError("4.5.1", f"train {train.name} runs {count} times but the company "
                            f"has {owned[train]} able to run this turn")
    if sum(r.mail for r in routes) > 1:
        raise RuleError("4.6.6", "only one train may be nominated as the Government Mail")


def check_duties(routes: Sequence[Route], tracks: Mapping[int, TrackLike],
                 duties: Iterable[str]) -> None:
    """4.2.3 / 4.4.2: a tile promoted, or a base placed, outside the company's area in Phase 5
    must be on one of this turn's runs."""
    covered = {tracks[t].hex for r in routes for t in r.tracks}
    for hex_ in sorted(set(duties)):
        if hex_ not in covered:
            raise RuleError("4.2.3 / 4.4.2", f"the tile at {hex_} (promoted or given a base "
                            "outside the company's area) must be on one of this turn's runs")


def check_routes(graph: RouteGraph, company: str, trains: Sequence[Train],
                 routes: Sequence[Route], duties: Iterable[str] = ()) -> RunValue:
    """Check a company's proposed runs against every running rule and value them.

    ``trains`` are the company's trains able to run this turn (4.5.1: not those bought this
    turn); ``duties`` the hexes that must be on a run (4.2.3 / 4.4.2).  Raises
    :class:`RuleError` naming the first broken rule and its hex.
    """
    tracks = _track_index(graph)
    check_trains(routes, trains)
    for i, route in enumerate(routes):
        if not route.nodes:
            raise InputError(f"{_label(i, route)}: empty route")
        check_continuity(i, route, tracks)
        check_ends(i, route, graph)
        check_gauge(i, route, tracks)
        check_no_repeats(i, route, graph)
        check_no_reversing(i, route, tracks)
        check_not_blocked(i, route, graph, company)
        check_base(i, route, graph, company)
        check_station_count(i, route, graph, company)
    check_separate(routes, tracks)
    check_duties(routes, tracks, duties)
    return RunValue(tuple(route_value(r, graph) for r in routes))


# ---------------------------------------------------------------------------------------------
# Route files: a human-writable description of runs (documented in docs/routes.md).


def edge_node(hex_: str, side: int) -> EdgeNode:
    """The canonical node of a tile edge, shared by the two hexes that meet there."""
    other = neighbour(hex_, side)
    if other is not None and (other, opposite(side)) < (hex_, side):
        return ("E", other, opposite(side))
    return ("E", hex_, side)


def _parse_stop(text: object, field: str) -> tuple[str, tuple[str, ...]]:
    if not isinstance(text, str):
        raise InputError(f"{field}: expected a hex such as \"J28\" or \"J28:st1\"")
    hex_text, _, stations = text.partition(":")
    try:
        hex_ = parse_coord(hex_text)
    except InputError as exc:
        raise InputError(f"{field}: {exc}") from None
    ids = tuple(s.strip() for s in stations.split(",") if s.strip()) if stations else ()
    return hex_, ids


def _local_paths(graph: RouteGraph, hex_: str, start: Node | None, end: Node | None,
                 ) -> list[tuple[tuple[Node, ...], tuple[int, ...]]]:
    """Every way through one hex from ``start`` to ``end`` (None: from/to any of its
    stations), passing only through that hex's stations."""
    tracks_in = getattr(graph, "tracks_in", None)  # a TrackGraph's tracks by hex
    local = (list(tracks_in(hex_)) if tracks_in is not None
             else [t for t in graph.tracks if t.hex == hex_])
    by_node: dict[Node, list[TrackLike]] = {}
    for t in local:
        by_node.setdefault(t.a, []).append(t)
        by_node.setdefault(t.b, []).append(t)
    starts: list[Node] = [start] if start is not None else sorted(
        n for n in by_node if n[0] == "S")
    found: list[tuple[tuple[Node, ...], tuple[int, ...]]] = []

    def walk(nodes: list[Node], tids: list[int]) -> None:
        here = nodes[-1]
        if end is not None and here == end:
            found.append((tuple(nodes), tuple(tids)))
            return
        if end is None and here[0] == "S" and len(nodes) > 1:
            found.append((tuple(nodes), tuple(tids)))
        if len(nodes) > 1 and here[0] == "E":
            return
        for t in sorted(by_node.get(here, []), key=lambda t: t.id):
            there = t.b if t.a == here else t.a
            if there not in nodes:
                walk([*nodes, there], [*tids, t.id])

    for s in starts:
        walk([s], [])
    return found


def resolve_route(graph: RouteGraph, train: Train, stops: Sequence[object], mail: bool,
                  field: str) -> Route:
    """Turn a list of hexes (``"J28"``, or ``"J28:st1,st2"`` naming the stations visited
    there) into a :class:`Route`."""
    if not stops:
        raise InputError(f"{field}.hexes: a run needs at least one hex")
    parsed = [_parse_stop(s, f"{field}.hexes[{k}]") for k, s in enumerate(stops)]
    nodes: list[Node] = []
    tids: list[int] = []
    for k, (hex_, ids) in enumerate(parsed):
        entry = exit_ = None
        if k > 0:
            side = side_between(hex_, parsed[k - 1][0])
            if side is None:
                raise InputError(f"{field}.hexes[{k}]: {hex_} is not next to "
                                 f"{parsed[k - 1][0]}")
            entry = edge_node(hex_, side)
        if k + 1 < len(parsed):
            side = side_between(hex_, parsed[k + 1][0])
            if side is None:
                raise InputError(f"{field}.hexes[{k + 1}]: {parsed[k + 1][0]} is not next to "
                                 f"{hex_}")
            exit_ = edge_node(hex_, side)
        options = _local_paths(graph, hex_, entry, exit_)
        if ids:
            options = [o for o in options
                       if tuple(n[2] for n in o[0] if n[0] == "S") == ids]
        elif len(options) > 1:
            gauged = [o for o in options if all(
                _track_index(graph)[t].gauge in (train.gauge, "dual") for t in o[1])]
            options = gauged or options
        if not options and k == len(parsed) - 1 and k > 0:
            raise RuleError("4.5.4", f"{field}: a run ends at a station; none at {hex_} on "
                            "this line")
        if not options:
            raise RuleError("4.5.5", f"{field}: no track through {hex_} on this run "
                            "(run is not continuous)")
        if len(options) > 1:
            names = sorted({",".join(str(n[2]) for n in o[0] if n[0] == "S") for o in options})
            raise InputError(f"{field}: several ways through {hex_}; name the stations, e.g. "
                             f"\"{hex_}:{names[-1] or names[0]}\"")
        local_nodes, local_tids = options[0]
        nodes.extend(local_nodes if not nodes else local_nodes[1:])
        tids.extend(local_tids)
    return Route(train, tuple(nodes), tuple(tids), mail)


def parse_route_file(data: object, graph: RouteGraph, trains: Sequence[Train]
                     ) -> tuple[str, tuple[Route, ...]]:
    """Read a route file (see docs/routes.md): ``{"company": "EIR", "routes": [{"train": "3",
    "hexes": ["F14", "G15", ...], "mail": true}, ...]}``.  Returns (company, routes)."""
    if not isinstance(data, dict):
        raise InputError("route file: expected a JSON object with company and routes")
    company = data.get("company")
    if not isinstance(company, str):
        raise InputError("route file: company must be a company's initials")
    raw = data.get("routes")
    if not isinstance(raw, list):
        raise InputError("route file: routes must be a list")
    by_name: dict[str, Train] = {}
    for t in trains:
        by_name.setdefault(t.name, t)
    out: list[Route] = []
    for i, item in enumerate(raw):
        field = f"routes[{i}]"
        if not isinstance(item, dict):
            raise InputError(f"{field}: expected an object with train and hexes")
        name = item.get("train")
        if not isinstance(name, str | int) or str(name) not in by_name:
            raise RuleError("4.5.1", f"{field}.train: {company} has no train {name!r} able to "
                            "run this turn")
        mail = item.get("mail", False)
        if not isinstance(mail, bool):
            raise InputError(f"{field}.mail: expected true or false")
        hexes = item.get("hexes")
        if not isinstance(hexes, list):
            raise InputError(f"{field}.hexes: expected a list of hexes")
        out.append(resolve_route(graph, by_name[str(name)], hexes, mail, field))
    return company, tuple(out)


def route_to_json(route: Route, graph: RouteGraph) -> dict[str, Any]:
    """A route in the route-file form (the hexes passed, with the stations visited in each),
    re-readable by :func:`parse_route_file`."""
    tracks = _track_index(graph)
    visits: list[tuple[str, list[str]]] = []
    for k, tid in enumerate(route.tracks):
        hex_ = tracks[tid].hex
        if not visits or visits[-1][0] != hex_:
            visits.append((hex_, []))
            start = route.nodes[k]
            if start[0] == "S":
                visits[-1][1].append(start[2])
        end = route.nodes[k + 1]
        if end[0] == "S":
            visits[-1][1].append(end[2])
    hexes = [f"{h}:{','.join(ids)}" if ids else h for h, ids in visits]
    return {"train": route.train.name, "hexes": hexes, "mail": route.mail}
