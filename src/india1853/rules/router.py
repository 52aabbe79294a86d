"""The optimal router: the company's best run, with a certificate of optimality.

The stages (described in full in docs/routes.md):

1. **Reduce** the track graph per train gauge: chains of tile edges with one track on each side
   collapse into a single *link* that carries the set of resources it consumes (tile edges and
   station-to-station tracks, rule 4.5.10 / 33.10).  Stations and junction edges (where lines
   merge at a tile edge) stay as nodes.  Edges where a line could only turn back into the same
   tile are dead ends (4.5.5 / 33.5: no reversing).  *Hops* join each station to the next
   through any junction edges between them.
2. **Arms**: every path from a company base (4.5.2), hop by hop, to a station, never to a city
   twice (4.5.5), never past a blocked station (4.5.6), within the Large Station limit (4.5.4);
   kept per base as preorder lists with cumulative figures.
3. **Runs**: an arm alone, or two arms from one base that share no resource or city, each run
   generated exactly once (from its lowest-ranked base, arm one the more valuable), listed
   best first when worth at least a value threshold or, with the mail bonus, a total
   threshold; the Large Station limit (4.5.4) bounds what arm two can add.  The same scan
   finds a train's best run avoiding given resources while listing almost nothing.
4. **Branch and bound** over the trains: each train takes one of its listed runs (or none),
   runs pairwise share no resource (4.5.10), one of them may carry the mail (4.6.6), every duty
   hex is covered (4.2.3 / 4.4.2).  The bound is the sum of each remaining train's best
   compatible run (listed, or the most an unlisted one could be worth) plus the best mail
   gain; identical trains are bounded as a pair.  On a large network the search starts from
   a run set found greedily and the thresholds list only the runs that could beat it; a pass
   that cannot prove its answer says how low the next must go.  The last pass is exhaustive
   for everything that could matter (no caps, no time limit), so the value found is the
   optimum, and the certificate records the largest bound of any discarded subtree, which
   never exceeds it.  docs/routes.md gives the whole argument.
"""

from __future__ import annotations

import functools
import heapq
import operator
import time
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain, groupby
from operator import add, itemgetter
from typing import TYPE_CHECKING, Final

from india1853.errors import InputError, RuleError
from india1853.rules.routes import (
    Node,
    Route,
    RouteGraph,
    RunValue,
    TrackLike,
    Train,
    TrainGauge,
    check_routes,
    junction_hexes,
)

if TYPE_CHECKING:
    # The compiled kernel (numpy, numba) is imported where it is used, so that importing the
    # router stays quick.
    from india1853.rules import router_kernel

# ---------------------------------------------------------------------------------------------
# Stage 1: the reduced graph.


@dataclass(frozen=True, slots=True)
class Link:
    """A chain of track between two key nodes, in one direction.

    ``mask`` holds the resource bits it consumes; ``leave_hex``/``arrive_hex`` are the hexes of
    its first and last track (a line may not turn back into the tile it came from at a junction
    edge); ``duty`` the duty-hex bits of the hexes it crosses; ``hub`` the bits of the junction
    tiles it passes (4.2.5: one run passes each at most once, like a station).
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
    hub: int
    nodes: tuple[Node, ...]
    tracks: tuple[int, ...]


@dataclass(frozen=True)
class ReducedGraph:
    """Key nodes (stations and junction edges) of one gauge, joined by links.  ``hub_bits``
    is how many low bits of a run's city mask stand for junction tiles."""

    gauge: TrainGauge
    nodes: tuple[Node, ...]
    links: tuple[Link, ...]
    adjacency: tuple[tuple[Link, ...], ...]
    hub_bits: int = 0


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
                 duty_bits: dict[str, int], hub_bits: dict[str, int]) -> ReducedGraph:
    """Stage 1 for one gauge (4.5.3 / 33.3: the train's gauge or dual).  ``hub_bits``: a bit
    per junction tile (:func:`india1853.rules.routes.junction_hexes`, 4.2.5)."""
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
    raw: list[tuple[int, int, int, str, str, int, int, tuple[Node, ...], tuple[int, ...]]] = []
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
            hub = _hubs_passed(tracks, hub_bits)
            if hub < 0:
                continue  # 4.2.5: a junction tile passed twice
            raw.append((index[start], index[end], mask, tracks[0].hex, tracks[-1].hex, duty,
                        hub, nodes, tuple(tr.id for tr in tracks)))
    # Pair each directed link with its reverse (the same chain walked from the other end).
    by_tracks: dict[tuple[int, tuple[int, ...]], int] = {}
    for i, item in enumerate(raw):
        by_tracks[item[0], item[8]] = i
    links: list[Link] = []
    for i, (s, e, mask, lh, ah, duty, hub, nodes, tids) in enumerate(raw):
        rev = by_tracks[e, tids[::-1]]
        links.append(Link(i, rev, min(tids), s, e, mask, lh, ah, duty, hub, nodes, tids))
    adjacency: list[list[Link]] = [[] for _ in keys]
    for link in links:
        adjacency[link.start].append(link)
    return ReducedGraph(gauge, tuple(keys), tuple(links), tuple(tuple(a) for a in adjacency),
                        len(hub_bits))


def _hubs_passed(tracks: Sequence[TrackLike], hub_bits: dict[str, int]) -> int:
    """The bits of the junction tiles a chain of track passes, or -1 if it passes one twice
    (4.2.5 with 4.5.5: a junction is run through once, like a station)."""
    hub = 0
    previous = ""
    for tr in tracks:
        bit = hub_bits.get(tr.hex, 0)
        if bit and tr.hex != previous:
            if hub & bit:
                return -1
            hub |= bit
        previous = tr.hex
    return hub


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
#  resource mask, duty mask, start key node, (arms, arm one, arm two) from which its links
#  are read only when it is chosen).
Candidate = tuple[int, int, int, int, int, int, int, "tuple[_Arms, int, int]"]
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
    city: list[int]  # one bit per city (Delhi's stations share one, 4.5.5), above the hub bits
    blocked: list[bool]  # 4.5.6: fully occupied by other companies
    rank: list[int]  # position among the company's bases, -1 if none here
    large_base: list[int]


def _stations(reduced: ReducedGraph, graph: RouteGraph, company: str,
              bases: Sequence[Node]) -> _Stations:
    n = len(reduced.nodes)
    out = _Stations([False] * n, [0] * n, [0] * n, [0] * n, [False] * n, [-1] * n, [0] * n)
    rank = {node: i for i, node in enumerate(bases)}
    cities: dict[str, int] = {}
    first = reduced.hub_bits  # the low bits of a city mask are the junction tiles' (4.2.5)
    for i, node in enumerate(reduced.nodes):
        if node[0] != "S":
            continue
        st = graph.stations[node]
        out.station[i] = True
        out.value[i] = st.value
        out.large[i] = 1 if st.kind == "large" else 0
        out.city[i] = 1 << (first + cities.setdefault(st.city, len(cities)))
        out.blocked[i] = graph.blocked_for(node, company)
        out.rank[i] = rank.get(node, -1)
        out.large_base[i] = out.large[i] if out.rank[i] >= 0 else 0
    return out


# A hop from one station to the next through any junction edges between them:
# (link ids, the same hop's link ids walked backwards, end station, resource mask, chain of
#  its first link, duty mask, junction tiles passed).
Hop = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int, int]


def station_hops(reduced: ReducedGraph) -> list[tuple[Hop, ...]]:
    """Per key node, every way to the next station: a link to a station, or links chained
    through junction edges, passing from a track of one tile to a track of the next at each
    (4.5.5: no reversing), never crossing an edge twice (4.5.10) and never passing one junction
    tile twice (4.2.5)."""
    links = reduced.links
    is_station = [n[0] == "S" for n in reduced.nodes]
    hops: list[tuple[Hop, ...]] = []
    for node, first_links in enumerate(reduced.adjacency):
        found: list[Hop] = []
        if is_station[node]:
            for first in first_links:
                _extend_hop(first, (first.id,), first.mask, first.duty, first.hub, first.chain,
                            links, reduced.adjacency, is_station, found)
        hops.append(tuple(found))
    return hops


def _extend_hop(link: Link, ids: tuple[int, ...], mask: int, duty: int, hub: int, chain: int,
                links: tuple[Link, ...], adjacency: tuple[tuple[Link, ...], ...],
                is_station: list[bool], found: list[Hop]) -> None:
    if is_station[link.end]:
        back = tuple(links[i].reverse for i in reversed(ids))
        found.append((ids, back, link.end, mask, chain, duty, hub))
        return
    for nxt in adjacency[link.end]:
        if nxt.leave_hex == link.arrive_hex or nxt.mask & mask or nxt.hub & hub:
            continue
        _extend_hop(nxt, (*ids, nxt.id), mask | nxt.mask, duty | nxt.duty, hub | nxt.hub,
                    chain, links, adjacency, is_station, found)


def enumerate_runs(reduced: ReducedGraph, graph: RouteGraph, company: str, cap: int,
                   threshold: int = 0) -> list[Candidate]:
    """Stage 2: every legal run of this gauge with at most ``cap`` Large Stations and a value
    of at least ``threshold``, best first (by value, then mail bonus; stable).

    Rules 4.5.2 (a base), 4.5.4 (Large Station limit; a run of arms has at least
    :data:`ARM_RUN_STATIONS` stations, a train's own minimum is applied per train), 4.5.5 (one
    visit per city, no reversing), 4.5.6 (not past a blocked station), 4.5.8 (no track twice).
    """
    return runs_at_least(all_arms(reduced, graph, company, cap), threshold)


@dataclass(frozen=True)
class GaugeArms:
    """The arms from every base of the company on one gauge's reduced graph, with two bounds
    on any run of the gauge: ``best_possible`` on its value (a base and its two best arms) and
    ``mail_cap`` on its mail bonus (4.6.6: the two most valuable ends of one base's runs)."""

    info: _Stations
    arms: tuple[_Arms, ...]
    cap: int
    best_possible: int
    mail_cap: int


def all_arms(reduced: ReducedGraph, graph: RouteGraph, company: str, cap: int) -> GaugeArms:
    """The arms from each of the company's bases on this gauge (4.5.2: every run includes a
    base), up to ``cap`` Large Stations with the base."""
    present = set(reduced.nodes)
    bases = sorted(n for n in graph.base_nodes(company) if n in present)
    info = _stations(reduced, graph, company, bases)
    hops = station_hops(reduced)
    steps, first = _steps(hops, info, reduced.hub_bits)
    # 4.5.6: an arm goes on past a station only if it is not blocked; a station whose only hop
    # is the one the arm arrived by is a dead end.
    onward = [not blk and len(h) > 1 for blk, h in zip(info.blocked, hops, strict=True)]
    index = {n: i for i, n in enumerate(reduced.nodes)}
    arms = tuple(_grow_arms(index[b], steps, onward, info, cap, first) for b in bases)
    best_possible = 0
    mail_cap = 0
    for a in arms:
        if a.values:
            vb = info.value[a.base]
            best_possible = max(best_possible, vb + 2 * a.best)
            mail_cap = max(mail_cap, vb + a.top_end, a.top_two_ends)
    return GaugeArms(info, arms, cap, best_possible, mail_cap)


def runs_at_least(gauge_arms: GaugeArms, threshold: int,
                  total_threshold: int | None = None) -> list[Candidate]:
    """Every run worth at least ``threshold``, or at least ``total_threshold`` with its mail
    bonus (4.6.6; None: no such test), best first.  Runs go straight into buckets by value, so
    they come out sorted without a sort of tens of thousands; within a value, by mail bonus
    (stable, so deterministic)."""
    info = gauge_arms.info
    by_value: list[list[Candidate]] = [[] for _ in range(gauge_arms.best_possible + 1)]
    scan = _Scan(threshold, NEVER if total_threshold is None else total_threshold,
                 gauge_arms.cap)
    for arms in gauge_arms.arms:
        if threshold <= 0:
            _every_run_through(arms, info, gauge_arms.cap, by_value)
        else:
            _runs_through(arms, info, scan, by_value)
    out: list[Candidate] = []
    for bucket in reversed(by_value):
        if bucket:
            bucket.sort(key=itemgetter(MAIL), reverse=True)
            out.extend(bucket)
    return out


def best_compatible(gauge_arms: GaugeArms, train: Train, used: int, with_mail: bool,
                    at_least: int = 1) -> Candidate | None:
    """The train's most valuable run (with its mail bonus if ``with_mail``) worth at least
    ``at_least`` that shares no resource with ``used`` (4.5.10), or None: a search over the
    arms that raises its threshold with every run it finds, so it lists almost nothing."""
    info = gauge_arms.info
    by_value: defaultdict[int, list[Candidate]] = defaultdict(list)  # the improving runs
    room = 1 if train.one_m else min(train.large, gauge_arms.cap)
    counts = (train.min_stations, train.min_small)
    scan = (_Scan(NEVER, at_least, room, used, train.one_m, BEST_TOTAL, *counts) if with_mail
            else _Scan(at_least, NEVER, room, used, train.one_m, BEST_VALUE, *counts))
    for arms in gauge_arms.arms:
        _runs_through(arms, info, scan, by_value)
    found = [c for bucket in by_value.values() for c in bucket]
    if not found:
        return None
    return max(found, key=(lambda c: c[VALUE] + c[MAIL]) if with_mail else itemgetter(VALUE))


# Runs by value: a list indexed by value when listing, a dict when only improving runs come.
_Buckets = list[list[Candidate]] | defaultdict[int, list[Candidate]]

# What a scan of the arms collects: every run over the thresholds, or only ever better runs
# (by value, or by value + mail), raising the threshold as it finds them.
LIST_ALL: Final = 0
BEST_VALUE: Final = 1
BEST_TOTAL: Final = 2
NEVER: Final = 1 << 40  # a threshold no run reaches
# Every run the arms make has at least this many stations: a base and an arm's end station
# (the arms follow track).  A train's fewest stations (4.5.4 / 33.4, the edition's
# ``route_min_stations``) above it is tested run by run; one below it would allow a run
# without track, which the arms cannot make (:func:`_check_minimums`).
ARM_RUN_STATIONS: Final = 2


@dataclass
class _Scan:
    """The tests of one scan over the arms of a gauge: runs worth at least ``threshold`` or
    ``total`` with their mail bonus, at most ``room`` Large Stations, sharing no resource
    with ``used``; ``one_m``: only runs a '1M' may make (4.8.18); at least ``min_stations``
    stations and ``min_small`` Small Stations (a train's minimums, 4.5.4, 4.8.18 b; zero: the
    listing for every train of the gauge, each train's minimums applied by :func:`_slot`)."""

    threshold: int
    total: int
    room: int
    used: int = 0
    one_m: bool = False
    mode: int = LIST_ALL
    min_stations: int = 0
    min_small: int = 0


@dataclass
class _Arms:
    """Every arm from one base ``b``: a path from ``b`` hop by hop to a station, never through
    a lower-ranked base (that run belongs to the lower base), past a blocked station (4.5.6),
    to a city twice (4.5.5) or over a resource twice (4.5.8, 4.5.10).

    Parallel lists in depth-first preorder, children of ``b`` in increasing chain order.  All
    per-arm figures count the arm's stations only (not ``b``) and are cumulative along the
    tree, so a test that fails for an arm fails for its whole subtree, which ends at
    ``skip[arm]``; values never decrease along the tree.
    """

    base: int
    masks: list[int] = field(default_factory=list)
    cities: list[int] = field(default_factory=list)
    larges: list[int] = field(default_factory=list)
    values: list[int] = field(default_factory=list)
    large_bases: list[int] = field(default_factory=list)
    duties: list[int] = field(default_factory=list)
    depths: list[int] = field(default_factory=list)  # the arm's stations (hops from the base)
    hops: list[Hop] = field(default_factory=list)  # the last hop of the arm
    skip: list[int] = field(default_factory=list)
    end_values: list[int] = field(default_factory=list)  # value of the arm's end station
    best_below: list[int] = field(default_factory=list)  # best value in the arm's subtree
    # The best value + end value in the arm's subtree (what the arm adds to value + mail).
    best_total_below: list[int] = field(default_factory=list)
    # Per number of Large Stations, the arms with that many by value, best first (stable).
    by_large_order: list[list[int]] = field(default_factory=list)
    best: int = 0  # the best value of any arm
    top_end: int = 0  # the most valuable end station of any arm
    top_two_ends: int = 0  # the two most valuable ends of distinct arms together
    # Per number of Large Stations, the best value (and value + end value) of an arm with
    # at most that many.
    best_by_large: list[int] = field(default_factory=list)
    best_total_by_large: list[int] = field(default_factory=list)

    def path(self, arm: int) -> list[int]:
        """The arms from the base's child down to ``arm``: from the base, go over whole
        subtrees of siblings (``skip``) to the one that holds it, then down into it."""
        out: list[int] = []
        k = 0
        while True:
            while self.skip[k] <= arm:
                k = self.skip[k]
            out.append(k)
            if k == arm:
                return out
            k += 1

    def links(self, one: int, two: int) -> tuple[int, ...]:
        """The links of the run along arm ``one`` backwards to the base, then out along arm
        ``two`` (``one`` = -1: the run starts at the base)."""
        out: list[int] = []
        if one >= 0:
            for k in reversed(self.path(one)):
                out.extend(self.hops[k][1])
        for k in self.path(two):
            out.extend(self.hops[k][0])
        return tuple(out)


# One hop as an arm grows along it, with the figures of its end station for this base:
# (hop, end station, resource mask, city and junction bits, Large, value, Large base, duty).
_Step = tuple[Hop, int, int, int, int, int, int, int]


def _steps(hops: list[tuple[Hop, ...]], info: _Stations, hub_count: int
           ) -> tuple[list[tuple[_Step, ...]], int]:
    """Every hop with the figures of its end station, for the arms of every base; and the
    first bit above the cities and junction tiles.  Each base's station carries a bit of
    its rank there, so that an arm from a higher-ranked base, which starts with the bits of
    the lower ranks set, is turned away by the city test."""
    first = max(max(info.city, default=0), (1 << hub_count) - 1).bit_length()
    value, large, large_base = info.value, info.large, info.large_base
    city = [c | (1 << (first + r)) if r >= 0 else c
            for c, r in zip(info.city, info.rank, strict=True)]
    return [tuple((hop, hop[2], hop[3], city[hop[2]] | hop[6], large[hop[2]], value[hop[2]],
                   large_base[hop[2]], hop[5]) for hop in options) for options in hops], first


def _grow_arms(b: int, steps: list[tuple[_Step, ...]], onward: list[bool], info: _Stations,
               cap: int, first: int) -> _Arms:
    """Every arm from base ``b`` (``onward``: whether an arm may go on past a station)."""
    arms = _Arms(b)
    room = cap - info.large[b]
    by_large = [0] * (room + 1)
    total_by_large = [0] * (room + 1)
    arms.best_by_large, arms.best_total_by_large = by_large, total_by_large
    add_mask, add_city = arms.masks.append, arms.cities.append
    add_large, add_value, add_end_value = (arms.larges.append, arms.values.append,
                                           arms.end_values.append)
    add_lbase, add_duty = arms.large_bases.append, arms.duties.append
    add_hop, add_skip = arms.hops.append, arms.skip.append
    add_below, add_total_below = arms.best_below.append, arms.best_total_below.append
    values, skip, below, total_below = (arms.values, arms.skip, arms.best_below,
                                        arms.best_total_below)
    # The base's city, and the bits of the lower-ranked bases (their runs are theirs).
    b_cities = info.city[b] | (((1 << info.rank[b]) - 1) << first)

    def grow(options: tuple[_Step, ...], used: int, cities: int, n_large: int, val: int,
             lbase: int, duty: int) -> tuple[int, int]:
        """Append the arms going on by ``options``; their best value (and value + end)."""
        best = best_total = 0
        for hop, to, mask, c, lg, v, lbs, hop_duty in options:
            if mask & used or c & cities:
                # 4.5.8 / 4.5.10 track or edge twice; 4.5.5 a city, 4.2.5 a junction, twice
                continue
            nl = n_large + lg
            if nl > room:
                continue  # 4.5.4: more Large Stations than the company's biggest train runs to
            k = len(values)
            n_used = used | mask
            n_cities = cities | c
            nv = val + v
            nb = lbase + lbs
            n_duty = duty | hop_duty
            add_mask(n_used)
            add_city(n_cities - b_cities)
            add_large(nl)
            add_value(nv)
            add_end_value(v)
            add_lbase(nb)
            add_duty(n_duty)
            add_hop(hop)
            top, top_total = nv, nv + v
            if top > by_large[nl]:
                by_large[nl] = top
            if top_total > total_by_large[nl]:
                total_by_large[nl] = top_total
            if onward[to]:
                add_skip(0)
                add_below(0)
                add_total_below(0)
                sub, sub_total = grow(steps[to], n_used, n_cities, nl, nv, nb, n_duty)
                if sub > top:
                    top = sub
                if sub_total > top_total:
                    top_total = sub_total
                skip[k] = len(values)
                below[k] = top
                total_below[k] = top_total
            else:
                add_skip(k + 1)
                add_below(top)
                add_total_below(top_total)
            if top > best:
                best = top
            if top_total > best_total:
                best_total = top_total
        return best, best_total

    # Children of b in chain order (stable), so that the preorder is deterministic.
    grow(tuple(sorted(steps[b], key=lambda s: s[0][4])), 0, b_cities, 0, 0, 0, 0)
    _summarise(arms)
    return arms


def _summarise(arms: _Arms) -> None:
    """The orders and bests that the run listing prunes with, and each arm's stations."""
    values, larges, end_values = arms.values, arms.larges, arms.end_values
    # An arm's depth in the preorder tree is its number of hops, each ending at a station:
    # its ancestors are the arms before it whose subtree (up to ``skip``) still holds it.
    open_ends: list[int] = []
    for k, end in enumerate(arms.skip):
        while open_ends and open_ends[-1] <= k:
            open_ends.pop()
        arms.depths.append(len(open_ends) + 1)
        open_ends.append(end)
    by_large, total_by_large = arms.best_by_large, arms.best_total_by_large
    # The best arm (and arm + end) with at most so many Large Stations: with arm one's count,
    # what arm two can add within the limit (4.5.4).
    for n_large in range(1, len(by_large)):
        by_large[n_large] = max(by_large[n_large], by_large[n_large - 1])
        total_by_large[n_large] = max(total_by_large[n_large], total_by_large[n_large - 1])
    arms.by_large_order = [[] for _ in by_large]
    for k in sorted(range(len(values)), key=values.__getitem__, reverse=True):
        arms.by_large_order[larges[k]].append(k)
    arms.best = max(values, default=0)
    arms.top_end = max(end_values, default=0)
    arms.top_two_ends = sum(heapq.nlargest(2, end_values))


def _runs_through(arms: _Arms, info: _Stations, scan: _Scan, by_value: _Buckets) -> None:
    """Every run that passes the tests of ``scan`` (value or value + mail over its
    thresholds, Large Stations 4.5.4 and 4.8.18, resources 4.5.10; cities once, 4.5.5) whose
    lowest-ranked base is ``arms.base``, appended to ``by_value[its value]``; in a BEST_ mode
    only runs better than every run found so far, the threshold rising with each.

    A run through the base is two arms from it that share no resource and no city and
    together stay within the Large Station limit, or an arm alone (the run starts at the
    base).  Arm one is the more valuable of the two (ties: the earlier in preorder), so each
    run is generated exactly once (it starts at arm one's end).  The arms are tried as arm
    one by Large count, then by value, until even the best partner within the Large Station
    limit (4.5.4) could not reach the thresholds.  Arm two is found by a scan of the preorder
    lists that jumps over every subtree whose root already conflicts with arm one, is worth
    more than it, or whose best arm cannot reach the thresholds (figures are cumulative and
    values never fall along the tree).
    """
    b = arms.base
    value, large, large_base = info.value, info.large, info.large_base
    hops, masks, cities, larges = arms.hops, arms.masks, arms.cities, arms.larges
    values, lbases, duties, skip = arms.values, arms.large_bases, arms.duties, arms.skip
    below, total_below, end_values = arms.best_below, arms.best_total_below, arms.end_values
    n = len(values)
    vb, lb, bb = value[b], large[b], large_base[b]
    room = scan.room - lb
    used, one_m, mode = scan.used, scan.one_m, scan.mode
    # A train's minimums (4.5.4, 4.8.18 b), tested only when some run of arms could miss them.
    depths = arms.depths
    counting = scan.min_stations > ARM_RUN_STATIONS or scan.min_small > 0
    min_arm_stations, min_small = scan.min_stations - 1, scan.min_small
    need = scan.threshold - vb  # what the arms must be worth together
    need_total = scan.total - vb  # and with the mail: arms plus their ends (or the base)
    top_end, top_two = arms.top_end, arms.top_two_ends
    by_large, total_by_large = arms.best_by_large, arms.best_total_by_large
    most_large = len(by_large) - 1
    # Arm one by its number of Large Stations, then by value: within the limit (4.5.4) arm
    # two is worth at most the best arm with the Large Stations left, so the arms of one
    # count are tried only until even that partner could not reach the thresholds.
    for n_large, ones in enumerate(arms.by_large_order):
        if n_large > room:
            break
        left = room - n_large
        partner = by_large[min(left, most_large)]
        partner_total = total_by_large[min(left, most_large)]
        for one in ones:
            v1 = values[one]
            # (Conditional expressions: this loop is hot, min() is slower.)
            # Bounds on arm two (worth at most v1 and the best arm within the Large limit)
            # and on the ends (each worth at most its arm and top_end).
            end_cap = v1 if v1 < top_end else top_end
            two_cap = v1 if v1 < partner else partner
            two_total_cap = two_cap + (two_cap if two_cap < top_end else top_end)
            if two_total_cap > partner_total:
                two_total_cap = partner_total
            ends_cap = 2 * end_cap if 2 * end_cap < top_two else top_two
            if v1 + two_cap < need and (v1 + end_cap + two_total_cap < need_total
                                        or v1 + two_cap + ends_cap < need_total):
                break  # every later arm one of this count is worth no more
            if masks[one] & used:
                continue
            e1 = end_values[one]
            need_two = need - v1
            need_two_total = need_total - v1 - e1
            if two_cap < need_two and two_total_cap < need_two_total:
                continue  # no arm two worth at most v1 within the Large limit is enough
            m1, c1 = masks[one] | used, cities[one]
            d1, end1, l1, b1 = duties[one], hops[one][2], lb + larges[one], bb + lbases[one]
            s1 = depths[one]
            two = 0
            while two < n:
                v2 = values[two]
                if (v2 > v1 or masks[two] & m1 or cities[two] & c1 or larges[two] > left
                        or (below[two] < need_two and total_below[two] < need_two_total)):
                    two = skip[two]
                    continue
                if ((v2 < v1 or two > one)
                        and (v2 >= need_two or v2 + end_values[two] >= need_two_total)
                        and not (one_m and (l1 + larges[two] != 1 or b1 + lbases[two] != 1))
                        and not (counting and (
                            s1 + depths[two] < min_arm_stations
                            or 1 + s1 + depths[two] - l1 - larges[two] < min_small))):
                    v = vb + v1 + v2
                    by_value[v].append((v, e1 + end_values[two], l1 + larges[two],
                                        b1 + lbases[two], m1 & ~used | masks[two],
                                        d1 | duties[two], end1, (arms, one, two)))
                    if mode == BEST_VALUE:
                        need_two = v2 + 1
                    elif mode == BEST_TOTAL:
                        need_two_total = v2 + end_values[two] + 1
                two += 1
            if mode == BEST_VALUE:
                need = need_two + v1
            elif mode == BEST_TOTAL:
                need_total = need_two_total + v1 + e1
    # Runs from the base along one arm.
    k = 0
    while k < n:
        if (below[k] < need and vb + total_below[k] < need_total) or masks[k] & used:
            k = skip[k]
            continue
        v = values[k]
        if larges[k] > room:
            k = skip[k]
            continue
        if ((v >= need or vb + v + end_values[k] >= need_total)
                and not (one_m and (lb + larges[k] != 1 or bb + lbases[k] != 1))
                and not (counting and (depths[k] < min_arm_stations
                                       or 1 + depths[k] - lb - larges[k] < min_small))):
            by_value[vb + v].append((vb + v, vb + end_values[k], lb + larges[k], bb + lbases[k],
                                     masks[k], duties[k], b, (arms, -1, k)))
            if mode == BEST_VALUE:
                need = v + 1
            elif mode == BEST_TOTAL:
                need_total = vb + v + end_values[k] + 1
        k += 1
    if mode == BEST_VALUE:
        scan.threshold = need + vb
    elif mode == BEST_TOTAL:
        scan.total = need_total + vb


def _every_run_through(arms: _Arms, info: _Stations, cap: int,
                       by_value: list[list[Candidate]]) -> None:
    """Every run whose lowest-ranked base is ``arms.base`` (a complete listing, as with run
    duties): an arm alone, or two arms from different children of the base (within one they
    share the first hop), arm two in a later child's subtree, so each run is generated once;
    arm two is found by a scan of the later subtrees that jumps over every subtree whose root
    already conflicts with arm one (figures are cumulative): a resource twice (4.5.8,
    4.5.10), a city twice (4.5.5), more Large Stations than the limit (4.5.4)."""
    b = arms.base
    value, large, large_base = info.value, info.large, info.large_base
    hops, masks, cities, larges = arms.hops, arms.masks, arms.cities, arms.larges
    values, lbases, duties, skip = arms.values, arms.large_bases, arms.duties, arms.skip
    end_values = arms.end_values
    n = len(values)
    vb, lb, bb = value[b], large[b], large_base[b]
    room = cap - lb
    for k in range(n):
        by_value[vb + values[k]].append((vb + values[k], vb + end_values[k], lb + larges[k],
                                         bb + lbases[k], masks[k], duties[k], b,
                                         (arms, -1, k)))
    root = 0
    while root < n:
        later = skip[root]  # the subtrees of the base's later children start here
        for one in range(root, later):
            v1, m1, c1, left = values[one], masks[one], cities[one], room - larges[one]
            e1, d1, end1 = end_values[one], duties[one], hops[one][2]
            l1, b1 = lb + larges[one], bb + lbases[one]
            two = later
            while two < n:
                if masks[two] & m1 or cities[two] & c1 or larges[two] > left:
                    two = skip[two]
                    continue
                v = vb + v1 + values[two]
                by_value[v].append((v, e1 + end_values[two], l1 + larges[two],
                                    b1 + lbases[two], m1 | masks[two], d1 | duties[two], end1,
                                    (arms, one, two)))
                two += 1
        root = later


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
    # The same runs sorted by value + mail (with their index in ``runs``), for the mail.
    totals_by_total: list[int]
    masks_by_total: list[int]
    index_by_total: list[int]
    # The best value + mail of the runs from each index on (and 0 past the end).
    totals_after: list[int]
    max_mail: int
    same_as_previous: bool
    # Runs the pass did not list: ``unseen`` is the most any of them is worth (-1: every run
    # is listed), ``unseen_total`` the most any of them is worth with its mail bonus.
    unseen: int = -1
    unseen_total: int = -1
    # Resource bits that most runs of the list use (the first hops from the bases): a run
    # set's bits among them key the caches below.
    hot: int = 0
    # The runs grouped by their bits among ``hot`` (built on first use): per group its key
    # and its positions in ``masks`` (value order) and in ``masks_by_total``, ascending.  A
    # group whose key meets the used bits holds no compatible run and is skipped whole.
    # (A list holding it once built, shared by the slots of identical trains, which are
    # copies of one slot.)
    groups: list[_Groups] = field(default_factory=list)
    # The bounds of :meth:`_Search.limits` by the compiled kernel (the same figures): set for
    # searches of :data:`KERNEL_CAP_SLOTS` trains or more.
    compiled: bool = False

    def grouped(self) -> _Groups:
        if not self.groups:
            self.groups.append(_Groups.of(self.masks, self.masks_by_total, self.hot))
        return self.groups[0]

    def cap_tables(self) -> tuple[router_kernel.CapTable, router_kernel.CapTable]:
        """The groups by value and by value + mail as the kernel's arrays (built on first
        use, shared like the groups)."""
        from india1853.rules import router_kernel

        groups = self.grouped()
        if not groups.tables:
            groups.tables.append(router_kernel.CapTable(groups.keys, groups.by_value,
                                                        self.masks, self.values))
            groups.tables.append(router_kernel.CapTable(groups.keys, groups.by_total,
                                                        self.masks_by_total,
                                                        self.totals_by_total))
        return groups.tables[0], groups.tables[1]

    def candidates(self, used: int, start: int) -> Sequence[int]:
        """The positions from ``start`` on, ascending, of the runs whose group key ``used``
        leaves free (every other run shares a first hop with it): the runs a search node
        tries, without stepping over the others one by one."""
        key = used & self.hot
        if not key:
            return range(start, len(self.values))
        groups = self.grouped()
        merged = groups.free_positions.get(key)
        if merged is None:
            merged = sorted(chain.from_iterable(
                positions for group_key, positions in zip(groups.keys, groups.by_value,
                                                          strict=True)
                if not group_key & key))
            if len(groups.free_positions) < MERGED_KEYS:
                groups.free_positions[key] = merged
        return merged[bisect_left(merged, start):] if start else merged

    def free_caps(self, used: int) -> tuple[int, int]:
        """Upper bounds on this train's best run compatible with ``used``, by value and by
        value + mail: the best of the groups whose key ``used`` leaves free (a run of any
        other group shares a resource with it), or an unlisted run."""
        groups = self.grouped()
        key = used & self.hot
        found = groups.free.get(key)
        if found is None:
            # (Identical trains share the groups, and their unlisted runs are the same.)
            best = max(self.unseen, 0)
            top = max(self.unseen_total, best)
            values, totals = self.values, self.totals_by_total
            for g, group_key in enumerate(groups.keys):
                if not group_key & key:
                    best = max(best, values[groups.by_value[g][0]])
                    top = max(top, totals[groups.by_total[g][0]])
            found = groups.free[key] = (best, top)
        return found


# The most lists of free positions one run list keeps (each up to the list's length).
MERGED_KEYS = 512


@dataclass(frozen=True)
class _Groups:
    keys: list[int]
    by_value: list[list[int]]
    by_total: list[list[int]]
    # Per key of used bits: the best value and value + mail of the groups it leaves free,
    # and the positions of their runs, ascending (at most MERGED_KEYS lists kept).
    free: dict[int, tuple[int, int]] = field(default_factory=dict)
    free_positions: dict[int, list[int]] = field(default_factory=dict)
    # The compiled form of the groups by value and by value + mail (built on first use).
    tables: list[router_kernel.CapTable] = field(default_factory=list)


    @staticmethod
    def of(masks: list[int], masks_by_total: list[int], hot: int) -> _Groups:
        # Sorting positions by key (stable) puts each group's positions together, ascending.
        keys_v = [mask & hot for mask in masks]
        order = sorted(range(len(keys_v)), key=keys_v.__getitem__)
        by_value = [list(g) for _, g in groupby(order, key=keys_v.__getitem__)]
        keys = [keys_v[g[0]] for g in by_value]
        keys_t = [mask & hot for mask in masks_by_total]
        order = sorted(range(len(keys_t)), key=keys_t.__getitem__)
        found = {key: list(g) for key, g in groupby(order, key=keys_t.__getitem__)}
        return _Groups(keys, by_value, [found[key] for key in keys])


# A bound's scan of one group stops after this many runs that conflict (the runs after are
# worth no more than the one where it stopped, which then stands in for them).
CAP_STEPS = 48


def _compatible_cap(keys: list[int], groups: list[list[int]], masks: list[int],
                    figures: list[int], used: int, floor: int) -> int:
    """An upper bound on the best figure of a run sharing no bit with ``used`` (``floor`` if
    none is above it): per group whose key ``used`` leaves free, the first compatible run's
    figure, or the figure where the scan gave up (every later run of the group is worth no
    more, the lists being sorted best first).  Exact when no scan gives up."""
    best = floor
    for g, key in enumerate(keys):
        if key & used:
            continue
        positions = groups[g]
        for q in range(len(positions)):
            p = positions[q]
            figure = figures[p]
            if figure <= best:
                break
            if not masks[p] & used or q >= CAP_STEPS:
                best = figure
                break
    return best


def _first_compatible(keys: list[int], groups: list[list[int]], masks: list[int],
                      figures: list[int], used: int, start: int, floor: int
                      ) -> tuple[int, int]:
    """The first position ``p >= start`` (the lists are sorted best first by ``figures``)
    whose mask shares no bit with ``used`` and whose figure is above ``floor``: the same
    position a plain scan of the list finds, looked for group by group (a group whose key
    meets ``used`` is skipped whole; within a group, positions ascend).  Also the largest
    figure at or below ``floor`` where a group's scan stopped (-1: none), for the record of
    discarded bounds."""
    found = len(masks)
    stopped = -1
    for g, key in enumerate(keys):
        if key & used:
            continue
        positions = groups[g]
        at = bisect_left(positions, start) if start else 0
        for q in range(at, len(positions)):
            p = positions[q]
            if p >= found:
                break
            if figures[p] <= floor:
                if figures[p] > stopped:
                    stopped = figures[p]
                break
            if not masks[p] & used:
                found = p
                break
    return (found if found < len(masks) else -1), stopped


@dataclass
class _Search:
    slots: list[_TrainSlot]
    duties: int
    duty_reach: list[int]  # union of duty bits reachable by slots i.. n-1
    best_value: int = -1
    # Per slot (run index or -1, mail); None: nothing beat the value the search started from.
    best: list[tuple[int, bool]] | None = None
    nodes: int = 0
    exhausted: bool = False  # the budget ran out in this search
    pruned_bound: int = -1
    root_bound: int = 0
    # Per slot, the most a search node offered on top of an unlisted run of its train: with
    # the mail left to another train (``unseen_context``), and with the mail still free, to
    # be carried by the unlisted run (``unseen_total_context``); -1: none.
    unseen_context: list[int] = field(default_factory=list)
    unseen_total_context: list[int] = field(default_factory=list)
    # Per slot j, upper bounds on what trains j.. can add on their own (every resource free,
    # no duty): with the mail already taken, and with it free (a "Russian doll" bound, each
    # found by a search of the trains after it); :data:`NEVER` where not known.
    tail: list[tuple[int, int]] = field(default_factory=list)
    budget: Budget | None = None
    # The tail bounds with the first hops already used (``hot``: every gauge's first-hop
    # bits), per (slot, used bits among them); shared by the searches that compute them.
    hot: int = 0
    tails_used: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)

    def tail_for(self, j: int, used: int) -> tuple[int, int]:
        """What trains j.. can add on their own with the first hops in ``used`` taken (a
        relaxation of ``used``): a search of them alone from those bits, cached; the plain
        tail bound when none are used, or when the cache is full."""
        key = used & self.hot
        if not key or j >= len(self.slots) - 1:
            return self.tail[j]
        found = self.tails_used.get((j, key))
        if found is None:
            if len(self.tails_used) >= TAIL_KEYS or (self.budget and self.budget.exhausted):
                return self.tail[j]
            try:
                found = _tail_search(self.slots, self.tail, j, key, self.budget, self.hot,
                                     self.tails_used)
            except _OutOfBudget:
                return self.tail[j]  # (this search stops at its next node)
            self.tails_used[j, key] = found
        return found

    def limits(self, j: int, used: int, mail: bool) -> tuple[int, int]:
        """Upper bounds for train ``j`` given the used resources: its best run compatible with
        them (or an unlisted one), and its best value + mail bonus (equal if the mail is
        taken).  Listed runs are sorted best first, so the first compatible one is the best."""
        slot = self.slots[j]
        if slot.compiled:
            by_value, by_total = slot.cap_tables()
            best = by_value.upper_bound(used, max(slot.unseen, 0), CAP_STEPS)
            if not mail:
                return best, best
            return best, by_total.upper_bound(used, max(best, slot.unseen_total), CAP_STEPS)
        groups = slot.grouped()
        best = _compatible_cap(groups.keys, groups.by_value, slot.masks, slot.values, used,
                               max(slot.unseen, 0))
        if not mail:
            return best, best
        top = _compatible_cap(groups.keys, groups.by_total, slot.masks_by_total,
                              slot.totals_by_total, used, max(best, slot.unseen_total))
        return best, top

    def bound(self, i: int, used: int, mail: bool) -> tuple[int, int]:
        """Upper bounds for trains i.. given the used resources: (sum of each train's best
        compatible run, best extra from nominating one of them as the mail)."""
        total = 0
        gain = 0
        for j in range(i, len(self.slots)):
            best, top = self.limits(j, used, mail)
            total += best
            gain = max(gain, top - best)
        return total, gain

    def search(self, i: int, used: int, covered: int, value: int, mail: bool, start: int,
               chosen: list[tuple[int, bool]]) -> None:
        self.nodes += 1
        if self.budget is not None and self.best_value >= 0:
            self.budget.spend()  # only with a legal run set in hand to answer with
        slots = self.slots
        if i == len(slots):
            if covered & self.duties == self.duties and value > self.best_value:
                self.best_value = value
                self.best = list(chosen)
            return
        missing = self.duties & ~covered
        if missing & ~self.duty_reach[i]:
            return
        slot = slots[i]
        if i == len(slots) - 1 and not missing:
            self._last(i, used, value, mail, start, chosen)
            return
        limits = [self.limits(j, used, mail) for j in range(i + 1, len(slots))]
        # Identical trains after this one take runs later in the same list (no symmetric
        # repeats), so with run k here each is worth at most run k + 1, and with the mail
        # the best value + mail of the runs after k (or an unlisted run): the bound of the
        # pair, not of each train's best run.
        same = 0
        while same < len(limits) and slots[i + 1 + same].same_as_previous:
            same += 1
        twins = limits[:same]
        others_rest = sum(best for best, _ in limits[same:])
        others_gain = max((top - best for best, top in limits[same:]), default=0)
        rest = others_rest + sum(best for best, _ in twins)
        gain = max([others_gain, *(top - best for best, top in twins)])
        values, masks, duties, mails = slot.values, slot.masks, slot.duties, slot.mails
        n = len(values)
        max_mail = slot.max_mail if mail else 0
        unseen, unseen_total, totals_after = slot.unseen, slot.unseen_total, slot.totals_after
        rest_k, gain_k = rest, gain
        follow = slots[i + 1:]
        cap = cap_total = NEVER
        tail_taken, tail_free = self.tail_for(i + 1, used)
        alone = tail_free if mail else tail_taken  # the trains after this one, on their own
        # With this train's run (and the mail, if free, carried by one of the trains).
        alone_mail = (max_mail + tail_taken if max_mail + tail_taken > tail_free
                      else tail_free) if mail else tail_taken
        for k in slot.candidates(used, start):
            run_value = values[k]
            if same:  # (conditional expressions: this loop is hot, min() is slower)
                nxt = values[k + 1] if k + 1 < n else 0
                cap = nxt if nxt > unseen else unseen
                cap_total = totals_after[k + 1]
                if unseen_total > cap_total:
                    cap_total = unseen_total
                rest_k, gain_k = others_rest, others_gain
                for best, top in twins:
                    if best > cap:
                        best = cap
                    rest_k += best
                    if mail:
                        if top > cap_total:
                            top = cap_total
                        if top - best > gain_k:
                            gain_k = top - best
            # Every term falls as k grows: the first run that cannot beat the answer ends
            # the list.  The trains after this one add at most ``rest_k`` (+ the mail) and at
            # most what they could on their own (``tail``).
            ahead = rest_k + (max_mail if max_mail > gain_k else gain_k)
            if ahead > alone_mail:
                ahead = alone_mail
            ceiling = value + run_value + ahead
            if ceiling <= self.best_value:
                self.pruned_bound = max(self.pruned_bound, ceiling)
                break
            if masks[k] & used:
                continue
            n_used = used | masks[k]
            n_covered = covered | duties[k]
            n_start = k + 1 if same else 0
            # With run k taken, each later train is also held to the best run of the groups
            # its first hops leave free (:meth:`_TrainSlot.free_caps`).
            rest_c = gain_c = 0
            for f, (best, top) in enumerate(limits):
                if f < same:
                    if best > cap:
                        best = cap
                    if top > cap_total:
                        top = cap_total
                free_best, free_top = follow[f].free_caps(n_used)
                if best > free_best:
                    best = free_best
                if top > free_top:
                    top = free_top
                rest_c += best
                if mail and top - best > gain_c:
                    gain_c = top - best
            if mail:
                chosen.append((k, True))
                self._descend(i, n_used, n_covered, value + run_value + mails[k], False,
                              n_start, chosen, rest_c if rest_c < tail_taken else tail_taken)
                chosen.pop()
            chosen.append((k, False))
            self._descend(i, n_used, n_covered, value + run_value, mail, n_start, chosen,
                          rest_c + gain_c if rest_c + gain_c < alone else alone)
            chosen.pop()
        if slot.unseen >= 0:
            self._unseen(i, value + rest, gain, mail)
        # The train may also stay idle (no compatible run, or to leave room for others).
        ceiling = value + (rest + gain if rest + gain < alone else alone)
        if ceiling > self.best_value:
            chosen.append((-1, False))
            self.search(i + 1, used, covered, value, mail, n if same else 0, chosen)
            chosen.pop()
        else:
            self.pruned_bound = max(self.pruned_bound, ceiling)

    def _unseen(self, i: int, context: int, gain: int, mail: bool) -> None:
        """The runs below the threshold were not listed (and their mail bonus may be larger
        than any listed run's, so the cuts above do not cover them): this node's bound with
        one of them must not beat the answer, or a lower threshold is needed."""
        slot = self.slots[i]
        if mail:
            self.unseen_context[i] = max(self.unseen_context[i], context + gain)
            self.unseen_total_context[i] = max(self.unseen_total_context[i], context)
            ceiling = max(context + gain + slot.unseen, context + slot.unseen_total)
        else:
            self.unseen_context[i] = max(self.unseen_context[i], context)
            ceiling = context + slot.unseen
        self.pruned_bound = max(self.pruned_bound, ceiling)

    def _last(self, i: int, used: int, value: int, mail: bool, start: int,
              chosen: list[tuple[int, bool]]) -> None:
        """The last train (no duty left to cover): its best compatible run, by value + mail
        if the mail is still free, is the best completion.  By value it is looked for from
        ``start`` on (an identical train before it took an earlier run); with the mail, in
        the whole list (an earlier run is a repeat of another branch, but a legal run)."""
        slot = self.slots[i]
        best = self.best_value
        pick, extra = -1, 0
        groups = slot.grouped()
        if mail:
            p, stopped = _first_compatible(groups.keys, groups.by_total, slot.masks_by_total,
                                           slot.totals_by_total, used, 0, best - value)
            if p >= 0:
                pick, extra = slot.index_by_total[p], slot.totals_by_total[p]
        else:
            pick, stopped = _first_compatible(groups.keys, groups.by_value, slot.masks,
                                              slot.values, used, start, best - value)
            if pick >= 0:
                extra = slot.values[pick]
        if stopped >= 0:
            self.pruned_bound = max(self.pruned_bound, value + stopped)
        if slot.unseen >= 0:
            self._unseen(i, value, 0, mail)
        if value + extra > best:
            self.best_value = value + extra
            self.best = [*chosen, (pick, mail and pick >= 0)]

    def _descend(self, i: int, used: int, covered: int, value: int, mail: bool, start: int,
                 chosen: list[tuple[int, bool]], optimistic_rest: int) -> None:
        if value + optimistic_rest <= self.best_value:
            self.pruned_bound = max(self.pruned_bound, value + optimistic_rest)
            return
        self.search(i + 1, used, covered, value, mail, start, chosen)


# ---------------------------------------------------------------------------------------------
# The public interface.


@dataclass
class Budget:
    """How long :func:`best_run` may search before it answers with the best run set found so
    far, not yet proven optimal: at most ``nodes`` search nodes and ``seconds`` of wall-clock
    time (None: no limit), counted over every pass and bound.  The search stops only once it
    holds a legal run set (with run duties, the first one covering them).  One budget per
    call: it counts what it spends."""

    seconds: float | None = None
    nodes: int | None = None
    spent_nodes: int = 0
    deadline: float = 0.0
    exhausted: bool = False

    def begin(self) -> None:
        self.spent_nodes = 0
        self.exhausted = False
        self.deadline = (time.perf_counter() + self.seconds if self.seconds is not None
                         else float("inf"))

    def spend(self) -> None:
        """Count a search node; raise :class:`_OutOfBudget` once the budget is spent."""
        self.spent_nodes += 1
        if ((self.nodes is not None and self.spent_nodes > self.nodes)
                or (self.spent_nodes % 64 == 0 and time.perf_counter() > self.deadline)):
            self.exhausted = True
            raise _OutOfBudget


class _OutOfBudget(Exception):
    """The search's budget is spent (caught inside the router, never raised to callers)."""


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
    enumerate_ms: float  # the arms
    search_ms: float  # runs over the threshold and the branch and bound, every pass
    thresholds: dict[str, int]  # per gauge: the last pass listed every run worth this much
    total_thresholds: dict[str, int]  # and every run worth this much with its mail bonus
    passes: int
    # The budget ran out: the run is the best found so far and ``upper_bound`` the bound of
    # the whole last pass (``optimal`` only if they meet).
    budget_exhausted: bool = False


@dataclass(frozen=True)
class BestRun:
    """The router's answer: the best legal run (with the mail choice) and its certificate.

    ``upper_bound`` is the search's upper bound on every run set: the largest bound of any
    subtree the last pass discarded (including every bound with a run below its threshold),
    or the value found if larger.  ``stats.root_bound`` is the bound of the whole search
    before it started.  The certificate (``optimal``) is ``upper_bound == run.total`` (nothing
    discarded could beat the value found) and ``root_bound >= run.total`` (the bound is not
    below a legal value, as a valid bound never is).  It proves the optimum given that the
    bound never undercuts what a subtree holds; docs/routes.md says why it does not, and the
    tests check ``upper_bound`` and ``root_bound`` against the brute-force oracle's optimum.
    """

    run: RunValue
    upper_bound: int
    stats: SearchStats

    @property
    def optimal(self) -> bool:
        return self.upper_bound == self.run.total <= self.stats.root_bound


def _expand(cand: Candidate, reduced: ReducedGraph, train: Train, mail: bool) -> Route:
    nodes: list[Node] = [reduced.nodes[cand[START]]]
    tracks: list[int] = []
    arms, one, two = cand[LINKS]
    for lid in arms.links(one, two):
        link = reduced.links[lid]
        nodes.extend(link.nodes[1:])
        tracks.extend(link.tracks)
    return Route(train, tuple(nodes), tuple(tracks), mail)


def _eligible(cand: Candidate, train: Train) -> bool:
    """4.5.4 / 33.4 Large Station limit; 4.8.18 b for a '1M' train; the train's minimums."""
    if train.one_m:
        if cand[LARGE] != 1 or cand[LARGE_BASES] != 1:
            return False
    elif cand[LARGE] > train.large:
        return False
    return not _counts_matter(train) or _enough_stations(cand, train)


def _counts_matter(train: Train) -> bool:
    """Whether some run of arms could have fewer stations or Small Stations than ``train``
    needs (4.5.4 / 33.4 ``route_min_stations``, 4.8.18 b ``min_small_stations``)."""
    return train.min_stations > ARM_RUN_STATIONS or train.min_small > 0


def _enough_stations(cand: Candidate, train: Train) -> bool:
    """4.5.4 / 33.4 and 4.8.18 b: the run has the train's fewest stations and Small Stations
    (its base and the stations of its arms)."""
    arms, one, two = cand[LINKS]
    stations = 1 + (arms.depths[one] if one >= 0 else 0) + arms.depths[two]
    return stations >= train.min_stations and stations - cand[LARGE] >= train.min_small


def _check_minimums(trains: Sequence[Train]) -> None:
    """The router makes runs along track, from a base to at least one more station: a
    train whose runs may have fewer stations (``route_min_stations``) is beyond it."""
    for t in trains:
        if t.min_stations < ARM_RUN_STATIONS:
            raise InputError(f"train {t.name}: route_min_stations {t.min_stations} is below "
                             f"{ARM_RUN_STATIONS}; the router only makes runs along track "
                             "between stations")


def arms_of(graph: RouteGraph, company: str, trains: Sequence[Train], duties: Sequence[str] = ()
            ) -> tuple[dict[TrainGauge, ReducedGraph], dict[TrainGauge, GaugeArms]]:
    """Stages 1 and 2 for the gauges of ``trains``: the reduced graphs and the arms from the
    company's bases, up to the most Large Stations any of the gauge's trains may visit
    (4.5.4, 4.8.18).  ``duties``: the hexes a run must cover (4.2.3 / 4.4.2), sorted."""
    _check_minimums(trains)
    reduced = _reduced(graph, trains, duties)
    caps = _caps(trains)
    return reduced, {g: all_arms(r, graph, company, caps[g]) for g, r in reduced.items()}


def _reduced(graph: RouteGraph, trains: Sequence[Train], duties: Sequence[str]
             ) -> dict[TrainGauge, ReducedGraph]:
    """Stage 1 for each gauge of ``trains``, the gauges sharing resource bits (dual track used
    by both conflicts, 4.5.10) and junction-tile bits (4.2.5)."""
    duty_bits = {h: 1 << i for i, h in enumerate(duties)}
    resources = _Resources()
    hub_bits = {h: 1 << i for i, h in enumerate(sorted(junction_hexes(graph)))}
    return {g: reduce_graph(graph, g, resources, duty_bits, hub_bits)
            for g in sorted({t.gauge for t in trains})}


def _caps(trains: Sequence[Train]) -> dict[TrainGauge, int]:
    """Per gauge, the most Large Stations any of its trains may visit (a '1M': one)."""
    caps: dict[TrainGauge, int] = {}
    for t in trains:
        caps[t.gauge] = max(caps.get(t.gauge, 0), 1 if t.one_m else t.large)
    return caps


def best_run(graph: RouteGraph, company: str, trains: Sequence[Train],
             duties: Iterable[str] = (), first_threshold: int | None = None,
             greedy_start: bool | None = None, budget: Budget | None = None,
             kernel: bool = True) -> BestRun:
    """The company's run of greatest total value (train revenue plus mail, 4.6.2, 4.6.6).

    ``trains`` are those able to run this turn (4.5.1); ``duties`` hexes that must be on a run
    (4.2.3 / 4.4.2).  Deterministic: the same position always gives the same answer.  Raises
    :class:`RuleError` (4.2.3) when no legal run covers every duty hex.

    ``first_threshold`` and ``greedy_start`` only tune speed (and let tests exercise every
    way through): the first pass lists the runs worth at least ``first_threshold`` (0: every
    run); ``greedy_start`` (with no first threshold; with duties, for at most two trains and
    only if it covers them) starts from a run set found greedily and lists only the runs that
    could beat it (None: on a large network).  The
    answer is the optimum whatever they are.

    ``budget`` (None: no limit) lets a caller that must not wait (a game screen, a web
    server's worker) have an answer in bounded time: when it runs out, the answer is the best
    legal run set found so far, its ``upper_bound`` the bound of the whole search, and
    ``optimal`` False unless the two meet (``stats.budget_exhausted`` says it ran out).  Call
    again without a budget for the proven optimum.
    """
    _check_minimums(trains)
    if budget is not None:
        budget.begin()
    duty_list = sorted(set(duties))
    t0 = time.perf_counter()
    gauges: list[TrainGauge] = sorted({t.gauge for t in trains})
    reduced = _reduced(graph, trains, duty_list)
    t1 = time.perf_counter()
    caps = _caps(trains)
    arms = {g: all_arms(reduced[g], graph, company, caps[g]) for g in gauges}
    t2 = time.perf_counter()
    if (kernel and first_threshold is None and greedy_start is None
            and (budget is None or budget.nodes is None)):
        paired = _pair_by_kernel(graph, company, trains, duty_list, reduced, arms,
                                 (t0, t1, t2))
        if paired is not None:
            return paired
    start, listing = _plan(trains, arms, (1 << len(duty_list)) - 1, first_threshold,
                           greedy_start)
    passes = 0
    while True:
        passes += 1
        runs = {g: runs_at_least(arms[g], *listing[g]) for g in gauges}
        search = _run_search(trains, runs, caps, len(duty_list), listing, arms, start, budget,
                             kernel)
        if (search.exhausted or all(v <= 0 for v, _ in listing.values())
                or search.pruned_bound <= search.best_value):
            break
        start, listing = _next_pass(trains, arms, start, listing, search)
    slots = search.slots
    t3 = time.perf_counter()
    if search.best_value < 0:
        raise RuleError("4.2.3", "no legal run covers every hex that must be on a run this "
                        f"turn ({', '.join(duty_list)})")
    if search.best is None:  # nothing beat the run set the search started from
        routes = [_expand(cand, reduced[train.gauge], train, mail)
                  for train, cand, mail in start[1]]
    else:
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
        thresholds={str(g): v for g, (v, _) in listing.items()},
        total_thresholds={str(g): t for g, (_, t) in listing.items()},
        passes=passes,
        budget_exhausted=search.exhausted,
    )
    bound = search.root_bound if search.exhausted else search.pruned_bound
    return BestRun(run, max(run.total, bound), stats)


# The most pairs the kernel tries before it hands the position to the pure-Python search
# (which honours a budget): at most about a second (a block of 64 runs is one step).
KERNEL_STEPS = 20_000_000


def _kernel_arms(gauge_arms: GaugeArms) -> router_kernel.ArmArrays:
    """The arms of every base of the gauge as the kernel's concatenated arrays."""
    from india1853.rules import router_kernel

    ints = router_kernel.ints
    info, bases = gauge_arms.info, gauge_arms.arms
    offsets = [0]
    for a in bases:
        offsets.append(offsets[-1] + len(a.values))
    masks = [m for a in bases for m in a.masks]
    cities = [c for a in bases for c in a.cities]

    return router_kernel.ArmArrays(
        base_off=ints(offsets),
        base_value=ints(info.value[a.base] for a in bases),
        base_large=ints(info.large[a.base] for a in bases),
        base_room=ints(gauge_arms.cap - info.large[a.base] for a in bases),
        masks=router_kernel.words(masks, router_kernel.width_of(masks)),
        cities=router_kernel.words(cities, router_kernel.width_of(cities)),
        larges=ints(lg for a in bases for lg in a.larges),
        values=ints(v for a in bases for v in a.values),
        ends=ints(e for a in bases for e in a.end_values),
        duties=ints(d for a in bases for d in a.duties),
        skip=ints(s + off for a, off in zip(bases, offsets, strict=False) for s in a.skip))


def _pair_by_kernel(graph: RouteGraph, company: str, trains: Sequence[Train],
                    duty_list: Sequence[str], reduced: dict[TrainGauge, ReducedGraph],
                    arms: dict[TrainGauge, GaugeArms], clock: tuple[float, float, float]
                    ) -> BestRun | None:
    """Two trains of one gauge: every run listed and the best pair found by the compiled
    kernel (:mod:`india1853.rules.router_kernel`; 4.5.10 no shared resource, 4.6.6 one
    mail, 4.5.4 each train's Large Station limit, 4.2.3 / 4.4.2 the duty hexes covered),
    certified as the search is (every pair not tried is bounded by the answer).  None when
    the case is not one it takes, when no run set covers the duties (the pure-Python search
    then answers, or raises), or it ran past :data:`KERNEL_STEPS`."""
    from india1853.rules import router_kernel
    if (not router_kernel.AVAILABLE or len(trains) != 2 or len(arms) != 1
            or len(duty_list) > router_kernel.MAX_DUTIES
            or any(t.one_m or _counts_matter(t) for t in trains)):
        return None
    gauge, gauge_arms = next(iter(arms.items()))
    if not gauge_arms.arms or not any(a.values for a in gauge_arms.arms):
        return None
    kernel_arms = _kernel_arms(gauge_arms)
    table = router_kernel.list_runs(kernel_arms)
    one, two = trains
    orders = ([(one.large, two.large)] if one == two
              else [(one.large, two.large), (two.large, one.large)])
    pair = router_kernel.best_pair(table, orders, (1 << len(duty_list)) - 1, KERNEL_STEPS)
    if not pair.finished or pair.carrier < 0:
        return None
    offsets = kernel_arms.base_off

    def candidate(row: int) -> Candidate:
        b = int(table.base[row])
        base_arms = gauge_arms.arms[b]
        first, last = int(table.one[row]), int(table.two[row]) - int(offsets[b])
        first = first - int(offsets[b]) if first >= 0 else -1
        start = base_arms.hops[first][2] if first >= 0 else base_arms.base
        return (int(table.value[row]), int(table.mail[row]), int(table.large[row]), 0, 0, 0,
                start, (base_arms, first, last))

    if pair.other >= 0:
        carrier_train, other_train = (one, two) if pair.order <= 0 else (two, one)
        chosen = [(carrier_train, pair.carrier, True), (other_train, pair.other, False)]
    else:
        carrier_train = one if table.large[pair.carrier] <= one.large else two
        chosen = [(carrier_train, pair.carrier, True)]
    routes = [_expand(candidate(row), reduced[gauge], train, mail)
              for train, row, mail in chosen]
    run = check_routes(graph, company, trains, routes, duty_list)
    if run.total != pair.total:
        return None  # never expected: the pure-Python search decides
    t0, t1, t2 = clock
    t3 = time.perf_counter()
    stats = SearchStats(
        key_nodes={gauge: len(reduced[gauge].nodes)},
        links={gauge: len(reduced[gauge].links)},
        candidates={f"{i + 1}:{t.name}": len(table.value) for i, t in enumerate(trains)},
        search_nodes=pair.steps,
        root_bound=pair.root_bound,
        pruned_bound=pair.pruned_bound,
        reduce_ms=(t1 - t0) * 1000,
        enumerate_ms=(t2 - t1) * 1000,
        search_ms=(t3 - t2) * 1000,
        thresholds={str(gauge): 0},
        total_thresholds={str(gauge): 0},
        passes=1,
    )
    return BestRun(run, max(run.total, pair.pruned_bound), stats)


def _plan(trains: Sequence[Train], arms: dict[TrainGauge, GaugeArms], duties: int,
          first_threshold: int | None, greedy_start: bool | None) -> tuple[_Start, Listing]:
    """The run set the search starts from and what the first pass lists.  On a large network
    the thresholds come from a good run set found first (every listed run must be able to
    help beat it); the search then proves the answer optimal or says how low the thresholds
    must go.  With duties (``duties``: their bits, 4.2.3 / 4.4.2) only a greedy run set that
    covers every duty hex is a start (it is legal), and only for up to
    :data:`DUTY_START_TRAINS` trains; otherwise every run is listed.  (With
    thresholds, a train with unlisted runs counts as able to reach every duty hex, so the
    search's duty test stays exact: :func:`_run_search`.)"""
    nothing: _Start = (-1, [], {})
    every = {g: (0, 0) for g in arms}
    if duties and first_threshold is not None:
        return nothing, every
    if first_threshold is not None:
        return nothing, {g: (first_threshold, first_threshold + a.mail_cap)
                         for g, a in arms.items()}
    small = sum(len(a.values) for g in arms.values() for a in g.arms) < ARMS_FOR_THRESHOLDS
    if not greedy_start if greedy_start is not None else small:
        return nothing, every
    if duties and len(trains) > DUTY_START_TRAINS:
        return nothing, every
    start = _incumbent(trains, arms)
    covered = 0
    for _, cand, _ in start[1]:
        covered |= cand[DUTY]
    if covered & duties != duties:
        return nothing, every
    # Aim halfway between the run set found and the most any could be worth (if that is
    # far): if the optimum is that good, one pass over fewer runs finds and proves it; if
    # not, the next pass lists what the better run set found calls for.
    ceiling = _ceiling(trains, start[2])
    aim = start[0] + 1 + (ceiling - start[0] - 1) // 2
    return start, _listing_for(trains, start[2],
                               aim if ceiling - start[0] >= AIM_GAP else start[0] + 1)


def _next_pass(trains: Sequence[Train], arms: dict[TrainGauge, GaugeArms], start: _Start,
               listing: Listing, search: _Search) -> tuple[_Start, Listing]:
    """After a pass that could not prove its answer: the run set to beat and what to list."""
    lower = _next_listing(listing, search, arms, paced=not start[2])
    if not start[2]:
        return start, lower
    # What the better run set found calls for (enough, docs/routes.md); never less than the
    # search nodes call for, so that every pass lowers a threshold.
    if search.best is not None:
        start = (search.best_value, _taken(search), start[2])
    wanted = _listing_for(trains, start[2], start[0] + 1)
    return start, {g: (min(v, wanted[g][0]), min(t, wanted[g][1]))
                   for g, (v, t) in lower.items()}


# A threshold this low lists (nearly) every run anyway: go straight to a complete list. (The
# answer is correct whatever the thresholds; they only decide how much is listed.)
MIN_RUN_VALUE = 20
# From a forced first threshold, the least each later pass lowers a threshold by.
STEP = (1, 2)
# Below this many arms the runs are few enough to list them all in one pass.
ARMS_FOR_THRESHOLDS = 300
# From a forced first threshold, a pass whose search took more nodes than this is followed
# by a complete pass.
NODES_FOR_ANOTHER_PASS = 1000
# The first pass aims above the run set found greedily when the most any run set could be
# worth is at least this much more (else halfway would list hardly fewer runs).
AIM_GAP = 40

# With run duties, the greedy start (and thresholds) only for this many trains or fewer: in
# a pass that leaves runs out, no node can be cut for a duty hex (an unlisted run might
# cover it), which with more trains costs more than the complete listing saves (measured:
# six trains with a duty took twice as long; two trains took under half as long).
DUTY_START_TRAINS = 2

# Per gauge, what a pass lists: the runs worth at least the first figure, or at least the
# second with their mail bonus ((0, 0): every run).
Listing = dict[TrainGauge, tuple[int, int]]


# A legal run set to start from: its total, its runs (train, run, carries the mail) and, per
# train, the most any of its runs is worth without and with the mail (empty: not known).
_Start = tuple[int, list[tuple[Train, Candidate, bool]], dict[Train, tuple[int, int]]]


def _incumbent(trains: Sequence[Train], arms: dict[TrainGauge, GaugeArms]) -> _Start:
    """A good legal run set, found greedily: each train in turn takes its most valuable run
    sharing no resource with those taken before (4.5.10), one of them (first or last) its
    best run with the mail (4.6.6).  Any legal set would do (the search only has to beat
    it); a good one lets the thresholds leave out every run that could not."""
    found: dict[tuple[Train, int, bool], Candidate | None] = {}

    def best(train: Train, used: int, mail: bool, at_least: int = 1) -> Candidate | None:
        key = (train, used, mail)
        if key not in found:
            # A train of the gauge that may visit more Large Stations (a '6' for a '5') may
            # have found a run this one may make too: then it is this one's best as well.
            wider = [c for (t, u, m), c in found.items() if u == used and m == mail
                     and t.gauge == train.gauge and not t.one_m and not train.one_m
                     and t.large >= train.large and t.min_stations <= train.min_stations
                     and t.min_small <= train.min_small]
            if wider and (wider[0] is None or _eligible(wider[0], train)):
                found[key] = wider[0]
            else:
                found[key] = best_compatible(arms[train.gauge], train, used, mail, at_least)
        return found[key]

    tops: dict[Train, tuple[int, int]] = {}
    for train in sorted(set(trains), key=lambda t: (t.gauge, -t.large, t.one_m, t.name)):
        plain = best(train, 0, False)
        # The best run with the mail is worth at least the best run is with its own.
        mailed = None if plain is None else best(train, 0, True, plain[VALUE] + plain[MAIL])
        tops[train] = (plain[VALUE] if plain else 0, mailed[VALUE] + mailed[MAIL] if mailed else 0)
    order = sorted(trains, key=lambda t: (-tops[t][0], t.gauge, -t.large, t.one_m, t.name))
    best_total, best_set = 0, []
    for carrier in dict.fromkeys(order):
        others = list(order)
        others.remove(carrier)
        for sequence in ([(carrier, True)] + [(t, False) for t in others],
                         [(t, False) for t in others] + [(carrier, True)]):
            used = 0
            total = 0
            taken: list[tuple[Train, Candidate, bool]] = []
            for train, mail in sequence:
                cand = best(train, used, mail)
                if cand is not None:
                    used |= cand[MASK]
                    total += cand[VALUE] + (cand[MAIL] if mail else 0)
                    taken.append((train, cand, mail))
            if total > best_total:
                best_total, best_set = total, taken
    return best_total, best_set, tops


def _listing_for(trains: Sequence[Train], tops: dict[Train, tuple[int, int]], target: int
                 ) -> Listing:
    """The thresholds that list every run able to be part of a run set worth ``target`` or
    more, per gauge: a train's run must bring that total less the most the other trains
    could add (their best runs, one of them with the mail; for its own mail bonus, their
    best runs without).  Every unlisted run then falls short of ``target`` in every search
    node, so a pass that finds a run set worth that much settles the answer."""
    values = [tops[t][0] for t in trains]
    gains = [tops[t][1] - tops[t][0] for t in trains]
    out: Listing = {}
    for i, train in enumerate(trains):
        others = sum(values) - values[i]
        gain = max((g for j, g in enumerate(gains) if j != i), default=0)
        value, with_mail = out.get(train.gauge, (NEVER, NEVER))
        out[train.gauge] = (min(value, target - others - gain),
                            min(with_mail, target - others))
    return {g: (0, 0) if v <= MIN_RUN_VALUE else (v, t) for g, (v, t) in out.items()}


def _ceiling(trains: Sequence[Train], tops: dict[Train, tuple[int, int]]) -> int:
    """The most any run set could be worth: every train's best run, one with the mail
    (4.6.2, 4.6.6)."""
    return (sum(tops[t][0] for t in trains)
            + max((tops[t][1] - tops[t][0] for t in trains), default=0))


def _taken(search: _Search) -> list[tuple[Train, Candidate, bool]]:
    """The run set the search found, as (train, run, carries the mail)."""
    assert search.best is not None
    return [(slot.train, slot.runs[k], mail)
            for slot, (k, mail) in zip(search.slots, search.best, strict=True) if k >= 0]


def _unseen(listing: tuple[int, int], gauge_arms: GaugeArms) -> tuple[int, int]:
    """The most a run the listing leaves out can be worth, without and with its mail bonus
    (-1, -1: it leaves none out).  A mail bonus is at most the run's value (its two ends are
    among its stations) and at most the gauge's ``mail_cap``."""
    value, total = listing
    if value <= 0:
        return -1, -1
    unseen = min(value - 1, total - 1, gauge_arms.best_possible)
    return unseen, min(total - 1, unseen + gauge_arms.mail_cap, 2 * unseen)


def _next_listing(listing: Listing, search: _Search, arms: dict[TrainGauge, GaugeArms],
                  paced: bool = True) -> Listing:
    """The thresholds of the next pass, per gauge: low enough that every search node seen
    would have been decided without the runs still unlisted, but (``paced``) no more than
    half as low at a time (the answer found improves as more runs are listed), and every
    run after a costly search."""
    best = search.best_value
    out: Listing = {}
    for gauge, (value, total) in listing.items():
        slots = [i for i, s in enumerate(search.slots) if s.train.gauge == gauge]
        context = max((search.unseen_context[i] for i in slots), default=-1)
        total_context = max((search.unseen_total_context[i] for i in slots), default=-1)
        unseen, unseen_total = _unseen((value, total), arms[gauge])
        if context >= 0 and context + unseen > best:
            floor = value * STEP[0] // STEP[1] if paced else 0
            value = min(value - 1, max(best + 1 - context, floor))
        if total_context >= 0 and total_context + unseen_total > best:
            floor = total * STEP[0] // STEP[1] if paced else 0
            total = min(total - 1, max(best + 1 - total_context, floor))
        if min(value, total) <= MIN_RUN_VALUE or (paced
                                                  and search.nodes > NODES_FOR_ANOTHER_PASS):
            value = total = 0  # list every run (a costly search is done once more only)
        out[gauge] = (value, total)
    return out


def _run_search(trains: Sequence[Train], runs: dict[TrainGauge, list[Candidate]],
                caps: dict[TrainGauge, int], duty_count: int, listing: Listing,
                arms: dict[TrainGauge, GaugeArms], start: _Start,
                budget: Budget | None = None, kernel: bool = True) -> _Search:
    """One pass of the branch and bound over the runs of ``listing``, to beat the run set
    ``start`` (if any); cut short (``exhausted``) when the budget runs out.  ``kernel``:
    with :data:`KERNEL_CAP_SLOTS` trains or more, the bounds by the compiled kernel."""
    slots = _slots(trains, runs, caps, {g: _unseen(listing[g], a) for g, a in arms.items()},
                   start[2])
    if kernel and len(slots) >= KERNEL_CAP_SLOTS and _kernel_available():
        slots = [replace(slot, compiled=True) for slot in slots]
    hot = {g: _first_hops(a) for g, a in arms.items()}
    for slot in slots:
        slot.hot = hot[slot.train.gauge]
    reach = [0] * (len(slots) + 1)
    every_duty = (1 << duty_count) - 1
    for i in range(len(slots) - 1, -1, -1):
        # A train with unlisted runs may reach any duty hex with one of them (4.2.3): the
        # node is then left to the unlisted-run bound (:meth:`_Search._unseen`), not cut.
        union = every_duty if slots[i].unseen >= 0 else 0
        for duty in slots[i].duties:
            union |= duty
        reach[i] = reach[i + 1] | union
    search = _Search(slots, (1 << duty_count) - 1, reach, best_value=start[0],
                     unseen_context=[-1] * len(slots), unseen_total_context=[-1] * len(slots),
                     budget=budget)
    root, gain = search.bound(0, 0, True)
    search.root_bound = root + gain
    search.tail = _tails(slots, budget)
    search.hot = 0 if len(slots) < TAIL_SLOTS else functools.reduce(
        operator.or_, hot.values(), 0)
    try:
        search.search(0, 0, 0, 0, True, 0, [])
    except _OutOfBudget:
        search.exhausted = True
    return search





# From this many trains on, the bounds of a search node (each train's best compatible run)
# are found by the compiled kernel: the same figures, and with thousands of search nodes its
# arrays pay for themselves (measured: docs/performance.md, "Router tail, kernel").
KERNEL_CAP_SLOTS = 3

def _kernel_available() -> bool:
    from india1853.rules import router_kernel

    return router_kernel.AVAILABLE


# Tail bounds with first hops taken are worth their searches from this many trains on.
TAIL_SLOTS = 3
# The most tail bounds with first hops taken that one search computes (each a search).
TAIL_KEYS = 2000


def _tail_search(slots: list[_TrainSlot], tail: list[tuple[int, int]], j: int, used: int,
                 budget: Budget | None, hot: int,
                 tails_used: dict[tuple[int, int], tuple[int, int]]) -> tuple[int, int]:
    """Upper bounds on what trains j.. add on their own from ``used`` (no duties), with the
    mail taken and with it free: the certified bounds of two searches."""
    n = len(slots)
    found, bounds = -1, []
    for mail in (False, True):
        sub = _Search(slots, 0, [0] * (n + 1), best_value=found, unseen_context=[-1] * n,
                      unseen_total_context=[-1] * n, tail=tail, budget=budget, hot=hot,
                      tails_used=tails_used)
        sub.search(j, used, 0, 0, mail, 0, [])
        found = sub.best_value
        bounds.append(max(sub.best_value, sub.pruned_bound))
    return bounds[0], bounds[1]


def _tails(slots: list[_TrainSlot], budget: Budget | None = None) -> list[tuple[int, int]]:
    """Per slot j (and past the last), upper bounds on what trains j.. can add on their own,
    with the mail taken and with it free: each the certified bound of a search of those
    trains alone (every resource free, duties dropped: a relaxation, so never below what
    they add in any node), from the last train back, each search bounded by the ones after
    it.  Unlisted runs count (the searches record their bounds as the main one does).  If
    the budget runs out, the bounds not found yet stay unknown."""
    n = len(slots)
    tail = [(NEVER, NEVER)] * n + [(0, 0)]
    for j in range(n - 1, 0, -1):
        found, bounds = -1, []
        for mail in (False, True):
            sub = _Search(slots, 0, [0] * (n + 1), best_value=found,
                          unseen_context=[-1] * n, unseen_total_context=[-1] * n, tail=tail,
                          budget=budget)
            try:
                sub.search(j, 0, 0, 0, mail, 0, [])
            except _OutOfBudget:
                return tail
            found = sub.best_value  # legal with the mail free too: a start for that search
            bounds.append(max(sub.best_value, sub.pruned_bound))
        tail[j] = (bounds[0], bounds[1])
    return tail


def _first_hops(gauge_arms: GaugeArms) -> int:
    """The resource bits of every arm's first hop from its base: nearly every run uses some
    (a run leaves its base by one or two of them), which makes them good cache keys."""
    out = 0
    for arms in gauge_arms.arms:
        for k, depth in enumerate(arms.depths):
            if depth == 1:
                out |= arms.masks[k]
    return out


def _slots(trains: Sequence[Train], runs: dict[TrainGauge, list[Candidate]],
           caps: dict[TrainGauge, int], unlisted: dict[TrainGauge, tuple[int, int]],
           tops: dict[Train, tuple[int, int]]) -> list[_TrainSlot]:
    """Trains in search order (best single run first; identical trains together), each with
    its eligible runs sorted best first: by value, then mail bonus, then enumeration order
    (deterministic: the sorts are stable).  Identical trains share their lists.  What an
    unlisted run can be worth is capped by the train's best run (``tops``), when known."""
    shared: dict[Train, _TrainSlot] = {}
    for train in sorted(set(trains), key=lambda t: (t.gauge, t.large, t.one_m, t.name)):
        shared[train] = _slot(train, runs[train.gauge], caps[train.gauge])
    order = sorted(trains, key=lambda t: (-(shared[t].values[0] if shared[t].values else 0),
                                          t.gauge, -t.large, t.one_m, t.name))
    slots: list[_TrainSlot] = []
    for i, train in enumerate(order):
        same = i > 0 and order[i - 1] == train
        unseen, unseen_total = unlisted[train.gauge]
        if train in tops and unseen >= 0:
            unseen = min(unseen, tops[train][0])
            unseen_total = min(unseen_total, tops[train][1])
        slots.append(replace(shared[train], same_as_previous=same, unseen=unseen,
                             unseen_total=unseen_total))
    return slots


def _slot(train: Train, runs: list[Candidate], cap: int) -> _TrainSlot:
    """The train's eligible runs, already sorted best first by :func:`runs_at_least`
    (``cap``: the most Large Stations of any of them)."""
    if train.one_m or train.large < cap or _counts_matter(train):
        runs = [c for c in runs if _eligible(c, train)]
    values = list(map(itemgetter(VALUE), runs))
    mails = list(map(itemgetter(MAIL), runs))
    masks = list(map(itemgetter(MASK), runs))
    totals = list(map(add, values, mails))
    # Indices by value + mail, best first (stable; the value order is nearly this order
    # already, which the sort exploits).
    order = sorted(range(len(totals)), key=totals.__getitem__, reverse=True)
    after = [*totals, 0]
    for k in range(len(totals) - 1, -1, -1):
        if after[k + 1] > after[k]:
            after[k] = after[k + 1]
    return _TrainSlot(train, runs, values, masks, list(map(itemgetter(DUTY), runs)), mails,
                      [totals[k] for k in order], [masks[k] for k in order], order, after,
                      max(mails, default=0), False)
