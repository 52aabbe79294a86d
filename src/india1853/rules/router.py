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
   generated exactly once (from its lowest-ranked base), listed best first above a per-gauge
   value threshold.
4. **Branch and bound** over the trains: each train takes one of its listed runs (or none),
   runs pairwise share no resource (4.5.10), one of them may carry the mail (4.6.6), every duty
   hex is covered (4.2.3 / 4.4.2).  The bound is the sum of each remaining train's best
   compatible run (listed, or the most an unlisted one could be worth) plus the best mail gain.
   If a bound with an unlisted run could beat the answer, the threshold is lowered and the
   search repeated; the last pass is exhaustive for everything that could matter (no caps, no
   time limit), so the value found is the optimum, and the certificate records the largest
   bound of any discarded subtree, which never exceeds it.
"""

from __future__ import annotations

import time
from bisect import bisect_right
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
    junction_hexes,
)

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

    Rules 4.5.2 (a base), 4.5.4 (Large Station limit, at least two stations), 4.5.5 (one visit
    per city, no reversing), 4.5.6 (not past a blocked station), 4.5.8 (no track twice).
    """
    return runs_at_least(all_arms(reduced, graph, company, cap), threshold)


@dataclass(frozen=True)
class GaugeArms:
    """The arms from every base of the company on one gauge's reduced graph."""

    info: _Stations
    arms: tuple[_Arms, ...]
    cap: int


def all_arms(reduced: ReducedGraph, graph: RouteGraph, company: str, cap: int) -> GaugeArms:
    """The arms from each of the company's bases on this gauge (4.5.2: every run includes a
    base), up to ``cap`` Large Stations with the base."""
    present = set(reduced.nodes)
    bases = sorted(n for n in graph.base_nodes(company) if n in present)
    info = _stations(reduced, graph, company, bases)
    hops = station_hops(reduced)
    index = {n: i for i, n in enumerate(reduced.nodes)}
    return GaugeArms(info, tuple(_grow_arms(index[b], hops, info, cap, reduced.hub_bits)
                                 for b in bases), cap)


def runs_at_least(gauge_arms: GaugeArms, threshold: int) -> list[Candidate]:
    """Every run worth at least ``threshold``, best first.  Runs go straight into buckets by
    value, so they come out sorted without a sort of tens of thousands; within a value, by
    mail bonus (stable, so deterministic)."""
    info = gauge_arms.info
    by_value: list[list[Candidate]] = [[] for _ in range(sum(info.value) + 1)]
    for arms in gauge_arms.arms:
        _runs_through(arms, info, gauge_arms.cap, threshold, by_value)
    out: list[Candidate] = []
    for bucket in reversed(by_value):
        if bucket:
            bucket.sort(key=itemgetter(MAIL), reverse=True)
            out.extend(bucket)
    return out


@dataclass
class _Arms:
    """Every arm from one base ``b``: a path from ``b`` hop by hop to a station, never through
    a lower-ranked base (that run belongs to the lower base), past a blocked station (4.5.6),
    to a city twice (4.5.5) or over a resource twice (4.5.8, 4.5.10).

    Parallel lists in depth-first preorder, children of ``b`` in increasing chain order.  All
    per-arm figures count the arm's stations only (not ``b``) and are cumulative along the
    tree, so a test that fails for an arm fails for its whole subtree, which ends at
    ``skip[arm]``.
    """

    base: int
    ends: list[int] = field(default_factory=list)
    masks: list[int] = field(default_factory=list)
    cities: list[int] = field(default_factory=list)
    larges: list[int] = field(default_factory=list)
    values: list[int] = field(default_factory=list)
    large_bases: list[int] = field(default_factory=list)
    duties: list[int] = field(default_factory=list)
    chains: list[int] = field(default_factory=list)  # chain of the arm's first link
    parents: list[int] = field(default_factory=list)
    hops: list[Hop] = field(default_factory=list)  # the last hop of the arm
    skip: list[int] = field(default_factory=list)
    best_below: list[int] = field(default_factory=list)  # best value in the arm's subtree
    best_after: list[int] = field(default_factory=list)  # best value from this index on

    def links(self, one: int, two: int) -> tuple[int, ...]:
        """The links of the run along arm ``one`` backwards to the base, then out along arm
        ``two`` (``one`` = -1: the run starts at the base)."""
        out: list[int] = []
        k = one
        while k >= 0:
            out.extend(self.hops[k][1])
            k = self.parents[k]
        forward: list[tuple[int, ...]] = []
        k = two
        while k >= 0:
            forward.append(self.hops[k][0])
            k = self.parents[k]
        for ids in reversed(forward):
            out.extend(ids)
        return tuple(out)


def _grow_arms(b: int, hops: list[tuple[Hop, ...]], info: _Stations, cap: int,
               hub_count: int) -> _Arms:
    value, large, large_base = info.value, info.large, info.large_base
    # Stations of lower-ranked bases carry a bit set from the start: the city test turns them
    # away with the cities already visited.
    forbid = 1 << max(max(info.city), (1 << hub_count) - 1).bit_length()
    city = [c | forbid if 0 <= r < info.rank[b] else c
            for c, r in zip(info.city, info.rank, strict=True)]
    # 4.5.6: an arm goes on past a station only if it is not blocked; a station whose only hop
    # is the one the arm arrived by is a dead end.
    onward = [not blk and len(h) > 1 for blk, h in zip(info.blocked, hops, strict=True)]
    arms = _Arms(b)
    ends, masks, cities_, larges, values = (arms.ends, arms.masks, arms.cities, arms.larges,
                                            arms.values)
    lbases, duties, chains, parents, hop_of, skip = (arms.large_bases, arms.duties,
                                                     arms.chains, arms.parents, arms.hops,
                                                     arms.skip)
    b_cities = city[b] | forbid
    room = cap - large[b]

    def grow(options: tuple[Hop, ...], parent: int, chain: int, used: int, cities: int,
             n_large: int, val: int, lbase: int, duty: int) -> None:
        for hop in options:
            _ids, _back, to, mask, hop_chain, hop_duty, hop_hub = hop
            c = city[to] | hop_hub
            if mask & used or c & cities:
                # 4.5.8 / 4.5.10 track or edge twice; 4.5.5 a city, 4.2.5 a junction, twice
                continue
            nl = n_large + large[to]
            if nl > room:
                continue  # 4.5.4: more Large Stations than the company's biggest train runs to
            k = len(ends)
            n_used = used | mask
            n_cities = cities | c
            nv = val + value[to]
            nb = lbase + large_base[to]
            n_duty = duty | hop_duty
            first = hop_chain if chain < 0 else chain
            ends.append(to)
            masks.append(n_used)
            cities_.append(n_cities - b_cities)
            larges.append(nl)
            values.append(nv)
            lbases.append(nb)
            duties.append(n_duty)
            chains.append(first)
            parents.append(parent)
            hop_of.append(hop)
            skip.append(0)
            if onward[to]:
                grow(hops[to], k, first, n_used, n_cities, nl, nv, nb, n_duty)
            skip[k] = len(ends)

    # Children of b in chain order (stable), so that the chains of the preorder never
    # decrease and arm two's candidates are a suffix of the lists.
    grow(tuple(sorted(hops[b], key=itemgetter(4))), -1, -1, 0, b_cities, 0, 0, 0, 0)
    below = list(values)
    for k in range(len(ends) - 1, -1, -1):
        up = parents[k]
        if up >= 0 and below[k] > below[up]:
            below[up] = below[k]
    after = [*below, 0]
    for k in range(len(ends) - 1, -1, -1):
        if after[k + 1] > after[k]:
            after[k] = after[k + 1]
    arms.best_below = below
    arms.best_after = after
    return arms


def _runs_through(arms: _Arms, info: _Stations, cap: int, threshold: int,
                  by_value: list[list[Candidate]]) -> None:
    """Every run worth at least ``threshold`` whose lowest-ranked base is ``arms.base``,
    appended to ``by_value[its value]``.

    A run through the base is an arm alone (the run starts at the base) or two arms from it
    that share no resource and no city and together stay within the Large Station limit; arm
    two's chain is higher than arm one's, so each run is generated exactly once (the run
    starts at arm one's end).  Arm two is found by a scan of the preorder lists that jumps
    over every subtree whose root already conflicts with arm one, or whose best arm cannot
    reach the threshold.
    """
    b = arms.base
    value, large, large_base = info.value, info.large, info.large_base
    ends, masks, cities, larges = arms.ends, arms.masks, arms.cities, arms.larges
    values, lbases, duties, chains, skip = (arms.values, arms.large_bases, arms.duties,
                                            arms.chains, arms.skip)
    below, after = arms.best_below, arms.best_after
    n = len(ends)
    vb, lb, bb = value[b], large[b], large_base[b]
    room = cap - lb
    k = 0
    while k < n:
        v = vb + values[k]
        if vb + below[k] < threshold:
            k = skip[k]
            continue
        if v >= threshold:
            by_value[v].append((v, vb + value[ends[k]], lb + larges[k], bb + lbases[k],
                                masks[k], duties[k], b, (arms, -1, k)))
        k += 1
    for one in range(n):
        v1 = vb + values[one]
        two = bisect_right(chains, chains[one])
        if two >= n or v1 + after[two] < threshold:
            continue
        m1, c1, left = masks[one], cities[one], room - larges[one]
        d1, end1 = duties[one], ends[one]
        e1, l1, b1 = value[end1], lb + larges[one], bb + lbases[one]
        while two < n:
            if (v1 + below[two] < threshold or masks[two] & m1 or cities[two] & c1
                    or larges[two] > left):
                two = skip[two]
                continue
            v = v1 + values[two]
            if v >= threshold:
                by_value[v].append((v, e1 + value[ends[two]], l1 + larges[two],
                                    b1 + lbases[two], m1 | masks[two], d1 | duties[two], end1,
                                    (arms, one, two)))
            two += 1


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
    best_possible: int = 0  # an upper bound on any of the train's runs, listed or not
    # Runs below the pass's threshold for this gauge are not listed: ``unseen`` is the most
    # any of them is worth (-1: every run is listed), ``mail_cap`` the most any mail bonus of
    # the gauge is worth.
    unseen: int = -1
    mail_cap: int = 0


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
    unseen_context: int = -1  # the most a search node offered on top of an unlisted run

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
            unseen = min(slot.unseen, slot.best_possible)
            best_j = max(unseen, 0)
            masks = slot.masks
            for k in range(first, len(masks)):
                if not masks[k] & used:
                    best_j = slot.values[k]  # listed runs are worth more than unseen ones
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
                if unseen >= 0:
                    gain = max(gain, unseen + slot.mail_cap - best_j)
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
        if slot.unseen >= 0:
            # The runs below the threshold were not listed (and their mail bonus may be larger
            # than any listed run's, so the cut above does not cover them): this node's bound
            # with one of them must not beat the answer, or a lower threshold is needed.
            context = value + rest + (max(slot.mail_cap, gain) if mail else 0)
            self.unseen_context = max(self.unseen_context, context)
            self.pruned_bound = max(self.pruned_bound,
                                    context + min(slot.unseen, slot.best_possible))
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
    enumerate_ms: float  # the arms
    search_ms: float  # runs over the threshold and the branch and bound, every pass
    thresholds: dict[str, int]  # per gauge: the last pass listed every run worth this much
    passes: int


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
    """4.5.4 / 33.4 Large Station limit; 4.8.18 b for a '1M' train."""
    if train.one_m:
        return cand[LARGE] == 1 and cand[LARGE_BASES] == 1
    return cand[LARGE] <= train.large


def best_run(graph: RouteGraph, company: str, trains: Sequence[Train],
             duties: Iterable[str] = (), first_threshold: int | None = None) -> BestRun:
    """The company's run of greatest total value (train revenue plus mail, 4.6.2, 4.6.6).

    ``trains`` are those able to run this turn (4.5.1); ``duties`` hexes that must be on a run
    (4.2.3 / 4.4.2).  Deterministic: the same position always gives the same answer.  Raises
    :class:`RuleError` (4.2.3) when no legal run covers every duty hex.

    ``first_threshold`` only tunes speed (and lets tests exercise the passes): the first pass
    lists the runs worth at least this much (None: chosen from the network; 0: every run).
    The answer is the optimum whatever it is.
    """
    duty_list = sorted(set(duties))
    duty_bits = {h: 1 << i for i, h in enumerate(duty_list)}
    resources = _Resources()
    t0 = time.perf_counter()
    gauges: list[TrainGauge] = sorted({t.gauge for t in trains})
    hub_bits = {h: 1 << i for i, h in enumerate(sorted(junction_hexes(graph)))}
    reduced = {g: reduce_graph(graph, g, resources, duty_bits, hub_bits) for g in gauges}
    t1 = time.perf_counter()
    caps = {g: max((1 if t.one_m else t.large) for t in trains if t.gauge == g) for g in gauges}
    arms = {g: all_arms(reduced[g], graph, company, caps[g]) for g in gauges}
    t2 = time.perf_counter()
    # Search the runs worth at least a threshold first; the search proves the answer optimal
    # or says how low the threshold must go (duties: every run, their reach must be exact).
    if duty_list:
        thresholds = dict.fromkeys(gauges, 0)
    elif first_threshold is None:
        thresholds = _first_thresholds(arms)
    else:
        thresholds = dict.fromkeys(gauges, first_threshold)
    passes = 0
    while True:
        passes += 1
        runs = {g: runs_at_least(arms[g], thresholds[g]) for g in gauges}
        search = _run_search(trains, runs, caps, len(duty_list), thresholds, arms)
        if not any(thresholds.values()) or search.pruned_bound <= search.best_value:
            break
        # Low enough that every node seen would have been decided, but no more than half as
        # low at a time: the answer found improves as more runs are listed.
        needed = search.best_value - search.unseen_context + 1
        for g, threshold in thresholds.items():
            lower = min(threshold - 1, max(needed, threshold * STEP[0] // STEP[1]))
            if lower <= MIN_RUN_VALUE or search.nodes > NODES_FOR_ANOTHER_PASS:
                lower = 0  # list every run (a costly search is done once more only)
            thresholds[g] = max(lower, 0)
    slots = search.slots
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
        thresholds={str(g): t for g, t in thresholds.items()},
        passes=passes,
    )
    return BestRun(run, max(run.total, search.pruned_bound), stats)


# A threshold this low lists (nearly) every run anyway: go straight to a complete list. (The
# answer is correct whatever the thresholds; they only decide how much is listed.)
MIN_RUN_VALUE = 20


def _best_possible(gauge_arms: GaugeArms) -> int:
    """An upper bound on any run of the gauge: a base and its two best arms."""
    top = 0
    for a in gauge_arms.arms:
        if a.ends:
            top = max(top, gauge_arms.info.value[a.base] + 2 * a.best_after[0])
    return top


# The first threshold, and the least each later pass lowers it by, as fractions.
FIRST = (1, 2)
STEP = (1, 2)
# Below this many arms the runs are few enough to list them all in one pass.
ARMS_FOR_THRESHOLDS = 1000
# A pass whose search took more nodes than this is followed by a complete pass.
NODES_FOR_ANOTHER_PASS = 1000


def _first_thresholds(arms: dict[TrainGauge, GaugeArms]) -> dict[TrainGauge, int]:
    """Where the first pass starts, per gauge: half the most a single run of the gauge could
    be worth, or 0 (list every run) on a small network.  Any value is correct; a high one
    lists few runs, and the pass then says how low the next must go."""
    if sum(len(a.ends) for g in arms.values() for a in g.arms) < ARMS_FOR_THRESHOLDS:
        return dict.fromkeys(arms, 0)
    out: dict[TrainGauge, int] = {}
    for gauge, gauge_arms in arms.items():
        first = _best_possible(gauge_arms) * FIRST[0] // FIRST[1]
        out[gauge] = first if first > MIN_RUN_VALUE else 0
    return out


def _mail_cap(gauge_arms: GaugeArms) -> int:
    """The most a mail bonus of the gauge can be worth (4.6.6): the two most valuable ends of
    one base's runs (the base itself or the end of an arm)."""
    cap = 0
    value = gauge_arms.info.value
    for a in gauge_arms.arms:
        ends = sorted([value[a.base], *(value[e] for e in a.ends)], reverse=True)[:2]
        cap = max(cap, sum(ends))
    return cap


def _run_search(trains: Sequence[Train], runs: dict[TrainGauge, list[Candidate]],
                caps: dict[TrainGauge, int], duty_count: int, thresholds: dict[TrainGauge, int],
                arms: dict[TrainGauge, GaugeArms]) -> _Search:
    """One pass of the branch and bound over the runs listed at ``thresholds``."""
    slots = _slots(trains, runs, caps, {
        g: (_best_possible(a), thresholds[g] - 1 if thresholds[g] > 0 else -1, _mail_cap(a))
        for g, a in arms.items()})
    reach = [0] * (len(slots) + 1)
    for i in range(len(slots) - 1, -1, -1):
        union = 0
        for duty in slots[i].duties:
            union |= duty
        reach[i] = reach[i + 1] | union
    search = _Search(slots, (1 << duty_count) - 1, reach)
    root, gain = search.bound(0, 0, 0, True)
    search.root_bound = root + gain
    search.search(0, 0, 0, 0, True, 0, [])
    return search


def _slots(trains: Sequence[Train], runs: dict[TrainGauge, list[Candidate]],
           caps: dict[TrainGauge, int], unlisted: dict[TrainGauge, tuple[int, int, int]]
           ) -> list[_TrainSlot]:
    """Trains in search order (best single run first; identical trains together), each with
    its eligible runs sorted best first: by value, then mail bonus, then enumeration order
    (deterministic: the sorts are stable).  Identical trains share their lists."""
    shared: dict[Train, _TrainSlot] = {}
    for train in sorted(set(trains), key=lambda t: (t.gauge, t.large, t.one_m, t.name)):
        shared[train] = _slot(train, runs[train.gauge], caps[train.gauge])
    order = sorted(trains, key=lambda t: (-(shared[t].values[0] if shared[t].values else 0),
                                          t.gauge, -t.large, t.one_m, t.name))
    slots: list[_TrainSlot] = []
    for i, train in enumerate(order):
        same = i > 0 and order[i - 1] == train
        best_possible, unseen, mail_cap = unlisted[train.gauge]
        slots.append(replace(shared[train], same_as_previous=same, best_possible=best_possible,
                             unseen=unseen, mail_cap=mail_cap))
    return slots


def _slot(train: Train, runs: list[Candidate], cap: int) -> _TrainSlot:
    """The train's eligible runs, already sorted best first by :func:`enumerate_runs`
    (``cap``: the most Large Stations of any of them)."""
    if train.one_m or train.large < cap:
        runs = [c for c in runs if _eligible(c, train)]
    values = list(map(itemgetter(VALUE), runs))
    mails = list(map(itemgetter(MAIL), runs))
    masks = list(map(itemgetter(MASK), runs))
    totals = list(map(add, values, mails))
    # Indices by value + mail, best first (stable; the value order is nearly this order
    # already, which the sort exploits).
    order = sorted(range(len(totals)), key=totals.__getitem__, reverse=True)
    return _TrainSlot(train, runs, values, masks, list(map(itemgetter(DUTY), runs)), mails,
                      [totals[k] for k in order], [masks[k] for k in order],
                      max(mails, default=0), False)
