"""The optimal router against the brute-force oracle on many random small positions.

The positions are networks grown from a home city, so that most have legal runs (about nine
in ten), several candidate runs (a median of 5-10) and, in about half, an optimum that runs
two or more trains; a quarter carry a run duty (4.2.3 / 4.4.2), some that no run can meet;
'1M' trains, junction and two-town tiles, Delhi's stations and blocked stations all occur.
The bigger counts are in the soak (``test_router_soak.py``, ``make soak``).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracle import OracleAnswer, board, oracle_best, train

from india1853.board.graph import TrackGraph, reach
from india1853.board.hexes import neighbour, neighbours, opposite
from india1853.board.state import Base, BoardState
from india1853.board.tiles import fitting_rotations, map_paths
from india1853.data.loader import load_edition
from india1853.data.model import Edition, TileSpec
from india1853.errors import RuleError
from india1853.rules.router import best_run
from india1853.rules.router.arms import (
    LARGE,
    LARGE_BASES,
    LINKS,
    MAIL,
    MASK,
    START,
    VALUE,
    Candidate,
    arms_of,
    best_compatible,
    runs_at_least,
)
from india1853.rules.routes import Train, check_routes

# A patch of the real map around Delhi (F14): its separate stations, towns, plains.
PATCH_CENTRE = "G15"
COMPANIES = ("GIP", "NWR", "BNR")
TRAIN_NAMES = ("2", "3", "4", "5", "6", "2M", "3M", "4M", "1M")
# How often each kind of tile is drawn for an open end (junction and two-town tiles, whose
# rules are the subtle ones, are favoured over their share of the catalogue).
KINDS = ("plain", "plain", "town", "town", "town", "city", "city", "two_town", "junction")
# How many trains beyond the first (up to the strategy's maximum): mostly one or more.
EXTRA_TRAINS = (1, 3, 2, 0, 1, 2)


@cache
def _patch(edition: str, radius: int, centre: str = PATCH_CENTRE) -> tuple[str, ...]:
    """The playable hexes within ``radius`` of ``centre`` that take tiles."""
    ed = load_edition(edition)
    seen = {centre}
    frontier = [centre]
    for _ in range(radius):
        frontier = [n for h in frontier for n in neighbours(h).values()
                    if n not in seen and ed.board.playable(n)]
        seen.update(frontier)
    return tuple(sorted(h for h in seen if ed.board.hexes[h].preprinted is None))


def _kind(tile: TileSpec) -> str:
    small = sum(1 for s in tile.stations if s.kind == "small")
    if any(s.kind == "large" for s in tile.stations):
        return "city"
    if small:
        return "two_town" if small > 1 else "town"
    ends = Counter(e for p in tile.paths for e in (p.a, p.b))
    return "junction" if any(n > 1 for n in ends.values()) else "plain"


# The strategies ``positions`` draws from, each built once for its elements: Hypothesis
# spends more on building (and labelling) a strategy than on drawing from it.  Each is the
# same ``sampled_from`` / ``lists`` of a list as before, so the draws are the same.
WITH_DUTY = st.sampled_from((False, False, False, True))
SOME_KIND = st.sampled_from(KINDS)


@cache
def _one_of(elements: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    return st.sampled_from(list(elements))


@cache
def _one_of_or_up_to(elements: tuple[int, ...], most: int) -> st.SearchStrategy[int]:
    return st.sampled_from(list(elements)) | st.integers(0, most)


@cache
def _between(low: int, high: int) -> st.SearchStrategy[int]:
    return st.integers(low, high)


@cache
def _some_of(elements: tuple[Any, ...], min_size: int, max_size: int
             ) -> st.SearchStrategy[list[Any]]:
    return st.lists(st.sampled_from(list(elements)), min_size=min_size, max_size=max_size,
                    unique=True)


@cache
def _tiles_by_kind(edition: str) -> dict[str, tuple[str, ...]]:
    ed = load_edition(edition)
    out: dict[str, list[str]] = {}
    for tid, spec in sorted(ed.tiles.items()):
        if not spec.preprinted:
            out.setdefault(_kind(spec), []).append(tid)
    return {k: tuple(v) for k, v in out.items()}


@cache
def _on_map(edition: str, tile: str, hex_: str) -> tuple[int, ...]:
    """Rotations at which ``tile`` on ``hex_`` has no track off the map (4.1.10)."""
    ed = load_edition(edition)
    return tuple(fitting_rotations(ed.tiles[tile], hex_, ed.board))


@cache
def _gauges_at(edition: str, tile: str, rotation: int) -> tuple[frozenset[str], ...]:
    """Per map side (0-5), the gauges of ``tile``'s track at ``rotation`` that reach it."""
    paths = map_paths(load_edition(edition).tiles[tile], rotation)
    return tuple(frozenset(p.gauge for p in paths if side in (p.a, p.b)) for side in range(6))


@cache
def _fits(edition: str, tile: str, hex_: str, side: int, gauge: str) -> tuple[int, ...]:
    """Rotations at which ``tile`` on ``hex_`` stays on the map and has track of a gauge that
    meets ``gauge`` at ``side``."""
    out = []
    for rotation in _on_map(edition, tile, hex_):
        here = _gauges_at(edition, tile, rotation)[side]
        if here and (gauge == "dual" or "dual" in here or gauge in here):
            out.append(rotation)
    return tuple(out)


@cache
def _options(edition: str, wanted: str, hex_: str, side: int, gauge: str
             ) -> tuple[tuple[str, int], ...]:
    """(tile, rotation) of the ``wanted`` kind (or, if none fits, of any kind, in the order
    of the kinds) that meets track of ``gauge`` at ``side`` of ``hex_``."""
    kinds = _tiles_by_kind(edition)
    options = [(t, r) for t in kinds.get(wanted, ()) for r in _fits(edition, t, hex_,
                                                                     side, gauge)]
    return tuple(options or [(t, r) for k in sorted(kinds) for t in kinds[k]
                             for r in _fits(edition, t, hex_, side, gauge)])


@cache
def _track_ends(edition: str, coord: str, tile: str, rotation: int
                ) -> tuple[tuple[str, int, str], ...]:
    """(neighbouring hex, its side facing the track, the track's gauge) for every piece of
    track of ``tile`` on ``coord`` running to a side."""
    out = []
    for path in map_paths(load_edition(edition).tiles[tile], rotation):
        for end in (path.a, path.b):
            if isinstance(end, int):
                across = neighbour(coord, end)
                if across is not None:
                    out.append((across, opposite(end), path.gauge))
    return tuple(out)


def _open_ends(state: BoardState, ends: set[tuple[str, int, str]], area: set[str]
               ) -> tuple[tuple[str, int, str], ...]:
    """(empty hex of the area, its side facing the track, the track's gauge) of the track
    ends ``ends`` of the laid tiles (:func:`_track_ends`) that run to an empty hex of
    ``area``."""
    return tuple(sorted(e for e in ends if e[0] in area and e[0] not in state.tiles))


@cache
def _printed(edition: str) -> BoardState:
    """The edition's printed board (a board never changes: each position starts from it)."""
    return board(edition, {})


@st.composite
def positions(draw: st.DrawFn, edition: str = "second", radius: int = 3, min_tiles: int = 5,
              max_tiles: int = 10, max_trains: int = 3, centre: str = PATCH_CENTRE,
              min_trains: int = 1) -> tuple[TrackGraph, list[str], list[str]]:
    """A network grown tile by tile from a home city near ``centre`` (next to Delhi by
    default): each tile laid on an open end of the track so far, meeting it in gauge and
    staying on the map; EIR's home base and up to two more; other companies' bases, some
    filling a station (which then blocks EIR's runs, 4.5.6); ``min_trains`` to ``max_trains``
    trains of the network's gauges (a '1M' among them now and then); sometimes a run duty
    (4.2.3 / 4.4.2)."""
    ed = load_edition(edition)
    # A quarter of the positions get a run duty (drawn first: Hypothesis's later draws in a
    # long example lean to their first choice).
    with_duty = draw(WITH_DUTY)
    area = set(_patch(edition, radius, centre))
    kinds = _tiles_by_kind(edition)
    home = draw(_one_of(tuple(sorted(area))))
    home_tiles = [(t, r) for t in kinds["city"] for r in _on_map(edition, t, home)]
    layout = {home: draw(_one_of(tuple(home_tiles)))}
    state = _printed(edition).with_tile(home, *layout[home])
    count = draw(_between(min_tiles, max_tiles))
    laid = [home]
    track_ends = set(_track_ends(edition, home, *layout[home]))
    while len(laid) < count:
        ends = _open_ends(state, track_ends, area)
        if not ends:
            break
        hex_, side, gauge = draw(_one_of(ends))
        wanted = draw(SOME_KIND)
        options = _options(edition, wanted, hex_, side, gauge)
        if not options:
            area.discard(hex_)  # nothing meets this end here
            continue
        tile, rotation = draw(_one_of(options))
        state = state.with_tile(hex_, tile, rotation)
        layout[hex_] = (tile, rotation)
        laid.append(hex_)
        track_ends.update(_track_ends(edition, hex_, tile, rotation))
    graph = TrackGraph.build(state)
    near = set(laid) | {n for h in laid for n in neighbours(h).values()}
    large = sorted(n for n, info in graph.stations.items() if info.kind == "large"
                   and n[1] in near and (graph.adjacent(n, "broad")
                                         or graph.adjacent(n, "metre")))
    eir = [sorted(n for n in large if n[1] == home)[0]]
    for node in draw(_some_of(tuple(large), 0, 2)):
        if all(node[1] != b[1] for b in eir):  # 4.4.5: one base per company per hex
            eir.append(node)
    bases = [("EIR", n[1], n[2]) for n in eir]
    for node in draw(_some_of(tuple(large), 0, 3)):
        free = graph.stations[node].slots - sum(1 for b in bases if b[1:] == node[1:])
        others = [c for c in COMPANIES if all(b[:2] != (c, node[1]) for b in bases)]
        for company in others[:draw(_between(0, max(0, free)))]:
            bases.append((company, node[1], node[2]))
    # The grown board with the bases added (the same board ``board(edition, layout, bases)``
    # builds from scratch, its graph grown from the one above, base by base: a graph grows
    # only from its parent board's, while that board is alive, so each is built in turn).
    for company, hex_, station in bases:
        child = state.with_base(Base(company, hex_, station))
        graph = TrackGraph.build(child)
        state = child
    names = [draw(_one_of(tuple(_trains_for(ed, {t.gauge for t in graph.tracks
                                                  if t.hex == home}))))]
    # A network where the first train reaches no other station says little: grow another.
    first = Train.named(ed, names[0]).gauge
    assume(sum(1 for n in reach(graph, "EIR", first).arrivals if n[0] == "S") > 1)
    more = _trains_for(ed, {t.gauge for t in graph.tracks if t.hex in laid})
    extra = [k for k in EXTRA_TRAINS if min_trains <= k + 1 <= max_trains]
    for _ in range(draw(_one_of(tuple(extra)))):
        names.append(draw(_one_of(tuple(more))))
    duties: list[str] = []
    if with_duty:  # hexes with track some train may use: mostly, but not always, reachable
        gauges = {Train.named(ed, n).gauge for n in names} | {"dual"}
        usable = sorted({t.hex for t in graph.tracks if t.hex in laid and t.gauge in gauges})
        duties = draw(_some_of(tuple(usable), 1, 2))
    return graph, names, duties


def _trains_for(ed: Edition, gauges: set[str]) -> list[str]:
    """The edition's trains (of :data:`TRAIN_NAMES`) that can run on track of ``gauges``."""
    return [t.name for t in ed.trains if t.name in TRAIN_NAMES
            and (t.gauge in gauges or "dual" in gauges)]


Position = tuple[TrackGraph, list[str], list[str]]


@settings(max_examples=200, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_router_matches_oracle(position: Position) -> None:
    compare(*position)


@settings(max_examples=150, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions(radius=3, min_tiles=10, max_tiles=16, max_trains=3))
def test_router_matches_oracle_medium(position: Position) -> None:
    compare(*position)


@settings(max_examples=80, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions(radius=3, min_tiles=6, max_tiles=10, min_trains=3, max_trains=4))
def test_router_matches_oracle_four_trains(position: Position) -> None:
    # Up to four trains (the most any phase allows, TABLE 6) on smaller networks: the
    # oracle's assignment grows with the number of trains.
    compare(*position)


@settings(max_examples=150, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions(edition="first", radius=3, min_tiles=8, max_tiles=14, max_trains=3))
def test_router_matches_oracle_first_edition(position: Position) -> None:
    compare(*position)


@settings(max_examples=100, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions(radius=3, min_tiles=6, max_tiles=12, max_trains=3),
       st.sampled_from((25, 40, 60, 90, 130, 200)))
def test_router_matches_oracle_from_any_threshold(position: Position, threshold: int) -> None:
    # The first pass lists only the runs worth at least ``threshold``; the later passes must
    # still reach the optimum and prove it.
    compare(*position, first_threshold=threshold)


@settings(max_examples=200, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions(radius=3, min_tiles=8, max_tiles=16, max_trains=3))
def test_router_matches_oracle_from_greedy_start(position: Position) -> None:
    # The path large networks take: a run set found greedily first, then only the runs that
    # could beat it (halfway to the most any run set could be worth, then as far as the
    # better run set found calls for).
    compare(*position, greedy_start=True)


@settings(max_examples=200, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions(radius=4, min_tiles=10, max_tiles=22, max_trains=2), st.data())
def test_listing_over_thresholds_is_the_complete_list_filtered(
        position: Position, data: st.DataObject) -> None:
    # Listing only the runs worth at least a threshold, or at least a total threshold with
    # their mail bonus, prunes the arms by cumulative bounds: it must keep exactly the runs
    # of the complete listing that pass, each once.  The thresholds are drawn from the
    # figures of real runs, where an off-by-one would show.
    graph, names, _ = position
    _, arms = arms_of(graph, "EIR", [train(n) for n in names])
    for gauge_arms in arms.values():
        complete = runs_at_least(gauge_arms, 0)
        keys = [_key(c) for c in complete]
        assert len({(k[0], min(k[1:3]), max(k[1:3])) for k in keys}) == len(keys)  # once each
        values = sorted({c[VALUE] for c in complete} | {0, 1})
        totals = sorted({c[VALUE] + c[MAIL] for c in complete} | {0, 1})
        threshold = data.draw(_one_of_or_up_to(tuple(values), 400))
        total_threshold = data.draw(_one_of_or_up_to(tuple(totals), 600))
        wanted = sorted(_key(c) for c in complete
                        if c[VALUE] >= threshold or c[VALUE] + c[MAIL] >= total_threshold)
        listed = runs_at_least(gauge_arms, threshold, total_threshold)
        assert sorted(_key(c) for c in listed) == wanted
        assert [c[VALUE] for c in listed] == sorted((c[VALUE] for c in listed), reverse=True)


@settings(max_examples=120, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(positions(radius=4, min_tiles=10, max_tiles=22, max_trains=3), st.data())
def test_best_compatible_run_is_the_best_of_the_complete_list(
        position: Position, data: st.DataObject) -> None:
    # The searches for the greedy run set and for each train's best run (the bounds the
    # thresholds come from) against the complete listing: the best run the train may make
    # (4.5.4, 4.8.18) sharing no resource with ``used`` (4.5.10), by value or with the mail.
    graph, names, _ = position
    trains = [train(n) for n in names]
    _, arms = arms_of(graph, "EIR", trains)
    for t in trains:
        runs = [c for c in runs_at_least(arms[t.gauge], 0) if _may_run(c, t)]
        used = data.draw(_one_of((0, *(c[MASK] for c in runs[:12]))))
        for with_mail in (False, True):
            worth = [c[VALUE] + (c[MAIL] if with_mail else 0) for c in runs
                     if not c[MASK] & used]
            found = best_compatible(arms[t.gauge], t, used, with_mail)
            if not worth:
                assert found is None
                continue
            assert found is not None and not found[MASK] & used and _may_run(found, t)
            assert found[VALUE] + (found[MAIL] if with_mail else 0) == max(worth)
            # Asked for at least that much it finds it again; for more, nothing.
            again = best_compatible(arms[t.gauge], t, used, with_mail, max(worth))
            assert again is not None
            assert best_compatible(arms[t.gauge], t, used, with_mail, max(worth) + 1) is None


def _key(c: Candidate) -> tuple[int, ...]:
    """A listed run as its base, its arms (whichever it starts from) and its figures but
    the start."""
    arms, one, two = c[LINKS]
    return (arms.base, *sorted((one, two)), *c[:START])


def _may_run(c: Candidate, t: Train) -> bool:
    """4.5.4: at most the train's Large Stations; 4.8.18: a '1M' exactly one, a base."""
    if t.one_m:
        return c[LARGE] == 1 and c[LARGE_BASES] == 1
    return c[LARGE] <= t.large


def compare(graph: TrackGraph, names: list[str], duties: list[str],
            first_threshold: int | None = None, greedy_start: bool | None = None
            ) -> OracleAnswer | None:
    """The router's answer against the oracle's: the same total, or both find no run that
    meets the duties; the certificate's upper bound equals the value found and is at least
    the oracle's optimum, and so is the bound before the search (``root_bound``)."""
    trains = [train(n) for n in names]
    expected = oracle_best(graph, "EIR", trains, duties)
    if expected is None:  # no assignment covers the duty hexes (4.2.3 / 4.4.2)
        with pytest.raises(RuleError, match=r"rule 4\.2\.3"):
            best_run(graph, "EIR", trains, duties, first_threshold=first_threshold,
                     greedy_start=greedy_start)
        return None
    best = best_run(graph, "EIR", trains, duties, first_threshold=first_threshold,
                    greedy_start=greedy_start)
    assert best.run.total == expected.total
    assert best.upper_bound >= expected.total
    assert best.upper_bound == best.run.total and best.optimal
    assert best.stats.root_bound >= expected.total
    again = check_routes(graph, "EIR", trains, [r.route for r in best.run.routes], duties)
    assert again.total == best.run.total
    return expected
