"""Stage 3 of the router: the branch and bound over the trains (docs/routes.md).

Each train takes one of its listed runs (or none), runs pairwise share no resource
(4.5.10), one of them may carry the mail (4.6.6), every duty hex is covered (4.2.3 /
4.4.2); the bound is the sum of each remaining train's best compatible run plus the best
mail gain.  A :class:`Budget` may cut a search short.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import chain, groupby
from operator import add, itemgetter
from typing import TYPE_CHECKING

from india1853.rules.router.arms import (
    DUTY,
    MAIL,
    MASK,
    NEVER,
    VALUE,
    Candidate,
    GaugeArms,
    _counts_matter,
    _eligible,
)
from india1853.rules.router.tuning import CAP_STEPS, MERGED_KEYS, TAIL_KEYS
from india1853.rules.routes import (
    Train,
    TrainGauge,
)

if TYPE_CHECKING:
    # The compiled kernel (numpy, numba) is imported where it is used, so that importing the
    # router stays quick.
    from india1853.rules.router import kernel as router_kernel

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
        from india1853.rules.router import kernel as router_kernel

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
            for group_key, value, total in groups.firsts_of(self.values, self.totals_by_total):
                if not group_key & key:
                    if value > best:
                        best = value
                    if total > top:
                        top = total
            found = groups.free[key] = (best, top)
        return found





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
    # Per group: its key, its best value and its best value + mail (built on first use).
    firsts: list[tuple[int, int, int]] = field(default_factory=list)

    def firsts_of(self, values: list[int], totals: list[int]) -> list[tuple[int, int, int]]:
        """Each group's key with the figures of its first (best) run by value and by value +
        mail, from the lists sorted best first (the same for every slot sharing the groups)."""
        if not self.firsts:
            self.firsts.extend((key, values[by_value[0]], totals[by_total[0]])
                               for key, by_value, by_total in zip(self.keys, self.by_value,
                                                                  self.by_total, strict=True))
        return self.firsts


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

