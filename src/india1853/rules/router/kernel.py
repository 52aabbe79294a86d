"""A compiled kernel for the router's hardest cases (issue 15): two trains of one gauge, and
the bounds of the search over more trains.

Three loops, compiled by numba (``@njit(cache=True)``) over numpy arrays:

1. :func:`list_runs`: every run of the gauge from the arms of :mod:`india1853.rules.router.arms`
   (an arm alone, or two arms of one base from different children of the base that share
   no resource and no city and keep within the Large Station limit: 4.5.2, 4.5.4, 4.5.5,
   4.5.10), exactly the complete listing of the pure-Python router
   (:func:`india1853.rules.router.arms.runs_at_least` with threshold 0), with resource masks as
   rows of 64-bit words.
2. :func:`best_pair`: the most valuable pair of runs sharing no resource (4.5.10), one of
   them carrying the mail (4.6.6), each eligible for its train (4.5.4: its Large Station
   limit), together covering the run duties (4.2.3 / 4.4.2), or one run alone: the
   carrier's runs by value + mail, best first, each paired with the first run (by value,
   best first) that it leaves free; a carrier stops the scan once it plus the partner
   could not beat the best pair, and the carriers stop when even the best partner could
   not.  Every pair not tried has a bound no higher than the answer: that is its
   certificate.
3. :class:`CapTable`: the search's bound on a train's best run compatible with the used
   resources (the router's ``_compatible_cap``), the same figure from arrays.

numba has no type stubs: it stays behind this module, whose functions are typed; it is
imported on first use.  Without numba :data:`AVAILABLE` is False and the router keeps its
pure-Python path, which is also the reference the tests compare this kernel with.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

# numba is imported (and the loops compiled, or loaded from its cache) on first use only, so
# that importing the router stays quick for the commands that never run it.
AVAILABLE: bool = importlib.util.find_spec("numba") is not None

Ints = npt.NDArray[np.int64]
Words = npt.NDArray[np.uint64]

WORD_BITS = 64
WORD = (1 << WORD_BITS) - 1


def words(values: list[int], width: int) -> Words:
    """Python ints (bit masks) as rows of ``width`` 64-bit words, least significant first."""
    out = np.zeros((len(values), width), dtype=np.uint64)
    for w in range(width):
        shift = WORD_BITS * w
        out[:, w] = np.fromiter(((v >> shift) & WORD for v in values), dtype=np.uint64,
                                count=len(values))
    return out


def width_of(values: list[int]) -> int:
    """How many 64-bit words the largest mask needs (at least one)."""
    bits = max((v.bit_length() for v in values), default=0)
    return max(1, -(-bits // WORD_BITS))


def ints(values: Iterable[int]) -> Ints:
    """Python ints as a numpy column."""
    return np.fromiter(values, dtype=np.int64)


def _list_runs(base_off: Ints, base_value: Ints, base_large: Ints, base_room: Ints,
               masks: Words, cities: Words, larges: Ints, values: Ints, ends: Ints,
               duties: Ints, skip: Ints, fill: bool, out_value: Ints, out_mail: Ints,
               out_large: Ints, out_duty: Ints, out_base: Ints, out_one: Ints, out_two: Ints,
               out_masks: Words) -> int:
    """Count (``fill`` False) or write every run; arms of base b at base_off[b]..[b+1],
    ``skip`` absolute.  The order is the pure-Python complete listing's, per base."""
    n_runs = 0
    width = masks.shape[1]
    for b in range(base_off.shape[0] - 1):
        lo, hi = base_off[b], base_off[b + 1]
        vb, lb, room = base_value[b], base_large[b], base_room[b]
        for k in range(lo, hi):
            if fill:
                out_value[n_runs] = vb + values[k]
                out_mail[n_runs] = vb + ends[k]
                out_large[n_runs] = lb + larges[k]
                out_duty[n_runs] = duties[k]
                out_base[n_runs] = b
                out_one[n_runs] = -1
                out_two[n_runs] = k
                for w in range(width):
                    out_masks[n_runs, w] = masks[k, w]
            n_runs += 1
        root = lo
        while root < hi:
            later = skip[root]
            for one in range(root, later):
                left = room - larges[one]
                two = later
                while two < hi:
                    # (Loops, not helper functions: each compiled function stands alone.)
                    meets = larges[two] > left
                    for w in range(width):
                        if masks[two, w] & masks[one, w]:
                            meets = True
                    for w in range(cities.shape[1]):
                        if cities[two, w] & cities[one, w]:
                            meets = True
                    if meets:
                        two = skip[two]
                        continue
                    if fill:
                        out_value[n_runs] = vb + values[one] + values[two]
                        out_mail[n_runs] = ends[one] + ends[two]
                        out_large[n_runs] = lb + larges[one] + larges[two]
                        out_duty[n_runs] = duties[one] | duties[two]
                        out_base[n_runs] = b
                        out_one[n_runs] = one
                        out_two[n_runs] = two
                        for w in range(width):
                            out_masks[n_runs, w] = masks[one, w] | masks[two, w]
                    n_runs += 1
                    two += 1
            root = later
    return n_runs


def _best_pair(values: Ints, totals: Ints, larges: Ints, duty: Ints, duties: int,
               masks: Words, by_value: Ints, by_total: Ints, carrier_large: Ints,
               other_large: Ints, best: int, max_steps: int, found: Ints) -> int:
    """The best pair (carrier with the mail, other without) over the train orders given
    (carrier_large[x], other_large[x]: the Large Station limits of the x-th order), or
    ``best`` kept.  ``found`` = [best, carrier, other, steps, largest bound discarded, the
    order of the pair found]; returns 1 if finished, 0 if ``max_steps`` ran out.  With run
    duties (``duties``: their bits), the pair covers every one (4.2.3 / 4.4.2).

    A carrier's partner is the first run in value order that it leaves free: found 64 runs
    at a time, as the runs not using any of the carrier's resources (the ``usage`` bitsets)
    among those the other train may make.  Before its scan, a carrier is held to its total
    plus the least, over its resource bits, of the best run of the other train not using
    that bit (a partner avoids every one of them): most carriers end there."""
    n = values.shape[0]
    blocks = (n + 63) >> 6
    width = masks.shape[1]
    usage = np.zeros((blocks, width * 64), dtype=np.uint64)
    eligible = np.zeros((other_large.shape[0], blocks), dtype=np.uint64)
    covers = np.zeros((64, blocks), dtype=np.uint64)
    one = np.uint64(1)
    zero = np.uint64(0)
    # Per resource bit, the runs using it as a bitset over positions in value order
    # (``usage[block, bit]``: a block's words together, as a carrier reads them); per train
    # order, the runs the other train may make (``eligible[order, block]``, 4.5.4 its Large
    # Station limit); per duty bit, the runs covering it (``covers[bit, block]``, 4.2.3).
    for q in range(n):
        o = by_value[q]
        block = q >> 6
        bit = one << np.uint64(q & 63)
        d = duty[o]
        k = 0
        while d:
            if d & 1:
                covers[k, block] |= bit
            d >>= 1
            k += 1
        for w in range(width):
            word = masks[o, w]
            k = 0
            while word:
                if word & one:
                    usage[block, w * 64 + k] |= bit
                word >>= one
                k += 1
        for y in range(other_large.shape[0]):
            if larges[o] <= other_large[y]:
                eligible[y, block] |= bit
    bits = np.zeros(width * 64, dtype=np.int64)
    steps = 0
    pruned = -1
    for x in range(carrier_large.shape[0]):
        lc = carrier_large[x]
        top_other = -1
        for q in range(n):
            if larges[by_value[q]] <= other_large[x]:
                top_other = values[by_value[q]]
                break
        if top_other < 0:
            continue
        # Per resource bit, the best value of a run the other train may make without it.
        avoiding = np.full(width * 64, -1, dtype=np.int64)
        for r in range(width * 64):
            for block in range(blocks):
                free = eligible[x, block] & ~usage[block, r]
                if free != zero:
                    k = 0
                    while not (free >> np.uint64(k)) & one:
                        k += 1
                    avoiding[r] = values[by_value[(block << 6) + k]]
                    break
        for p in range(n):
            c = by_total[p]
            if larges[c] > lc:
                continue
            tc = totals[c]
            if tc + top_other <= best:
                if tc + top_other > pruned:
                    pruned = tc + top_other
                break
            n_bits = 0
            for w in range(width):
                word = masks[c, w]
                k = 0
                while word:
                    if word & one:
                        bits[n_bits] = w * 64 + k
                        n_bits += 1
                    word >>= one
                    k += 1
            if n_bits == 0:
                continue  # (every run uses track; a run using nothing would pair with itself)
            partner = top_other
            for b in range(n_bits):
                if avoiding[bits[b]] < partner:
                    partner = avoiding[bits[b]]
            if tc + partner <= best:
                if partner >= 0 and tc + partner > pruned:
                    pruned = tc + partner
                continue
            missing = duties & ~duty[c]
            for block in range(blocks):
                bound = tc + values[by_value[block << 6]]
                if bound <= best:
                    if bound > pruned:
                        pruned = bound
                    break
                steps += 1
                taken = zero
                for b in range(n_bits):
                    taken |= usage[block, bits[b]]
                free = eligible[x, block] & ~taken
                d = missing
                k = 0
                while d:
                    if d & 1:
                        free &= covers[k, block]
                    d >>= 1
                    k += 1
                if free != zero:
                    k = 0
                    while not (free >> np.uint64(k)) & one:
                        k += 1
                    o = by_value[(block << 6) + k]
                    bound = tc + values[o]
                    if bound > best:
                        best = bound
                        found[0] = best
                        found[1] = c
                        found[2] = o
                        found[5] = x
                    elif bound > pruned:
                        pruned = bound
                    break
            if steps > max_steps:
                found[3] = steps
                found[4] = pruned
                return 0
    found[3] = steps
    found[4] = pruned
    return 1


def _compatible_cap(keys: Words, starts: Ints, positions: Ints, masks: Words, figures: Ints,
                    used: Words, floor: int, cap_steps: int) -> int:
    """:func:`india1853.rules.router._compatible_cap` over arrays: groups g with keys[g] and
    positions[starts[g]:starts[g + 1]] (ascending), masks as rows of words."""
    best = floor
    width = masks.shape[1]
    for g in range(keys.shape[0]):
        meets = False
        for w in range(width):
            if keys[g, w] & used[w]:
                meets = True
                break
        if meets:
            continue
        lo = starts[g]
        for q in range(starts[g + 1] - lo):
            p = positions[lo + q]
            figure = figures[p]
            if figure <= best:
                break
            free = True
            for w in range(width):
                if masks[p, w] & used[w]:
                    free = False
                    break
            if free or q >= cap_steps:
                best = figure
                break
    return best


@dataclass(frozen=True)
class _Compiled:
    list_runs: Any
    best_pair: Any
    compatible_cap: Any


@functools.cache
def _compiled() -> _Compiled:
    """The loops compiled by numba (``cache=True``: compiled once per machine, then loaded
    from the cache next to this module), on first use."""
    numba = importlib.import_module("numba")
    njit = numba.njit(cache=True, nogil=True)
    return _Compiled(njit(_list_runs), njit(_best_pair), njit(_compatible_cap))


class CapTable:
    """One sorted run list grouped by key, as arrays, for
    :meth:`upper_bound` (the router's ``_compatible_cap``, compiled): the same figure for the
    same arguments."""

    def __init__(self, keys: list[int], groups: list[list[int]], masks: list[int],
                 figures: list[int]) -> None:
        self.width = width_of(masks)
        self.shifts = [WORD_BITS * w for w in range(self.width)]
        self.keys = words(keys, self.width)
        starts = [0]
        for group in groups:
            starts.append(starts[-1] + len(group))
        self.starts = np.array(starts, dtype=np.int64)
        self.positions = np.fromiter((p for group in groups for p in group), dtype=np.int64,
                                     count=starts[-1])
        self.masks = words(masks, self.width)
        self.figures = np.array(figures, dtype=np.int64)

    def upper_bound(self, used: int, floor: int, cap_steps: int) -> int:
        """Per group whose key ``used`` leaves free, the first compatible run's figure or
        the figure where the scan gave up after ``cap_steps`` conflicts; ``floor`` if none
        is above it.  (Bits of ``used`` above the masks' width meet none of them.)"""
        used_words = np.array([(used >> s) & WORD for s in self.shifts], dtype=np.uint64)
        return int(_compiled().compatible_cap(self.keys, self.starts, self.positions,
                                            self.masks, self.figures, used_words, floor,
                                            cap_steps))


@dataclass(frozen=True)
class RunTable:
    """Every run of a gauge (numpy columns): value, mail bonus, Large Stations, the base
    index and the two arms (absolute arm indices; ``one`` -1 for a run of one arm), and the
    resource mask as a row of words."""

    value: Ints
    mail: Ints
    large: Ints
    duty: Ints
    base: Ints
    one: Ints
    two: Ints
    masks: Words


@dataclass(frozen=True)
class ArmArrays:
    """The arms of every base of a gauge, concatenated (the router's ``_Arms`` lists)."""

    base_off: Ints
    base_value: Ints
    base_large: Ints
    base_room: Ints
    masks: Words
    cities: Words
    larges: Ints
    values: Ints
    ends: Ints
    duties: Ints
    skip: Ints


def list_runs(arms: ArmArrays) -> RunTable:
    """Every run of the gauge (the complete listing), in the pure-Python listing's order per
    base."""
    width = arms.masks.shape[1]
    empty = np.zeros(0, dtype=np.int64)
    args = (arms.base_off, arms.base_value, arms.base_large, arms.base_room, arms.masks,
            arms.cities, arms.larges, arms.values, arms.ends, arms.duties, arms.skip)
    n = int(_compiled().list_runs(*args, False, empty, empty, empty, empty, empty, empty, empty,
                                np.zeros((0, width), dtype=np.uint64)))
    column = [np.zeros(n, dtype=np.int64) for _ in range(7)]
    table = RunTable(column[0], column[1], column[2], column[3], column[4], column[5],
                     column[6], np.zeros((n, width), dtype=np.uint64))
    _compiled().list_runs(*args, True, table.value, table.mail, table.large, table.duty,
                        table.base, table.one, table.two, table.masks)
    return table


@dataclass(frozen=True)
class Pair:
    """The kernel's answer: its total, the carrier's run (with the mail) and the other's
    run (-1: none) as row numbers of the table, pairs tried, the largest bound of a pair
    not tried, the bound of everything before the search, and whether it finished."""

    total: int
    carrier: int
    other: int
    order: int  # the index in ``orders`` of the pair found (-1: a run alone)
    steps: int
    pruned_bound: int
    root_bound: int
    finished: bool


# The most run duties the kernel takes (bits of an int64).
MAX_DUTIES = 62


def best_pair(table: RunTable, orders: list[tuple[int, int]], duties: int,
              max_steps: int) -> Pair:
    """The best run of a train with the mail, alone or with a run of the other train sharing
    no resource, together covering the duty bits ``duties``; ``orders``: (carrier's Large
    limit, other's Large limit) for each way of giving the mail (one for identical trains,
    two otherwise).  ``carrier`` -1: no legal run set covers the duties."""
    totals = table.value + table.mail
    # Stable sorts: ties keep the listing's order, so the answer is deterministic (16-bit
    # keys, which numpy sorts by radix, when the figures fit).
    small = np.int16 if int(totals.max(initial=0)) < np.iinfo(np.int16).max else np.int64
    by_value = np.argsort((-table.value).astype(small), kind="stable").astype(np.int64)
    by_total = np.argsort((-totals).astype(small), kind="stable").astype(np.int64)
    carriers = np.array([c for c, _ in orders], dtype=np.int64)
    others = np.array([o for _, o in orders], dtype=np.int64)
    # A start: the best carrier alone (a legal run set of one run).
    best, carrier = -1, -1
    for limit in carriers:
        eligible = np.nonzero((table.large[by_total] <= limit)
                              & (table.duty[by_total] & duties == duties))[0]
        if eligible.size and totals[by_total[eligible[0]]] > best:
            carrier = int(by_total[eligible[0]])
            best = int(totals[carrier])
    found = np.array([best, carrier, -1, 0, -1, -1], dtype=np.int64)
    finished = bool(_compiled().best_pair(table.value, totals, table.large, table.duty,
                                        duties, table.masks, by_value, by_total, carriers,
                                        others, best, max_steps, found))
    top_value = int(table.value.max(initial=0))
    root = int(totals.max(initial=0)) + top_value
    return Pair(int(found[0]), int(found[1]), int(found[2]), int(found[5]), int(found[3]),
                int(found[4]), root, finished)


def warm() -> None:
    """Compile the kernel now (or load it from numba's cache) on a tiny run table, so that
    the first real call does not pay for it: ``make`` runs this after installing."""
    if not AVAILABLE:
        return
    one = np.array([1], dtype=np.int64)
    arms = ArmArrays(base_off=np.array([0, 2], dtype=np.int64), base_value=one,
                     base_large=np.zeros(1, dtype=np.int64), base_room=one,
                     masks=words([1, 2], 1), cities=words([1, 2], 1),
                     larges=np.zeros(2, dtype=np.int64), values=ints([1, 1]),
                     ends=ints([1, 1]), duties=ints([0, 0]), skip=ints([1, 2]))
    table = list_runs(arms)
    best_pair(table, [(1, 1)], 0, 1000)
    CapTable([0], [[0, 1]], [1, 2], [2, 1]).upper_bound(1, 0, 48)


if __name__ == "__main__":
    warm()
