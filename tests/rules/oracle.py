"""An independent brute-force oracle for the optimal router, and small boards to test it on.

It shares no search code with :mod:`india1853.rules.router`.  It walks the simple paths of the
unreduced track graph (stations and tile edges, every piece of track), keeps the ones the
literal rules checker :func:`india1853.rules.routes.check_routes` accepts for a train, and
tries every assignment of those paths to the trains with every mail choice, valuing each
complete assignment with :func:`check_routes` again.

Three shortcuts keep it usable on bigger boards, and none can change its answer:

- the walk stops extending a path that already breaks a rule no extension can mend (the
  wrong gauge, a node or a city twice, reversing at a tile edge, passing a station full of
  other companies' bases, more Large Stations than any train may run to), and only offers
  paths that include one of the company's bases: every path it drops would be rejected by
  the checker anyway, and every path it offers is still judged by the checker;
- the assignment skips a branch only when even the most it could be worth (the value so far,
  plus each remaining train's best run sharing no track with the runs chosen so far, plus
  the largest mail bonus of any run) is no more than an answer already found, or when a duty
  hex still uncovered is on no legal run of any remaining train; and of two identical trains
  it tries each pair of runs once, not in both orders;
- a complete assignment's mail choices are valued by the checker only where the choice's
  total (the revenue and mail bonus the checker gave each run alone) beats the answer found.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from india1853.board.graph import Node, TrackGraph
from india1853.board.state import Base, BoardState
from india1853.data.loader import load_edition
from india1853.errors import RuleError
from india1853.rules.routes import Route, Train, check_routes, resources


class TooManyPaths(Exception):
    """The graph has more candidate paths than the caller's budget."""


class TooManySteps(Exception):
    """The assignment of paths to trains took more steps than the caller's budget."""


def all_paths(graph: TrackGraph, company: str, gauge: str, max_large: int,
              max_paths: int | None = None) -> list[tuple[tuple[Node, ...], tuple[int, ...]]]:
    """Every simple path of the track graph from station to station that includes a base of
    ``company`` and breaks none of the rules a longer path could not mend, once per
    direction pair."""
    found: list[tuple[tuple[Node, ...], tuple[int, ...]]] = []
    blocked = {n for n in graph.stations if graph.blocked_for(n, company)}
    # Per node, what the walk reads of each piece of track of the gauge leaving it, in the
    # graph's order: (track id, its hex, the node across, that node's city ("" for a tile
    # edge), whether it is a Large Station, whether it holds a base of ``company``).
    leaving: dict[Node, list[tuple[int, str, Node, str, bool, bool]]] = {}

    def steps(here: Node) -> list[tuple[int, str, Node, str, bool, bool]]:
        out = leaving.get(here)
        if out is None:
            out = []
            for t in graph.adjacent(here, gauge):  # type: ignore[arg-type]
                there = t.other(here)
                if there[0] == "S":
                    info = graph.stations[there]  # type: ignore[index]
                    out.append((t.id, t.hex, there, info.city, info.kind == "large",
                                company in graph.tokens(there)))  # type: ignore[arg-type]
                else:
                    out.append((t.id, t.hex, there, "", False, False))
            leaving[here] = out
        return out

    def walk(nodes: list[Node], on: set[Node], tids: list[int], last_hex: str,
             cities: set[str], large: int, bases: int) -> None:
        here = nodes[-1]
        if len(nodes) > 1 and here[0] == "S":
            if bases and nodes[0] <= here:  # one direction of each path
                found.append((tuple(nodes), tuple(tids)))
                if max_paths is not None and len(found) > max_paths:
                    raise TooManyPaths
            if here in blocked:
                return  # 4.5.6: a run may end here but not pass
        at_edge = here[0] == "E"
        for tid, hex_, there, city, large_station, based in steps(here):
            if at_edge and hex_ == last_hex:
                continue  # 4.5.5: reversing at a tile edge
            if there in on:
                continue
            if city and city in cities:
                continue  # 4.5.5: one city twice
            big = large + large_station
            if big > max_large:
                continue  # 4.5.4: no train runs to this many Large Stations
            nodes.append(there)
            on.add(there)
            tids.append(tid)
            if city:
                cities.add(city)
            walk(nodes, on, tids, hex_, cities, big, bases + based)
            if city:
                cities.discard(city)
            on.discard(there)
            nodes.pop()
            tids.pop()

    for start in sorted(graph.stations):
        info = graph.stations[start]
        walk([start], {start}, [], "", {info.city}, info.kind == "large",
             company in graph.tokens(start))
    return found


def legal_routes(graph: TrackGraph, company: str, train: Train,
                 max_paths: int | None = None) -> list[Route]:
    """Every path the literal checker accepts as a run of ``train``."""
    return [route for route, _, _ in _judged_routes(graph, company, train, max_paths)]


def _judged_routes(graph: TrackGraph, company: str, train: Train, max_paths: int | None
                   ) -> list[tuple[Route, int, int]]:
    """Every path the literal checker accepts as a run of ``train``, with the revenue it
    gave it and the bonus it gave it as the mail train.  One judgement per path, of the path
    as the mail train: the checker judges a lone run by the same rules with or without the
    mail (4.6.6 changes only its value and how many runs may carry it), and the same call
    again would give the same answer."""
    out: list[tuple[Route, int, int]] = []
    most = 1 if train.one_m else train.large
    for nodes, tids in all_paths(graph, company, train.gauge, most, max_paths):
        try:
            run = check_routes(graph, company, [train], [Route(train, nodes, tids, True)])
        except RuleError:
            continue
        out.append((Route(train, nodes, tids), run.revenue, run.mail))
    return out


@dataclass(frozen=True)
class OracleAnswer:
    total: int
    revenue: int
    mail: int
    routes: tuple[Route, ...]
    candidates: int
    steps: int = 0


@dataclass(frozen=True)
class _Option:
    route: Route
    revenue: int
    mail: int  # what the run adds as the mail train: its two end stations
    used: int  # a bit per piece of track and tile edge it uses (:func:`resources`)
    hexes: frozenset[str]  # every hex it has track on (for duties)


@dataclass(frozen=True)
class _Options:
    """One train's legal runs, best first by revenue, and the same runs by mail bonus, as
    parallel lists (the assignment reads only ints)."""

    runs: list[_Option]
    revenue: list[int]
    used: list[int]
    mail: list[int]  # by mail bonus, best first
    mail_used: list[int]


def _options(graph: TrackGraph, company: str, train: Train, max_paths: int | None,
             bits: dict[object, int]) -> _Options:
    tracks = {t.id: t for t in graph.tracks}
    runs = []
    for route, plain, mail in _judged_routes(graph, company, train, max_paths):
        used = 0
        for item in resources(route, tracks):
            used |= 1 << bits.setdefault(item, len(bits))
        runs.append(_Option(route, plain, mail, used,
                            frozenset(tracks[t].hex for t in route.tracks)))
    runs.sort(key=lambda o: -o.revenue)  # stable: enumeration order within a value
    by_mail = sorted(runs, key=lambda o: -o.mail)
    return _Options(runs, [o.revenue for o in runs], [o.used for o in runs],
                    [o.mail for o in by_mail], [o.used for o in by_mail])


def _first_free(used_of: list[int], start: int, used: int) -> int:
    """The index of the first run from ``start`` on that shares nothing with ``used`` (used
    only grows down the search, so the caller's index is a valid start)."""
    k = start
    n = len(used_of)
    while k < n and used_of[k] & used:
        k += 1
    return k


def oracle_best(graph: TrackGraph, company: str, trains: Sequence[Train],
                duties: Iterable[str] = (), max_paths: int | None = None,
                max_steps: int | None = None) -> OracleAnswer | None:
    """The best total over every assignment of legal paths to trains (each with or without
    the mail), or None when no assignment covers the duties."""
    duty_set = frozenset(duties)
    bits: dict[object, int] = {}
    per_train = {t: _options(graph, company, t, max_paths, bits)
                 for t in sorted(set(trains), key=lambda t: t.name)}
    candidates = sum(len(v.runs) for v in per_train.values())
    # Identical trains side by side: of two identical trains the second takes a later run
    # (or, if the first is idle, none), so that each set of runs is tried once.
    order = sorted(trains, key=lambda t: (t.gauge, -t.large, t.one_m, t.name))
    lists = [per_train[t] for t in order]
    n = len(order)
    # The duty hexes trains i.. could cover at all.
    reach = [frozenset[str]()] * (n + 1)
    for i in range(n - 1, -1, -1):
        reach[i] = reach[i + 1] | frozenset(h for o in lists[i].runs for h in o.hexes & duty_set)
    found: list[OracleAnswer] = []
    steps = 0

    def finish(chosen: list[_Option]) -> None:
        # Every mail choice (none too); the checker values and judges each that could beat
        # the answer so far (its total is the runs' revenue plus the mail run's bonus, as
        # the checker valued each run alone: a choice worth no more replaces nothing).
        revenue = sum(o.revenue for o in chosen)
        for mail_at in range(-1, len(chosen)):
            if beaten(revenue + (chosen[mail_at].mail if mail_at >= 0 else 0)):
                continue
            routes = [Route(o.route.train, o.route.nodes, o.route.tracks, k == mail_at)
                      for k, o in enumerate(chosen)]
            try:
                run = check_routes(graph, company, trains, routes, sorted(duty_set))
            except RuleError:
                continue
            if not found or run.total > found[0].total:
                found[:] = [OracleAnswer(run.total, run.revenue, run.mail, tuple(routes),
                                         candidates)]

    def beaten(value: int) -> bool:
        return bool(found) and value <= found[0].total

    def assign(i: int, chosen: list[_Option], used: int, value: int, missing: frozenset[str],
               after: int, free: list[int], free_mail: list[int]) -> None:
        """Trains i.. on top of ``chosen``.  ``free[j]`` / ``free_mail[j]``: no run of train j
        before this index (by revenue / by mail bonus) shares nothing with ``used``."""
        nonlocal steps
        steps += 1
        if max_steps is not None and steps > max_steps:
            raise TooManySteps
        mail = max((o.mail for o in chosen), default=0)
        if i == n:
            if not beaten(value + mail):
                finish(chosen)
            return
        free = [*free[:i], *(_first_free(lists[j].used, free[j], used) for j in range(i, n))]
        free_mail = [*free_mail[:i], *(_first_free(lists[j].mail_used, free_mail[j], used)
                                       for j in range(i, n))]
        # The most the trains after this one could add, each on its best run sharing nothing
        # with ``used`` (whether or not they share with each other), and the largest mail
        # bonus of any run still possible (this train's included) or already chosen.
        rest = 0
        for j in range(i, n):
            if j > i and free[j] < len(lists[j].revenue):
                rest += lists[j].revenue[free[j]]
            if free_mail[j] < len(lists[j].mail):
                mail = max(mail, lists[j].mail[free_mail[j]])
        rest += mail
        mine = lists[i]
        if free[i] < len(mine.revenue) and beaten(value + mine.revenue[free[i]] + rest):
            return
        # Duty hexes that no later train can cover: this train's run must cover them.
        need = missing - reach[i + 1]
        same_next = i + 1 < n and order[i + 1] == order[i]
        for k in range(max(after, free[i]), len(mine.revenue)):
            if beaten(value + mine.revenue[k] + rest):
                break  # the runs are best first
            option = mine.runs[k]
            if not option.used & used and need <= option.hexes:
                chosen.append(option)
                assign(i + 1, chosen, used | option.used, value + option.revenue,
                       missing - option.hexes, k + 1 if same_next else 0, free, free_mail)
                chosen.pop()
        if not need and not beaten(value + rest):
            # This train does not run (nor, then, an identical one after it).
            assign(i + 1, chosen, used, value, missing, len(mine.runs) if same_next else 0,
                   free, free_mail)

    if duty_set <= reach[0]:
        assign(0, [], 0, 0, duty_set, 0, [0] * n, [0] * n)
    if not found:
        return None
    best = found[0]
    return OracleAnswer(best.total, best.revenue, best.mail, best.routes, candidates, steps)


# ---------------------------------------------------------------------------------------------
# Boards for tests: tiles and bases laid directly (construction legality is not at issue here).


def board(edition: str, tiles: dict[str, tuple[str, int]],
          bases: Iterable[tuple[str, str, str | None]] = ()) -> BoardState:
    """A board of ``edition`` with the preprinted cities, these tiles (hex -> (tile,
    rotation)) and bases (company, hex, station id)."""
    state = BoardState.initial(load_edition(edition))
    for hex_, (tile, rotation) in tiles.items():
        state = state.with_tile(hex_, tile, rotation)
    for company, hex_, station in bases:
        state = state.with_base(Base(company, hex_, station))
    return state


def train(name: str, edition: str = "second") -> Train:
    return Train.named(load_edition(edition), name)
