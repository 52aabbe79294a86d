"""Stage 2 of the router: the arms from each company base and the candidate runs they make
(docs/routes.md).

Every path from a company base (4.5.2), hop by hop, to a station, never to a city twice
(4.5.5), never past a blocked station (4.5.6), within the Large Station limit (4.5.4); a
run is an arm alone or two arms of one base that share no resource or city.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Final

from india1853.errors import InputError
from india1853.rules.router.reduce import Link, ReducedGraph, _Resources, reduce_graph
from india1853.rules.routes import (
    Node,
    RouteGraph,
    Train,
    TrainGauge,
    junction_hexes,
)

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
    reduced = _reduced(graph, company, trains, duties)
    return reduced, _arms(graph, company, reduced, _caps(trains), duties)


def _arms(graph: RouteGraph, company: str, reduced: dict[TrainGauge, ReducedGraph],
          caps: dict[TrainGauge, int], duties: Sequence[str]) -> dict[TrainGauge, GaugeArms]:
    """Stage 2 for each gauge of ``reduced`` (:func:`_reduced` of the same graph, company and
    duties): kept with a track graph (its ``derived``) like the reduced graphs, as every
    question about one company's run with the same Large Station limits asks for the same
    arms (nothing changes them once grown)."""
    kept = getattr(graph, "derived", None)
    if not isinstance(kept, dict):
        return {g: all_arms(r, graph, company, caps[g]) for g, r in reduced.items()}
    key = ("router_arms", company, tuple(sorted(caps.items())), tuple(duties))
    found = kept.get(key)
    if found is None:
        found = kept[key] = {g: all_arms(r, graph, company, caps[g])
                             for g, r in reduced.items()}
    arms: dict[TrainGauge, GaugeArms] = found
    return dict(arms)


def _reduced(graph: RouteGraph, company: str, trains: Sequence[Train], duties: Sequence[str]
             ) -> dict[TrainGauge, ReducedGraph]:
    """Stage 1 for each gauge of ``trains``, the gauges sharing resource bits (dual track used
    by both conflicts, 4.5.10) and junction-tile bits (4.2.5), of the track joined to the
    company's bases only (4.5.2: every run includes one).  They depend on the graph, the
    gauges, the duties and the bases: kept with a track graph (its ``derived``), as each
    question about one company's run on one board asks for them (the turn model, the bots,
    the run checked)."""
    kept = getattr(graph, "derived", None)
    bases = tuple(sorted(graph.base_nodes(company)))
    key = ("router_reduced", tuple(sorted({t.gauge for t in trains})), tuple(duties), bases)
    if isinstance(kept, dict):
        found = kept.get(key)
        if found is None:
            found = kept[key] = _reduced_now(graph, bases, trains, duties)
        reduced: dict[TrainGauge, ReducedGraph] = found
        return dict(reduced)
    return _reduced_now(graph, bases, trains, duties)


def _reduced_now(graph: RouteGraph, bases: Sequence[Node], trains: Sequence[Train],
                 duties: Sequence[str]) -> dict[TrainGauge, ReducedGraph]:
    duty_bits = {h: 1 << i for i, h in enumerate(duties)}
    resources = _Resources()
    hub_bits = {h: 1 << i for i, h in enumerate(sorted(junction_hexes(graph)))}
    return {g: reduce_graph(graph, g, resources, duty_bits, hub_bits, bases)
            for g in sorted({t.gauge for t in trains})}


def _caps(trains: Sequence[Train]) -> dict[TrainGauge, int]:
    """Per gauge, the most Large Stations any of its trains may visit (a '1M': one)."""
    caps: dict[TrainGauge, int] = {}
    for t in trains:
        caps[t.gauge] = max(caps.get(t.gauge, 0), 1 if t.one_m else t.large)
    return caps


