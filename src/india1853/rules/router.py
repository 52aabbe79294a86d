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
from dataclasses import dataclass, field, replace
from operator import add, itemgetter
from typing import Final

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

# One legal run of a gauge, as a plain tuple because dense networks give tens of thousands:
# (value, mail bonus of its two ends, Large Stations, Large Stations holding a company base,
#  resource mask, duty mask, start key node, links in order from the start).
Candidate = tuple[int, int, int, int, int, int, int, tuple[int, ...]]
VALUE: Final = 0
MAIL: Final = 1
LARGE: Final = 2
LARGE_BASES: Final = 3
MASK: Final = 4
DUTY: Final = 5
START: Final = 6
LINKS: Final = 7


@dataclass(frozen=True)
class _Stations:
    """Per key node of a reduced graph (junction edges hold zeros): what visiting it means
    for a run of ``company``."""

    station: list[bool]
    value: list[int]
    large: list[int]
    city: list[int]  # one bit per city (Delhi's stations share one, 4.5.5)
    blocked: list[bool]  # 4.5.6: fully occupied by other companies
    rank: list[int]  # position among the company's bases, -1 if none here
    large_base: list[int]


def _stations(reduced: ReducedGraph, graph: RouteGraph, company: str,
              bases: Sequence[Node]) -> _Stations:
    n = len(reduced.nodes)
    out = _Stations([False] * n, [0] * n, [0] * n, [0] * n, [False] * n, [-1] * n, [0] * n)
    rank = {node: i for i, node in enumerate(bases)}
    cities: dict[str, int] = {}
    for i, node in enumerate(reduced.nodes):
        if node[0] != "S":
            continue
        st = graph.stations[node]
        out.station[i] = True
        out.value[i] = st.value
        out.large[i] = 1 if st.kind == "large" else 0
        out.city[i] = 1 << cities.setdefault(st.city, len(cities))
        out.blocked[i] = graph.blocked_for(node, company)
        out.rank[i] = rank.get(node, -1)
        out.large_base[i] = out.large[i] if out.rank[i] >= 0 else 0
    return out


# A hop from one station to the next through any junction edges between them:
# (link ids, the same hop's link ids walked backwards, end station, resource mask, chain of
#  its first link, duty mask).
Hop = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]


def station_hops(reduced: ReducedGraph) -> list[tuple[Hop, ...]]:
    """Per key node, every way to the next station: a link to a station, or links chained
    through junction edges, passing from a track of one tile to a track of the next at each
    (4.5.5: no reversing) and never crossing an edge twice (4.5.10)."""
    links = reduced.links
    is_station = [n[0] == "S" for n in reduced.nodes]
    hops: list[tuple[Hop, ...]] = []
    for node, first_links in enumerate(reduced.adjacency):
        found: list[Hop] = []
        if is_station[node]:
            for first in first_links:
                _extend_hop(first, (first.id,), first.mask, first.duty, first.chain, links,
                            reduced.adjacency, is_station, found)
        hops.append(tuple(found))
    return hops


def _extend_hop(link: Link, ids: tuple[int, ...], mask: int, duty: int, chain: int,
                links: tuple[Link, ...], adjacency: tuple[tuple[Link, ...], ...],
                is_station: list[bool], found: list[Hop]) -> None:
    if is_station[link.end]:
        back = tuple(links[i].reverse for i in reversed(ids))
        found.append((ids, back, link.end, mask, chain, duty))
        return
    for nxt in adjacency[link.end]:
        if nxt.leave_hex == link.arrive_hex or nxt.mask & mask:
            continue
        _extend_hop(nxt, (*ids, nxt.id), mask | nxt.mask, duty | nxt.duty, chain, links,
                    adjacency, is_station, found)


def enumerate_runs(reduced: ReducedGraph, graph: RouteGraph, company: str, cap: int
                   ) -> list[Candidate]:
    """Stage 2: every legal run of this gauge with at most ``cap`` Large Stations.

    Rules 4.5.2 (a base), 4.5.4 (Large Station limit, at least two stations), 4.5.5 (one visit
    per city, no reversing), 4.5.6 (not past a blocked station), 4.5.8 (no track twice).
    """
    present = set(reduced.nodes)
    bases = sorted(n for n in graph.base_nodes(company) if n in present)
    info = _stations(reduced, graph, company, bases)
    hops = station_hops(reduced)
    # Runs go straight into buckets by value, so that they come out sorted by value without
    # a sort of tens of thousands; within a value, by mail bonus (stable, so deterministic).
    by_value: list[list[Candidate]] = [[] for _ in range(sum(info.value) + 1)]
    index = {n: i for i, n in enumerate(reduced.nodes)}
    for base in bases:
        _runs_through(index[base], hops, info, cap, by_value)
    out: list[Candidate] = []
    for bucket in reversed(by_value):
        if bucket:
            bucket.sort(key=itemgetter(MAIL), reverse=True)
            out.extend(bucket)
    return out


def _runs_through(b: int, hops: list[tuple[Hop, ...]], info: _Stations, cap: int,
                  by_value: list[list[Candidate]]) -> None:
    """Every run whose lowest-ranked base is ``b``, appended to ``by_value[its value]``.

    Arm one and arm two grow from ``b`` in different directions, hop by hop from station to
    station; arm two's first hop must start with a higher-numbered chain than arm one's, and a
    run ending at ``b`` is only grown as an arm two, so each run is generated exactly once.
    Neither arm passes a lower-ranked base (that run belongs to the lower base).  Closures
    over local lists keep the hot loop free of attribute look-ups.
    """
    value, large, large_base = info.value, info.large, info.large_base
    # 4.5.6: a run goes on past a station only if it is not blocked; a station whose only hop
    # is the one a run arrived by is a dead end, so no call is made for it.
    onward = [not blk and len(h) > 1 for blk, h in zip(info.blocked, hops, strict=True)]
    # A run through a lower-ranked base belongs to that base: such stations carry a bit that
    # is set from the start, so the city test turns them away too.
    forbid = 1 << max(info.city).bit_length()
    city = [c | forbid if 0 <= r < info.rank[b] else c
            for c, r in zip(info.city, info.rank, strict=True)]
    # The arm one that arm two is being grown against.
    a1_end = b
    a1_value = value[b]

    def grow_two(node: int, used: int, cities: int, n_large: int, val: int, lbase: int,
                 duty: int, path: tuple[int, ...]) -> None:
        for ids, _back, to, mask, _chain, hduty in hops[node]:
            c = city[to]
            if mask & used or c & cities:
                continue  # 4.5.8 / 4.5.10 track or edge twice; 4.5.5 a city twice
            nl = n_large + large[to]
            if nl > cap:
                continue
            nv = val + value[to]
            nb = lbase + large_base[to]
            n_used = used | mask
            n_duty = duty | hduty
            n_path = path + ids
            by_value[nv].append((nv, a1_value + value[to], nl, nb, n_used, n_duty, a1_end,
                                 n_path))
            if onward[to]:
                grow_two(to, n_used, cities | c, nl, nv, nb, n_duty, n_path)

    def start_two(used: int, cities: int, n_large: int, val: int, lbase: int, duty: int,
                  path: tuple[int, ...], first_chain: int) -> None:
        for ids, _back, to, mask, chain, hduty in hops[b]:
            c = city[to]
            if chain <= first_chain or mask & used or c & cities:
                continue
            nl = n_large + large[to]
            if nl > cap:
                continue
            nv = val + value[to]
            nb = lbase + large_base[to]
            n_used = used | mask
            n_duty = duty | hduty
            n_path = path + ids
            by_value[nv].append((nv, a1_value + value[to], nl, nb, n_used, n_duty, a1_end,
                                 n_path))
            if onward[to]:
                grow_two(to, n_used, cities | c, nl, nv, nb, n_duty, n_path)

    def grow_one(node: int, used: int, cities: int, n_large: int, val: int, lbase: int,
                 duty: int, back: tuple[int, ...], first_chain: int) -> None:
        nonlocal a1_end, a1_value
        for _ids, hback, to, mask, chain, hduty in hops[node]:
            c = city[to]
            if mask & used or c & cities:
                continue
            nl = n_large + large[to]
            if nl > cap:
                continue
            nv = val + value[to]
            nb = lbase + large_base[to]
            n_used = used | mask
            n_duty = duty | hduty
            n_back = hback + back  # arm one walked from its end back to b
            fc = chain if first_chain < 0 else first_chain
            # Arm two, from b, against this arm one (the run starts at arm one's end).
            a1_end, a1_value = to, value[to]
            start_two(n_used, cities | c, nl, nv, nb, n_duty, n_back, fc)
            if onward[to]:
                grow_one(to, n_used, cities | c, nl, nv, nb, n_duty, n_back, fc)

    start = (0, city[b] | forbid, large[b], value[b], large_base[b], 0, ())
    start_two(*start, -1)  # runs starting at b
    grow_one(b, *start, -1)


# ---------------------------------------------------------------------------------------------
# Stage 3: branch and bound over the trains.


@dataclass
class _TrainSlot:
    """One train in search order, with its candidate runs best first (parallel lists: the
    search touches only ints)."""

    train: Train
    runs: list[Candidate]
    values: list[int]
    masks: list[int]
    duties: list[int]
    mails: list[int]
    # The same runs sorted by value + mail, for the mail bound.
    totals_by_total: list[int]
    masks_by_total: list[int]
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
            masks = slot.masks
            for k in range(first, len(masks)):
                if not masks[k] & used:
                    best_j = slot.values[k]
                    break
            total += best_j
            if mail:
                by_mask = slot.masks_by_total
                for k, run_total in enumerate(slot.totals_by_total):
                    if run_total <= best_j + gain:
                        break
                    if not by_mask[k] & used:
                        gain = run_total - best_j
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
        values, masks, duties, mails = slot.values, slot.masks, slot.duties, slot.mails
        rest, gain = self.bound(i + 1, used, 0, mail)
        next_same = i + 1 < len(self.slots) and self.slots[i + 1].same_as_previous
        mail_room = max(slot.max_mail, gain) if mail else 0
        for k in range(start, len(values)):
            run_value = values[k]
            ceiling = value + run_value + rest + mail_room
            if ceiling <= self.best_value:
                self.pruned_bound = max(self.pruned_bound, ceiling)
                break
            if masks[k] & used:
                continue
            n_used = used | masks[k]
            n_covered = covered | duties[k]
            # Identical trains take runs in increasing order (no symmetric repeats).
            n_start = k + 1 if next_same else 0
            if mail:
                chosen.append((k, True))
                self._descend(i, n_used, n_covered, value + run_value + mails[k], False,
                              n_start, chosen, rest)
                chosen.pop()
            chosen.append((k, False))
            self._descend(i, n_used, n_covered, value + run_value, mail, n_start, chosen,
                          rest + gain)
            chosen.pop()
        # The train may also stay idle (no compatible run, or to leave room for others).
        ceiling = value + rest + gain
        if ceiling > self.best_value:
            chosen.append((-1, False))
            self.search(i + 1, used, covered, value, mail, len(values) if next_same else 0,
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
    nodes: list[Node] = [reduced.nodes[cand[START]]]
    tracks: list[int] = []
    for lid in cand[LINKS]:
        link = reduced.links[lid]
        nodes.extend(link.nodes[1:])
        tracks.extend(link.tracks)
    return Route(train, tuple(nodes), tuple(tracks), mail)


def _eligible(cand: Candidate, train: Train) -> bool:
    """4.5.4 / 33.4 Large Station limit; 4.8.18 b for a '1M' train."""
    if train.one_m:
        return cand[LARGE] == 1 and cand[LARGE_BASES] == 1
    return cand[LARGE] <= train.large


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
    slots = _slots(trains, runs)
    duty_all = (1 << len(duty_list)) - 1
    reach = [0] * (len(slots) + 1)
    for i in range(len(slots) - 1, -1, -1):
        union = 0
        for duty in slots[i].duties:
            union |= duty
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


def _slots(trains: Sequence[Train], runs: dict[TrainGauge, list[Candidate]]
           ) -> list[_TrainSlot]:
    """Trains in search order (best single run first; identical trains together), each with
    its eligible runs sorted best first: by value, then mail bonus, then enumeration order
    (deterministic: the sorts are stable).  Identical trains share their lists."""
    shared: dict[Train, _TrainSlot] = {}
    for train in sorted(set(trains), key=lambda t: (t.gauge, t.large, t.one_m, t.name)):
        shared[train] = _slot(train, runs[train.gauge])
    order = sorted(trains, key=lambda t: (-(shared[t].values[0] if shared[t].values else 0),
                                          t.gauge, -t.large, t.one_m, t.name))
    slots: list[_TrainSlot] = []
    for i, train in enumerate(order):
        same = i > 0 and order[i - 1] == train
        slots.append(replace(shared[train], same_as_previous=same))
    return slots


def _slot(train: Train, runs: list[Candidate]) -> _TrainSlot:
    """The train's eligible runs, already sorted best first by :func:`enumerate_runs`."""
    if train.one_m or any(c[LARGE] > train.large for c in runs):
        runs = [c for c in runs if _eligible(c, train)]
    values = list(map(itemgetter(VALUE), runs))
    mails = list(map(itemgetter(MAIL), runs))
    masks = list(map(itemgetter(MASK), runs))
    totals = list(map(add, values, mails))
    # Indices by value + mail, best first: a counting sort (stable, like the value order).
    by_total: list[list[int]] = [[] for _ in range(max(totals, default=0) + 1)]
    for k, total in enumerate(totals):
        by_total[total].append(k)
    order = [k for bucket in reversed(by_total) for k in bucket]
    return _TrainSlot(train, runs, values, masks, list(map(itemgetter(DUTY), runs)), mails,
                      [totals[k] for k in order], [masks[k] for k in order],
                      max(mails, default=0), False)
