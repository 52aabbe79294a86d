"""A second, independent reading of the running rules, for checking the router.

:mod:`oracle` is independent of the router's search but judges every path with the project's
own checker (:func:`india1853.rules.routes.check_routes`), which the router also uses; a
mistake in the checker would go unseen by both.  This module shares nothing with
:mod:`india1853.rules.routes` or :mod:`india1853.rules.router`: it reads only the raw board
(pieces of track with their hex, ends and gauge; stations with kind, value, slots; base
tokens) and applies the rules as written, in its own code:

- 4.5.3 / 33.3: track of the train's gauge or dual;
- 4.5.5 / 33.5: continuous, no node twice, no reversing (at a tile edge a run passes into the
  other tile), one visit per city (the stations of one hex are one city, except that each
  small station of a tile holding only small stations is its own town); 4.2.5 / 31.15: a
  junction tile (no station, lines meeting at an edge) is passed at most once per run;
- 4.5.6-4.5.7 / 33.6-33.7: no passing a station whose slots all hold other companies' bases;
- 4.5.4 / 33.4, 4.8.18: at least two stations, at most N Large ('1M': exactly one, holding a
  base of the company); 4.5.2 / 33.2: a base of the company;
- 4.5.8, 4.5.10 / 33.8, 33.10: a company's runs share no piece of track and no tile edge;
- 4.6.2, 4.6.6 / 34.2, 34.6: revenue is every station; one mail train adds its two ends;
- 4.2.3 / 4.4.2: every duty hex has track of some run.

The best run set is found by plain branch and bound over every legal path per train, with
the simplest admissible bound (each remaining train's best path sharing nothing with the
paths chosen, plus the largest end-station bonus of any path); it tries every run set, in
every order, so it needs no argument about identical trains.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from india1853.board.graph import Node, StationNode, TrackGraph
from india1853.rules.routes import Train


@dataclass(frozen=True)
class Path:
    """One legal path of a gauge: its figures and what it uses up."""

    value: int
    mail: int  # its two end stations (4.6.6)
    large: int
    large_bases: int
    used: frozenset[object]  # track ids and tile-edge nodes (4.5.8, 4.5.10)
    hexes: frozenset[str]  # hexes with track of it (duties)
    nodes: tuple[Node, ...]
    tracks: tuple[int, ...]


def _cities(graph: TrackGraph) -> dict[StationNode, tuple[str, ...]]:
    by_hex: dict[str, list[StationNode]] = defaultdict(list)
    for node in graph.stations:
        by_hex[node[1]].append(node)
    out: dict[StationNode, tuple[str, ...]] = {}
    for hex_, nodes in by_hex.items():
        towns = len(nodes) > 1 and all(graph.stations[n].kind == "small" for n in nodes)
        for n in nodes:
            out[n] = (hex_, n[2]) if towns else (hex_,)
    return out


def _junctions(graph: TrackGraph) -> set[str]:
    with_station = {n[1] for n in graph.stations}
    ends: dict[tuple[str, Node], int] = defaultdict(int)
    for t in graph.tracks:
        if t.hex not in with_station:
            ends[t.hex, t.a] += 1
            ends[t.hex, t.b] += 1
    return {hex_ for (hex_, _), count in ends.items() if count > 1}


def _blocked(graph: TrackGraph, company: str, node: StationNode) -> bool:
    tokens = graph.tokens(node)
    slots = graph.stations[node].slots
    others = sum(1 for c in tokens if c != company)
    return slots > 0 and company not in tokens and others >= slots


def legal_paths(graph: TrackGraph, company: str, gauge: str) -> list[Path]:
    """Every legal path of ``gauge`` (each once, whichever end it is walked from), best first;
    the Large Station limit is left to :func:`may_run`."""
    hex_of = {t.id: t.hex for t in graph.tracks}
    city = _cities(graph)
    junctions = _junctions(graph)
    at: dict[Node, list[tuple[int, str, Node, Node, str]]] = defaultdict(list)
    for t in graph.tracks:
        if t.a != t.b:
            at[t.a].append((t.id, t.hex, t.a, t.b, t.gauge))
            at[t.b].append((t.id, t.hex, t.b, t.a, t.gauge))
    found: dict[tuple[tuple[int, ...], frozenset[Node]], tuple[tuple[Node, ...], tuple[int, ...]]]
    found = {}

    def walk(nodes: list[Node], tids: list[int], cities: set[tuple[str, ...]],
             passed: set[str]) -> None:
        here = nodes[-1]
        if here[0] == "S" and len(nodes) > 1:
            key = (min(tuple(tids), tuple(tids[::-1])), frozenset((nodes[0], here)))
            found.setdefault(key, (tuple(nodes), tuple(tids)))
            if _blocked(graph, company, here):
                return
        for tid, hex_, _, there, track_gauge in at[here]:
            if track_gauge not in (gauge, "dual") or tid in tids or there in nodes:
                continue
            if here[0] == "E" and hex_of[tids[-1]] == hex_:
                continue  # back into the tile it came from: reversing
            new_city = city[there] if there[0] == "S" else None
            if new_city in cities:
                continue
            entering = not tids or hex_of[tids[-1]] != hex_
            if entering and hex_ in junctions and hex_ in passed:
                continue
            nodes.append(there)
            tids.append(tid)
            if new_city is not None:
                cities.add(new_city)
            mark = entering and hex_ in junctions
            if mark:
                passed.add(hex_)
            walk(nodes, tids, cities, passed)
            if mark:
                passed.discard(hex_)
            if new_city is not None:
                cities.discard(new_city)
            nodes.pop()
            tids.pop()

    for start in sorted(graph.stations):
        walk([start], [], {city[start]}, set())
    out: list[Path] = []
    for nodes, tids in found.values():
        stations = [n for n in nodes if n[0] == "S"]
        if len(stations) < 2 or not any(company in graph.tokens(s) for s in stations):
            continue
        large = [s for s in stations if graph.stations[s].kind == "large"]
        out.append(Path(
            sum(graph.stations[s].value for s in stations),
            graph.stations[stations[0]].value + graph.stations[stations[-1]].value,
            len(large), sum(1 for s in large if company in graph.tokens(s)),
            frozenset(tids) | frozenset(n for n in nodes if n[0] == "E"),
            frozenset(hex_of[t] for t in tids), nodes, tids))
    out.sort(key=lambda p: (-p.value, p.tracks))
    return out


def may_run(path: Path, train: Train) -> bool:
    """4.5.4 / 33.4 the Large Station limit; 4.8.18 b a '1M'."""
    if train.one_m:
        return path.large == 1 and path.large_bases == 1
    return path.large <= train.large


@dataclass(frozen=True)
class Best:
    total: int  # revenue plus the best mail choice
    paths: tuple[Path | None, ...]  # per train (None: it does not run)


def best_set(graph: TrackGraph, company: str, trains: Sequence[Train],
             duties: Iterable[str] = ()) -> Best | None:
    """The run set of greatest revenue plus mail, or None when none covers the duties."""
    need = frozenset(duties)
    per_gauge = {g: legal_paths(graph, company, g) for g in sorted({t.gauge for t in trains})}
    lists = [[p for p in per_gauge[t.gauge] if may_run(p, t)] for t in trains]
    most_mail = max((p.mail for ps in lists for p in ps), default=0)
    best: list[Best] = []

    def first_free(j: int, used: frozenset[object]) -> int:
        return next((p.value for p in lists[j] if not p.used & used), 0)

    def assign(i: int, chosen: list[Path | None], used: frozenset[object], value: int,
               mail: int, covered: frozenset[str]) -> None:
        if i == len(lists):
            if need <= covered and (not best or value + mail > best[0].total):
                best[:] = [Best(value + mail, tuple(chosen))]
            return
        rest = sum(first_free(j, used) for j in range(i + 1, len(lists)))
        cap = max(mail, most_mail)
        if best and value + first_free(i, used) + rest + cap <= best[0].total:
            return
        chosen.append(None)
        assign(i + 1, chosen, used, value, mail, covered)
        chosen.pop()
        for p in lists[i]:
            if best and value + p.value + rest + cap <= best[0].total:
                break  # best first
            if not p.used & used:
                chosen.append(p)
                assign(i + 1, chosen, used | p.used, value + p.value, max(mail, p.mail),
                       covered | p.hexes)
                chosen.pop()

    assign(0, [], frozenset(), 0, 0, frozenset())
    return best[0] if best else None


def judge(graph: TrackGraph, company: str, trains: Sequence[Train],
          runs: Sequence[tuple[Train, tuple[Node, ...], tuple[int, ...], bool]],
          duties: Iterable[str] = ()) -> int:
    """The total of a proposed run set, each run ``(train, nodes, tracks, mail)``, by this
    module's reading of the rules; AssertionError naming what is wrong otherwise."""
    paths: dict[str, dict[tuple[frozenset[Node], tuple[int, ...]], Path]] = {}
    free = list(trains)
    used: frozenset[object] = frozenset()
    covered: frozenset[str] = frozenset()
    total = mails = 0
    for train, nodes, tracks, mail in runs:
        assert train in free, f"train {train.name} runs twice or is not able to run (4.5.1)"
        free.remove(train)
        if train.gauge not in paths:
            paths[train.gauge] = {(frozenset((p.nodes[0], p.nodes[-1])),
                                   min(p.tracks, p.tracks[::-1])): p
                                  for p in legal_paths(graph, company, train.gauge)}
        path = paths[train.gauge].get((frozenset((nodes[0], nodes[-1])),
                                       min(tracks, tracks[::-1])))
        assert path is not None and path.nodes in (nodes, nodes[::-1]), f"illegal run {nodes}"
        assert may_run(path, train), f"too many Large Stations for {train.name} (4.5.4)"
        assert not path.used & used, "runs share track (4.5.10)"
        used |= path.used
        covered |= path.hexes
        total += path.value + (path.mail if mail else 0)
        mails += mail
    assert mails <= 1, "two mail trains (4.6.6)"
    assert frozenset(duties) <= covered, "a duty hex is on no run (4.2.3)"
    return total
