"""Rule 4.1.7 / 31.5: two lays on lines from different bases sharing no track.

Hand-made cases through ``check_lay``, and the exact search of
:func:`~india1853.rules.construction.network.disjoint_lines` against a brute force that lists
every line pair on small random boards.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from india1853.board.graph import (
    USABLE,
    Node,
    StationNode,
    Track,
    TrackGraph,
    edge_node,
    station_node,
)
from india1853.board.hexes import distance, neighbours
from india1853.board.state import Base, BoardState
from india1853.board.tiles import exits, map_paths
from india1853.data.loader import load_edition
from india1853.data.model import Gauge
from india1853.errors import DataError, RuleError
from india1853.rules.construction import CompanyContext, Lay, Network, check_lay
from india1853.rules.construction.lines import (
    ACCEPTS,
    Resources,
    build_side_graph,
    mixed_pair,
    pair_flow,
)
from india1853.rules.construction.network import LayTarget, disjoint_lines, lay_target

ALL = frozenset({"EIR", "GIP", "NWR", "BNR", "BBCI", "MSM", "SIR", "ECR"})


def ctx(**kw: Any) -> CompanyContext:
    fields: dict[str, Any] = {"type": "major", "phase": 4, "cash": 5000, "running": ALL,
                              "double_lay": "paid"}
    fields.update(kw)
    return CompanyContext("EIR", **fields)


def second_lay(state: BoardState, first: Lay, second: Lay) -> int:
    """Lay ``first`` (no checks: the board before it is set up by hand), then check
    ``second`` as the turn's second lay."""
    after = state.with_tile(first.hex, first.tile, first.rotation)
    return check_lay(after, ctx(lays_done=(first,)), second)


def board(tiles: list[tuple[str, str, int]], bases: list[tuple[str, str]]) -> BoardState:
    """The second edition's map with ``tiles`` (hex, tile, rotation) and EIR ``bases``
    (hex, station id) set up by hand."""
    state = BoardState.initial(load_edition("second"))
    for hex, tile, rotation in tiles:
        state = state.with_tile(hex, tile, rotation)
    for hex, station in bases:
        state = state.with_base(Base("EIR", hex, station))
    return state


# Sides: 0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE.  Base A on I13 (tile 115: broad, one track E to
# I15); I15 a dual station with six exits (716); base B on Nagpur K17 (716), whose line NW
# through J16 also meets I15.  I17 is a grey junction (112: every pair of SW, W, NW, NE, E), so
# from I15 one line may go on E to I19 and another NE to H18, but both through the one edge
# I15|I17.  The detour from B: K19, J20, I21, H20, arriving at H18 from the E.
JUNCTION = [("I13", "115", 2), ("I15", "716", 0), ("K17", "716", 0), ("J16", "9", 2),
            ("I17", "112", 0)]
DETOUR = [("K19", "8", 4), ("J20", "9", 0), ("I21", "8", 3), ("H20", "8", 2)]
FIRST = Lay("I19", "9", 4)  # broad, W-E: entered from I17
SECOND = Lay("H18", "58", 1)  # broad town, SW (I17) and E (H20)


def test_a_pair_that_exists_only_through_a_long_detour() -> None:
    state = board(JUNCTION + DETOUR, [("I13", "st1"), ("K17", "st1")])
    # A -> I15 -> I17 -> I19, and B the long way round to H18's E side.
    assert second_lay(state, FIRST, SECOND) > 0


def test_no_pair_when_both_lines_need_the_same_tile_edge() -> None:
    state = board(JUNCTION, [("I13", "st1"), ("K17", "st1")])
    # Alone the second lay extends a railhead (through I17); with the first it cannot have a
    # line of its own: both must cross the edge I15|I17.
    after = state.with_tile(FIRST.hex, FIRST.tile, FIRST.rotation)
    assert check_lay(after, ctx(), SECOND) > 0
    with pytest.raises(RuleError, match=r"4\.1\.7 / 31\.5"):
        second_lay(state, FIRST, SECOND)


def test_no_pair_when_only_one_base_reaches_the_two_lays() -> None:
    # B alone reaches both lays by lines that share nothing; A (its track turned W, to an
    # empty hex) reaches neither: the lays need DIFFERENT bases.
    tiles = [("I13", "115", 5), *JUNCTION[1:], *DETOUR]
    state = board(tiles, [("I13", "st1"), ("K17", "st1")])
    with pytest.raises(RuleError, match=r"4\.1\.7"):
        second_lay(state, FIRST, SECOND)


# Mixed gauges: A on I13 (115, broad), B on J14 (113, metre, one track NE to I15); I15 and I17
# as above (both dual).  The first lay I19 is broad, the second H18 metre (72: SW and W).
MIXED = [("I13", "115", 2), ("J14", "113", 1), ("I15", "716", 0), ("I17", "112", 0)]
METRE_SECOND = Lay("H18", "72", 4)


def test_a_broad_and_a_metre_line_may_not_share_a_dual_tile_edge() -> None:
    state = board(MIXED, [("I13", "st1"), ("J14", "st1")])
    with pytest.raises(RuleError, match=r"4\.1\.7"):
        second_lay(state, FIRST, METRE_SECOND)


def test_a_broad_and_a_metre_line_may_meet_at_a_station() -> None:
    # A metre track on H16 (78: SW to I15, E to H18) gives the metre line its own way from the
    # shared station I15; the broad line keeps I15 -> I17 -> I19.
    state = board([*MIXED, ("H16", "78", 4)], [("I13", "st1"), ("J14", "st1")])
    assert second_lay(state, FIRST, METRE_SECOND) > 0


# A second way from I15 to the first lay's E side: SE to J16, then J18, J20, I21.
BROAD_DETOUR = [("J16", "8", 5), ("J18", "9", 4), ("J20", "8", 4), ("I21", "7", 3)]
METRE_DETOUR = [("J16", "78", 2), ("J18", "79", 5), ("J20", "78", 1), ("I21", "77", 5)]


def test_the_search_goes_past_a_first_line_that_fails() -> None:
    # The shortest broad line (through I17) takes the edge the metre line needs; the broad
    # detour leaves it free.
    state = board([*MIXED, *BROAD_DETOUR], [("I13", "st1"), ("J14", "st1")])
    assert second_lay(state, FIRST, METRE_SECOND) > 0


def test_no_pair_when_only_a_change_of_gauge_would_separate_the_lines() -> None:
    # With the detour in metre gauge the lines could be separated only by running a metre
    # line into the broad first lay and a broad one into the metre second lay: the flow over
    # all track finds two paths, the exact search none.
    state = board([*MIXED, *METRE_DETOUR], [("I13", "st1"), ("J14", "st1")])
    with pytest.raises(RuleError, match=r"4\.1\.7"):
        second_lay(state, FIRST, METRE_SECOND)


# --- brute force ----------------------------------------------------------------------------

REGION = sorted(h for h in load_edition("second").board.hexes if distance(h, "J16") <= 2)
STATION_TILES = ["716", "102", "14", "15", "12", "100", "101", "5", "75", "100", "101"]
JUNCTION_TILES = ["80", "84", "106", "107", "112"]
SECOND_TILES = ["716", "102", "112", "14", "15", "89", "100", "101", "80", "84"]
GAUGES: tuple[Gauge, ...] = ("broad", "metre", "dual")


def _plain_tiles() -> dict[tuple[Gauge, frozenset[int]], tuple[str, int]]:
    """The plain tile and rotation joining each pair of sides in each gauge (7-9, 77-79,
    233/234/250)."""
    out: dict[tuple[Gauge, frozenset[int]], tuple[str, int]] = {}
    for tile in load_edition("second").tiles.values():
        if tile.stations or len(tile.paths) != 1:
            continue
        for rotation in range(6):
            (path,) = map_paths(tile, rotation)
            out.setdefault((path.gauge, frozenset((path.a, path.b))), (tile.id, rotation))
    return out


PLAIN = _plain_tiles()
@dataclass(frozen=True)
class Line:
    base: StationNode
    tracks: frozenset[int]
    nodes: frozenset[Node]


def _all_lines(graph: TrackGraph, company: str, gauge: Gauge, base: StationNode,
               target: LayTarget, avoid: str | None) -> Iterator[Line]:
    """Every line, literally: tracks of the gauge or dual (4.2.8), no node twice, never
    turning back into the same tile at an edge (4.5.5), never past a blocked station
    (4.2.9), ending where it first arrives from outside at an edge of the target's tile."""
    goals = {e for e, g in target.entries if g == gauge}
    if target.home_base == base:
        yield Line(base, frozenset(), frozenset())
        return

    def walk(node: Node, came: str, tracks: list[int], nodes: list[Node]) -> Iterator[Line]:
        if node[0] == "S" and came and graph.blocked_for(node, company):
            return
        for t in graph.tracks:
            if node not in (t.a, t.b) or t.a == t.b or t.gauge not in USABLE[gauge]:
                continue
            if t.hex == avoid or t.id in tracks or (node[0] == "E" and t.hex == came):
                continue
            nxt = t.other(node)
            if nxt in nodes:
                continue
            if nxt in goals and t.hex != target.hex:
                yield Line(base, frozenset([*tracks, t.id]), frozenset([*nodes, nxt]))
                continue
            yield from walk(nxt, t.hex, [*tracks, t.id], [*nodes, nxt])

    yield from walk(base, "", [], [base])


def brute_pairs(net: Network, first: LayTarget, second: LayTarget) -> set[tuple[str, str]]:
    """The gauges (first line, second line) of every pair of lines from different bases that
    share no track and no tile edge, found by listing every line."""
    graph = net.graph
    bases = graph.base_nodes(net.company)
    out: set[tuple[str, str]] = set()
    for g1 in ("broad", "metre"):
        ones = [ln for b in bases for ln in _all_lines(graph, net.company, g1, b, first,
                                                      first.hex)]
        for g2 in ("broad", "metre"):
            twos = [ln for b in bases for ln in _all_lines(graph, net.company, g2, b, second,
                                                          None)]
            if any(a.base != b.base and not a.tracks & b.tracks
                   and not {n for n in a.nodes & b.nodes if n[0] == "E"}
                   for a in ones for b in twos):
                out.add((g1, g2))
    return out


@dataclass(frozen=True)
class Case:
    """A small board: ``tiles`` (hex, tile, rotation), ``bases`` (company, hex, station),
    the first lay (on the board) and the second (hex, tile, rotation, not on the board)."""

    tiles: tuple[tuple[str, str, int], ...]
    bases: tuple[tuple[str, str, str], ...]
    first: str
    second: tuple[str, str, int]

    def network(self) -> Network:
        state = BoardState.initial(load_edition("second"))
        for hex, tile, rotation in self.tiles:
            state = state.with_tile(hex, tile, rotation)
        for company, hex, station in self.bases:
            state = state.with_base(Base(company, hex, station))
        return Network(state, "EIR")

    def targets(self) -> tuple[LayTarget, LayTarget]:
        ed = load_edition("second")
        placed = next((t, r) for h, t, r in self.tiles if h == self.first)
        home = next((station_node(h, s) for c, h, s in self.bases
                     if c == "EIR" and h == self.first), None)
        hex, tile, rotation = self.second
        return (lay_target(self.first, ed.tiles[placed[0]], placed[1], home),
                lay_target(hex, ed.tiles[tile], rotation, None))


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A crowded block of the second edition's map around J16, grown as track: station tiles
    and junctions first, then random walks of plain track of random gauges from the
    stations; two to four EIR bases and GIP bases that may block stations; a first lay among
    the tiles and a second lay on an empty hex next to track."""
    ed = load_edition("second")
    placed: dict[str, tuple[str, int]] = {}
    centres = draw(st.lists(st.sampled_from(REGION), min_size=3, max_size=5, unique=True))
    for h in centres:
        placed[h] = (draw(st.sampled_from(STATION_TILES)), draw(st.integers(0, 5)))
    for h in draw(st.lists(st.sampled_from(REGION), max_size=3, unique=True)):
        placed.setdefault(h, (draw(st.sampled_from(JUNCTION_TILES)), draw(st.integers(0, 5))))
    for _ in range(draw(st.integers(4, 9))):
        here = draw(st.sampled_from(centres))
        tile, rotation = placed[here]
        own = ed.tiles[tile].paths[0].gauge
        gauge = draw(st.sampled_from(GAUGES if own == "dual" else (own, own, "dual")))
        side = draw(st.sampled_from(sorted(exits(ed.tiles[tile], rotation))))
        for turn in draw(st.lists(st.integers(1, 5), min_size=1, max_size=6)):
            nxt = neighbours(here).get(side)
            if nxt is None or nxt not in REGION:
                break
            here, came = nxt, (side + 3) % 6
            side = (came + turn) % 6
            placed.setdefault(here, PLAIN[gauge, frozenset((came, side))])
    tiles = tuple((h, t, r) for h, (t, r) in sorted(placed.items()))
    stations = sorted((h, s.id) for h, t, _ in tiles for s in ed.tiles[t].stations
                      if s.kind == "large")
    chosen = draw(st.lists(st.sampled_from(stations), min_size=3, max_size=6, unique=True))
    owners = ["EIR"] * draw(st.integers(2, 4)) + ["GIP"] * 2
    bases = tuple((o, h, s) for (h, s), o in zip(chosen, owners, strict=False))
    first = draw(st.sampled_from(sorted(placed)))
    state = Case(tiles, bases, first, ("", "", 0)).network().state
    graph = TrackGraph.build(state)
    empty = [h for h in REGION if h not in state.tiles]
    assume(empty)
    touched = [h for h in empty if any(graph.incident(edge_node(h, side))
                                       for side in range(6))]
    second = (draw(st.sampled_from(touched or empty)), draw(st.sampled_from(SECOND_TILES)),
              draw(st.integers(0, 5)))
    return Case(tiles, bases, first, second)


@settings(max_examples=300, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_the_exact_search_agrees_with_the_brute_force(case: Case) -> None:
    agrees_with_brute_force(case)


def agrees_with_brute_force(case: Case) -> None:
    net = case.network()
    first, second = case.targets()
    brute = brute_pairs(net, first, second)
    assert disjoint_lines(net, first, second) == bool(brute)
    # Each part of the method on its own: the flow per gauge, the search per gauge pair.
    graphs, bases = net.side_graphs, net.graph.base_nodes("EIR")
    for g1, g2 in [("broad", "broad"), ("metre", "metre"), ("broad", "metre"),
                   ("metre", "broad")]:
        one, two = first.target(graphs[g1]), second.target(graphs[g2])
        found = (pair_flow(graphs[g1], bases, one, two) == 2 if g1 == g2
                 else mixed_pair(graphs[g1], graphs[g2], bases, one, two))
        assert found == ((g1, g2) in brute), (g1, g2)


def test_every_junction_tile_is_complete_for_every_gauge() -> None:
    # The side graph's hubs stand for junctions (lines.py); every tile must allow it.
    for name in ("first", "second"):
        ed = load_edition(name)
        for tile in ed.tiles.values():
            state = BoardState.initial(ed).with_tile("J16", tile.id, 0)
            for gauge in ACCEPTS:
                build_side_graph(TrackGraph.build(state), "EIR", gauge, Resources())


@pytest.mark.soak
@settings(max_examples=5000, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_the_exact_search_agrees_with_the_brute_force_soak(case: Case) -> None:
    agrees_with_brute_force(case)


def test_a_junction_missing_a_track_is_reported() -> None:
    # A 'Y' (W-NW and W-NE, no NW-NE): the hub of the side graph would let a line turn from
    # one branch into the other, which no track allows (4.5.5).
    w, nw, ne = edge_node("J16", 1), edge_node("J16", 2), edge_node("J16", 3)
    tracks = (Track(0, "J16", w, nw, "broad"), Track(1, "J16", w, ne, "broad"))
    graph = TrackGraph(tracks, {}, {}, {"broad": {}, "metre": {}, "dual": {}}, {})
    with pytest.raises(DataError, match=r"J16.*complete junctions"):
        build_side_graph(graph, "EIR", "broad", Resources())
