"""The router's public entry, :func:`best_run`, and its passes (docs/routes.md).

The two-train pass by the compiled kernel; otherwise a run set found greedily to start
from, thresholds that list only the runs that could beat it, and passes that lower them
until the search proves its answer; the last pass is exhaustive for everything that
could matter, so the value found is the optimum, with its certificate.
"""

from __future__ import annotations

import functools
import operator
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from india1853.errors import RuleError
from india1853.rules.router.arms import (
    DUTY,
    LINKS,
    MAIL,
    MASK,
    NEVER,
    START,
    VALUE,
    Candidate,
    GaugeArms,
    _arms,
    _caps,
    _check_minimums,
    _counts_matter,
    _eligible,
    _reduced,
    best_compatible,
    runs_at_least,
)
from india1853.rules.router.reduce import ReducedGraph
from india1853.rules.router.search import Budget, _first_hops, _OutOfBudget, _Search, _slots, _tails
from india1853.rules.router.tuning import (
    AIM_GAP,
    ARMS_FOR_THRESHOLDS,
    DUTY_START_TRAINS,
    KERNEL_CAP_SLOTS,
    KERNEL_STEPS,
    MIN_RUN_VALUE,
    NODES_FOR_ANOTHER_PASS,
    STEP,
    TAIL_SLOTS,
)
from india1853.rules.routes import (
    Node,
    Route,
    RouteGraph,
    RunValue,
    Train,
    TrainGauge,
    check_routes,
)

if TYPE_CHECKING:
    # The compiled kernel (numpy, numba) is imported where it is used, so that importing the
    # router stays quick.
    from india1853.rules.router import kernel as router_kernel

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
    reduced = _reduced(graph, company, trains, duty_list)
    t1 = time.perf_counter()
    caps = _caps(trains)
    arms = _arms(graph, company, reduced, caps, duty_list)
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





def _kernel_arms(gauge_arms: GaugeArms) -> router_kernel.ArmArrays:
    """The arms of every base of the gauge as the kernel's concatenated arrays."""
    from india1853.rules.router import kernel as router_kernel

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
    kernel (:mod:`india1853.rules.router.kernel`; 4.5.10 no shared resource, 4.6.6 one
    mail, 4.5.4 each train's Large Station limit, 4.2.3 / 4.4.2 the duty hexes covered),
    certified as the search is (every pair not tried is bounded by the answer).  None when
    the case is not one it takes, when no run set covers the duties (the pure-Python search
    then answers, or raises), or it ran past :data:`KERNEL_STEPS`."""
    from india1853.rules.router import kernel as router_kernel
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


def _kernel_available() -> bool:
    from india1853.rules.router import kernel as router_kernel

    return router_kernel.AVAILABLE



