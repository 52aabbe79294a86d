"""The optimal router: the company's best run, with a certificate of optimality.

The search has three stages (described in full in docs/routes.md):

1. **Reduce** the track graph per train gauge: chains of tile edges with one track on each side
   collapse into a single *link* that carries the set of resources it consumes (tile edges and
   station-to-station tracks, rule 4.5.10 / 33.10).  Stations and junction edges (where lines
   merge at a tile edge) stay as nodes.  Edges where a line could only turn back into the same
   tile are dead ends (4.5.5 / 33.5: no reversing).
2. **Enumerate** every legal run of each gauge: simple paths between stations through at least
   one company base (4.5.2), with at most N Large Stations (4.5.4), never two stations of one
   city (4.5.5), never past a blocked station (4.5.6).  A run is grown as two *arms* from the
   lowest-ranked base it contains, so each run is generated exactly once.
3. **Branch and bound** over the trains: each train takes one of its candidate runs (or none),
   runs pairwise share no resource (4.5.10), one of them may carry the mail (4.6.6), every duty
   hex is covered (4.2.3 / 4.4.2).  The bound is the sum of each remaining train's best run
   compatible with the resources already used plus the best mail gain; the search is exhaustive
   (no caps, no time limit), so the value found is the optimum, and the certificate records the
   largest bound of any pruned subtree, which never exceeds it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from india1853.errors import RuleError
from india1853.rules.routes import (
    Node,
    Route,
    RouteGraph,
    RunValue,
    TrackLike,
    Train,
    TrainGauge,
    check_routes,
)

# ---------------------------------------------------------------------------------------------
# Stage 1: the reduced graph.


@dataclass(frozen=True, slots=True)
class Link:
    """A chain of track between two key nodes, in one direction.

    ``mask`` holds the resource bits it consumes; ``leave_hex``/``arrive_hex`` are the hexes of
    its first and last track (a line may not turn back into the tile it came from at a junction
    edge); ``duty`` the duty-hex bits of the hexes it crosses.
    """

    id: int
    reverse: int
    chain: int
    start: int
    end: int
    mask: int
    leave_hex: str
    arrive_hex: str
    duty: int
    nodes: tuple[Node, ...]
    tracks: tuple[int, ...]


@dataclass(frozen=True)
class ReducedGraph:
    """Key nodes (stations and junction edges) of one gauge, joined by links."""

    gauge: TrainGauge
    nodes: tuple[Node, ...]
    links: tuple[Link, ...]
    adjacency: tuple[tuple[Link, ...], ...]


class _Resources:
    """Bit numbers for everything a run can use up: tile edges and station-to-station track."""

    def __init__(self) -> None:
        self.bits: dict[object, int] = {}

    def bit(self, item: object) -> int:
        index = self.bits.get(item)
        if index is None:
            index = self.bits[item] = len(self.bits)
        return 1 << index


def _usable(track: TrackLike, gauge: TrainGauge) -> bool:
    return track.gauge == gauge or track.gauge == "dual"


def _edge_role(tracks: Sequence[TrackLike]) -> str:
    """How a tile edge behaves for a line: ``pass`` (one track on each side), ``junction``
    (several, on both sides) or ``dead`` (a line arriving could only turn back, 4.5.5)."""
    hexes = {t.hex for t in tracks}
    if len(hexes) < 2:
        return "dead"
    return "pass" if len(tracks) == 2 else "junction"


def reduce_graph(graph: RouteGraph, gauge: TrainGauge, resources: _Resources,
                 duty_bits: dict[str, int]) -> ReducedGraph:
    """Stage 1 for one gauge (4.5.3 / 33.3: the train's gauge or dual)."""
    incident: dict[Node, list[TrackLike]] = {}
    for t in graph.tracks:
        if _usable(t, gauge) and t.a != t.b:
            incident.setdefault(t.a, []).append(t)
            incident.setdefault(t.b, []).append(t)
    roles: dict[Node, str] = {
        n: _edge_role(ts) for n, ts in incident.items() if n[0] == "E"
    }
    keys = sorted(n for n in incident if n[0] == "S" or roles[n] == "junction")
    index = {n: i for i, n in enumerate(keys)}
    raw: list[tuple[int, int, int, str, str, int, tuple[Node, ...], tuple[int, ...]]] = []
    for start in keys:
        for first in sorted(incident[start], key=lambda t: t.id):
            walked = _walk_chain(start, first, incident, roles, index)
            if walked is None:
                continue
            nodes, tracks = walked
            end = nodes[-1]
            if end == start:
                continue
            mask = 0
            for n in nodes[1:-1]:
                mask |= resources.bit(n)
            for k, tr in enumerate(tracks):
                if nodes[k][0] == "S" and nodes[k + 1][0] == "S":
                    mask |= resources.bit(("T", tr.id))
            if end[0] == "E":
                mask |= resources.bit(end)
            duty = 0
            for tr in tracks:
                duty |= duty_bits.get(tr.hex, 0)
            raw.append((index[start], index[end], mask, tracks[0].hex, tracks[-1].hex, duty,
                        nodes, tuple(tr.id for tr in tracks)))
    # Pair each directed link with its reverse (the same chain walked from the other end).
    by_tracks: dict[tuple[int, tuple[int, ...]], int] = {}
    for i, item in enumerate(raw):
        by_tracks[item[0], item[7]] = i
    links: list[Link] = []
    for i, (s, e, mask, lh, ah, duty, nodes, tids) in enumerate(raw):
        rev = by_tracks[e, tids[::-1]]
        links.append(Link(i, rev, min(tids), s, e, mask, lh, ah, duty, nodes, tids))
    adjacency: list[list[Link]] = [[] for _ in keys]
    for link in links:
        adjacency[link.start].append(link)
    return ReducedGraph(gauge, tuple(keys), tuple(links), tuple(tuple(a) for a in adjacency))


def _walk_chain(start: Node, first: TrackLike, incident: dict[Node, list[TrackLike]],
                roles: dict[Node, str], index: dict[Node, int],
                ) -> tuple[tuple[Node, ...], tuple[TrackLike, ...]] | None:
    nodes: list[Node] = [start]
    tracks: list[TrackLike] = []
    track = first
    here = start
    while True:
        there = track.b if track.a == here else track.a
        nodes.append(there)
        tracks.append(track)
        if there in index:
            return tuple(nodes), tuple(tracks)
        if roles.get(there) != "pass":
            return None
        if there in nodes[:-1]:
            return None
        nxt = [t for t in incident[there] if t is not track]
        track = nxt[0]
        here = there


# ---------------------------------------------------------------------------------------------
# Stage 2: candidate runs.


@dataclass(frozen=True, slots=True)
class Candidate:
    """One legal run of a gauge: its links in order from ``start`` and what it is worth."""

    value: int
    mail: int
    large: int
    large_bases: int
    mask: int
    duty: int
    start: int
    links: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Station:
    value: int
    large: int
    city: int
    blocked: bool
    rank: int  # position among the company's bases, -1 if none here
    large_base: int


def enumerate_runs(reduced: ReducedGraph, graph: RouteGraph, company: str, cap: int
                   ) -> list[Candidate]:
    """Stage 2: every legal run of this gauge with at most ``cap`` Large Stations.

    Rules 4.5.2 (a base), 4.5.4 (Large Station limit, at least two stations), 4.5.5 (one visit
    per city, no reversing), 4.5.6 (not past a blocked station), 4.5.8 (no track twice).
    """
    cities: dict[str, int] = {}
    present = set(reduced.nodes)
    bases = sorted(n for n in graph.base_nodes(company) if n in present)
    rank = {n: i for i, n in enumerate(bases)}
    info: list[_Station | None] = []
    for n in reduced.nodes:
        if n[0] != "S":
            info.append(None)
            continue
        st = graph.stations[n]
        city = cities.setdefault(st.city, len(cities))
        large = 1 if st.kind == "large" else 0
        r = rank.get(n, -1)
        info.append(_Station(st.value, large, 1 << city, graph.blocked_for(n, company), r,
                             large if r >= 0 else 0))
    out: list[Candidate] = []
    index = {n: i for i, n in enumerate(reduced.nodes)}
    for base in bases:
        _Enumerator(reduced, info, cap, index[base], out).run()
    return out


class _Enumerator:
    """Every run whose lowest-ranked base is ``b``.

    Arm one and arm two grow from ``b`` in different directions; arm two's first link must
    belong to a higher-numbered chain than arm one's, and a run ending at ``b`` is only grown
    as an arm two, so each run is generated exactly once.
    """

    def __init__(self, reduced: ReducedGraph, info: list[_Station | None], cap: int, b: int,
                 out: list[Candidate]) -> None:
        self.links = reduced.links
        self.adjacency = reduced.adjacency
        self.info = info
        self.cap = cap
        self.b = b
        b_info = info[b]
        assert b_info is not None
        self.b_info = b_info
        self.out = out
        self.a1_links: tuple[int, ...] = ()
        self.a1_end = b
        self.a1_end_value = b_info.value
        self.first_chain = -1

    def run(self) -> None:
        bi = self.b_info
        start = (0, bi.city, bi.large, bi.value, bi.large_base, 0)
        self.grow(self.b, "", *start, [], True)
        self.grow(self.b, "", *start, [], False)

    def grow(self, node: int, arrive_hex: str, used: int, cities: int, large: int, value: int,
             lbase: int, duty: int, path: list[int], second: bool) -> None:
        info = self.info
        b_rank = self.b_info.rank
        cap = self.cap
        at_junction = info[node] is None
        for link in self.adjacency[node]:
            if at_junction and link.leave_hex == arrive_hex:
                continue  # 4.5.5: turning back into the same tile at a junction edge
            if link.mask & used:
                continue
            if second and not path and link.chain <= self.first_chain:
                continue
            to = link.end
            nxt = info[to]
            if nxt is None:
                path.append(link.id)
                self.grow(to, link.arrive_hex, used | link.mask, cities, large, value, lbase,
                          duty | link.duty, path, second)
                path.pop()
                continue
            if nxt.city & cities or 0 <= nxt.rank < b_rank:
                continue
            n_large = large + nxt.large
            if n_large > cap:
                continue
            n_value = value + nxt.value
            n_lbase = lbase + nxt.large_base
            n_used = used | link.mask
            n_cities = cities | nxt.city
            n_duty = duty | link.duty
            path.append(link.id)
            if second:
                self.out.append(Candidate(
                    n_value, self.a1_end_value + nxt.value, n_large, n_lbase, n_used, n_duty,
                    self.a1_end, self.a1_links + tuple(path)))
            else:
                self.second_arm(to, nxt.value, path, n_used, n_cities, n_large, n_value,
                                n_lbase, n_duty)
            if not nxt.blocked:
                self.grow(to, link.arrive_hex, n_used, n_cities, n_large, n_value, n_lbase,
                          n_duty, path, second)
            path.pop()

    def second_arm(self, end: int, end_value: int, path: list[int], used: int, cities: int,
                   large: int, value: int, lbase: int, duty: int) -> None:
        links = self.links
        saved = (self.a1_links, self.a1_end, self.a1_end_value, self.first_chain)
        self.a1_links = tuple(links[i].reverse for i in reversed(path))
        self.a1_end = end
        self.a1_end_value = end_value
        self.first_chain = links[path[0]].chain
        self.grow(self.b, "", used, cities, large, value, lbase, duty, [], True)
        self.a1_links, self.a1_end, self.a1_end_value, self.first_chain = saved


# ---------------------------------------------------------------------------------------------
# Stage 3: branch and bound over the trains.


@dataclass
class _TrainSlot:
    """One train in search order, with its candidate runs best first."""

    train: Train
    gauge_index: int
    runs: list[Candidate]
    by_total: list[Candidate]  # sorted by value + mail, for the mail bound
    max_mail: int
    same_as_previous: bool


@dataclass
class _Search:
    slots: list[_TrainSlot]
    duties: int
    duty_reach: list[int]  # union of duty bits reachable by slots i.. n-1
    best_value: int = -1
    best: list[tuple[int, bool]] = field(default_factory=list)  # (run index or -1, mail)
    nodes: int = 0
    pruned_bound: int = -1
    root_bound: int = 0

    def bound(self, i: int, used: int, start: int, mail: bool) -> tuple[int, int]:
        """Upper bounds for trains i.. given the used resources: (sum of each train's best
        compatible run, best extra from nominating one of them as the mail)."""
        total = 0
        gain = 0
        first = start
        for j in range(i, len(self.slots)):
            slot = self.slots[j]
            if j > i and not slot.same_as_previous:
                first = 0
            best_j = 0
            runs = slot.runs
            for k in range(first, len(runs)):
                if not runs[k].mask & used:
                    best_j = runs[k].value
                    break
            total += best_j
            if mail:
                for cand in slot.by_total:
                    if cand.value + cand.mail <= best_j + gain:
                        break
                    if not cand.mask & used:
                        gain = cand.value + cand.mail - best_j
                        break
        return total, gain

    def search(self, i: int, used: int, covered: int, value: int, mail: bool, start: int,
               chosen: list[tuple[int, bool]]) -> None:
        self.nodes += 1
        if i == len(self.slots):
            if covered & self.duties == self.duties and value > self.best_value:
                self.best_value = value
                self.best = list(chosen)
            return
        missing = self.duties & ~covered
        if missing & ~self.duty_reach[i]:
            return
        slot = self.slots[i]
        runs = slot.runs
        rest, gain = self.bound(i + 1, used, 0, mail)
        next_same = i + 1 < len(self.slots) and self.slots[i + 1].same_as_previous
        mail_room = max(slot.max_mail, gain) if mail else 0
        for k in range(start, len(runs)):
            cand = runs[k]
            ceiling = value + cand.value + rest + mail_room
            if ceiling <= self.best_value:
                self.pruned_bound = max(self.pruned_bound, ceiling)
                break
            if cand.mask & used:
                continue
            n_used = used | cand.mask
            n_covered = covered | cand.duty
            # Identical trains take runs in increasing order (no symmetric repeats).
            n_start = k + 1 if next_same else 0
            if mail:
                chosen.append((k, True))
                self._descend(i, n_used, n_covered, value + cand.value + cand.mail, False,
                              n_start, chosen, rest)
                chosen.pop()
            chosen.append((k, False))
            self._descend(i, n_used, n_covered, value + cand.value, mail, n_start, chosen,
                          rest + gain)
            chosen.pop()
        # The train may also stay idle (no compatible run, or to leave room for others).
        ceiling = value + rest + gain
        if ceiling > self.best_value:
            chosen.append((-1, False))
            self.search(i + 1, used, covered, value, mail, len(runs) if next_same else 0,
                        chosen)
            chosen.pop()
        else:
            self.pruned_bound = max(self.pruned_bound, ceiling)

    def _descend(self, i: int, used: int, covered: int, value: int, mail: bool, start: int,
                 chosen: list[tuple[int, bool]], optimistic_rest: int) -> None:
        if value + optimistic_rest <= self.best_value:
            self.pruned_bound = max(self.pruned_bound, value + optimistic_rest)
            return
        self.search(i + 1, used, covered, value, mail, start, chosen)


# ---------------------------------------------------------------------------------------------
# The public interface.


@dataclass(frozen=True)
class SearchStats:
    """How the answer was found: sizes of the reduced graphs, candidate runs per train, search
    nodes, timings (milliseconds) and the bounds that certify the optimum."""

    key_nodes: dict[str, int]
    links: dict[str, int]
    candidates: dict[str, int]
    search_nodes: int
    root_bound: int
    pruned_bound: int
    reduce_ms: float
    enumerate_ms: float
    search_ms: float


@dataclass(frozen=True)
class BestRun:
    """The router's answer: the best legal run (with the mail choice) and its certificate.

    ``upper_bound`` is the largest bound of any subtree the exhaustive search discarded, or the
    value itself; it equals ``run.total`` (``optimal``) because every subtree whose bound could
    beat the value found was searched.
    """

    run: RunValue
    upper_bound: int
    stats: SearchStats

    @property
    def optimal(self) -> bool:
        return self.upper_bound == self.run.total


def _expand(cand: Candidate, reduced: ReducedGraph, train: Train, mail: bool) -> Route:
    nodes: list[Node] = [reduced.nodes[cand.start]]
    tracks: list[int] = []
    for lid in cand.links:
        link = reduced.links[lid]
        nodes.extend(link.nodes[1:])
        tracks.extend(link.tracks)
    return Route(train, tuple(nodes), tuple(tracks), mail)


def _eligible(cand: Candidate, train: Train) -> bool:
    """4.5.4 / 33.4 Large Station limit; 4.8.18 b for a '1M' train."""
    if train.one_m:
        return cand.large == 1 and cand.large_bases == 1
    return cand.large <= train.large


def best_run(graph: RouteGraph, company: str, trains: Sequence[Train],
             duties: Iterable[str] = ()) -> BestRun:
    """The company's run of greatest total value (train revenue plus mail, 4.6.2, 4.6.6).

    ``trains`` are those able to run this turn (4.5.1); ``duties`` hexes that must be on a run
    (4.2.3 / 4.4.2).  Deterministic: the same position always gives the same answer.  Raises
    :class:`RuleError` (4.2.3) when no legal run covers every duty hex.
    """
    duty_list = sorted(set(duties))
    duty_bits = {h: 1 << i for i, h in enumerate(duty_list)}
    resources = _Resources()
    t0 = time.perf_counter()
    gauges: list[TrainGauge] = sorted({t.gauge for t in trains})
    reduced = {g: reduce_graph(graph, g, resources, duty_bits) for g in gauges}
    t1 = time.perf_counter()
    caps = {g: max((1 if t.one_m else t.large) for t in trains if t.gauge == g) for g in gauges}
    runs = {g: enumerate_runs(reduced[g], graph, company, caps[g]) for g in gauges}
    t2 = time.perf_counter()
    slots = _slots(trains, runs, gauges)
    duty_all = (1 << len(duty_list)) - 1
    reach = [0] * (len(slots) + 1)
    for i in range(len(slots) - 1, -1, -1):
        union = 0
        for cand in slots[i].runs:
            union |= cand.duty
        reach[i] = reach[i + 1] | union
    search = _Search(slots, duty_all, reach)
    root, gain = search.bound(0, 0, 0, True)
    search.root_bound = root + gain
    search.search(0, 0, 0, 0, True, 0, [])
    t3 = time.perf_counter()
    if search.best_value < 0:
        raise RuleError("4.2.3", "no legal run covers every hex that must be on a run this "
                        f"turn ({', '.join(duty_list)})")
    routes = [
        _expand(slot.runs[k], reduced[slot.train.gauge], slot.train, mail)
        for slot, (k, mail) in zip(slots, search.best, strict=True)
        if k >= 0
    ]
    run = check_routes(graph, company, trains, routes, duty_list)
    stats = SearchStats(
        key_nodes={g: len(reduced[g].nodes) for g in gauges},
        links={g: len(reduced[g].links) for g in gauges},
        candidates={f"{i + 1}:{s.train.name}": len(s.runs) for i, s in enumerate(slots)},
        search_nodes=search.nodes,
        root_bound=search.root_bound,
        pruned_bound=search.pruned_bound,
        reduce_ms=(t1 - t0) * 1000,
        enumerate_ms=(t2 - t1) * 1000,
        search_ms=(t3 - t2) * 1000,
    )
    return BestRun(run, max(run.total, search.pruned_bound), stats)


def _slots(trains: Sequence[Train], runs: dict[TrainGauge, list[Candidate]],
           gauges: list[TrainGauge]) -> list[_TrainSlot]:
    """Trains in search order (best single run first; identical trains together), each with
    its eligible runs sorted best first with a deterministic tie-break."""
    per_train: dict[Train, list[Candidate]] = {}
    for train in sorted(set(trains), key=lambda t: (t.gauge, t.large, t.one_m, t.name)):
        eligible = [c for c in runs[train.gauge] if _eligible(c, train)]
        eligible.sort(key=lambda c: (-c.value, -c.mail, c.start, c.links))
        per_train[train] = eligible
    order = sorted(trains, key=lambda t: (-(per_train[t][0].value if per_train[t] else 0),
                                          t.gauge, -t.large, t.one_m, t.name))
    slots: list[_TrainSlot] = []
    for i, train in enumerate(order):
        cands = per_train[train]
        by_total = sorted(cands, key=lambda c: (-(c.value + c.mail), c.start, c.links))
        slots.append(_TrainSlot(train, gauges.index(train.gauge), cands, by_total,
                                max((c.mail for c in cands), default=0),
                                i > 0 and order[i - 1] == train))
    return slots
