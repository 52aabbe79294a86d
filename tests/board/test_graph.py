"""Track graph: nodes, gauges (4.2.8 / 31.18), blocking (4.2.9, 4.5.6 / 31.19, 33.6), lines."""

from __future__ import annotations

from india1853.board.graph import TrackGraph, edge_node, reach, station_node
from india1853.board.state import Base, BoardState
from india1853.data.loader import load_edition


def _second() -> BoardState:
    return BoardState.initial(load_edition("second"))


def test_edge_nodes_are_shared_by_the_two_hexes_of_an_edge() -> None:
    # J28's NW side (2) is I27's SE side (5).
    assert edge_node("J28", 2) == edge_node("I27", 5)
    assert edge_node("J28", 2) != edge_node("J28", 3)


def test_tracks_and_stations_of_the_preprinted_cities() -> None:
    graph = TrackGraph.build(_second())
    calcutta = [t for t in graph.tracks if t.hex == "J28"]
    assert len(calcutta) == 3 and all(t.gauge == "dual" for t in calcutta)
    info = graph.stations[station_node("J28", "st1")]
    assert info.kind == "large" and info.city == "J28" and info.slots == 1


def test_two_town_tiles_are_two_cities_and_other_tiles_one() -> None:
    state = _second().with_tile("E15", "1", 0)
    graph = TrackGraph.build(state)
    cities = {graph.stations[station_node("E15", s)].city for s in ("st1", "st2")}
    assert cities == {"E15/st1", "E15/st2"}


def test_adjacent_respects_gauge_and_dual() -> None:
    state = _second().with_tile("H26", "7", 0).with_tile("H28", "77", 0)
    graph = TrackGraph.build(state)
    broad = next(t for t in graph.tracks if t.hex == "H26")
    metre = next(t for t in graph.tracks if t.hex == "H28")
    assert broad in graph.adjacent(broad.a, "broad")
    assert broad not in graph.adjacent(broad.a, "metre")
    assert metre in graph.adjacent(metre.a, "metre")
    calcutta = graph.incident(station_node("J28", "st1"))[0]
    assert calcutta in graph.adjacent(station_node("J28", "st1"), "metre")
    assert calcutta in graph.adjacent(station_node("J28", "st1"), "broad")


def test_blocked_only_when_every_slot_holds_another_companys_base() -> None:
    state = _second().with_tile("H24", "14", 0).with_base(Base("EIR", "H24", "st1"))
    graph = TrackGraph.build(state)
    node = station_node("H24", "st1")
    assert graph.tokens(node) == ("EIR",)
    assert not graph.blocked_for(node, "BNR")  # 14 has two slots, one free (4.2.9)
    full = TrackGraph.build(state.with_base(Base("GIP", "H24", "st1")))
    assert full.blocked_for(node, "BNR")
    assert not full.blocked_for(node, "EIR")
    assert full.base_nodes("GIP") == (node,)


def _line_to_patna() -> BoardState:
    """EIR at Calcutta's NW station; broad track J28 -> I27 (town) -> H26 -> Patna (H24),
    whose tile continues to the SE side."""
    return (
        _second()
        .with_base(Base("EIR", "J28", "st1"))
        .with_tile("I27", "4", 5)
        .with_tile("H26", "8", 2)
        .with_tile("H24", "5", 3)
    )


def test_a_line_runs_through_stations_with_a_free_slot() -> None:
    graph = TrackGraph.build(_line_to_patna())
    r = reach(graph, "EIR", "broad")
    assert station_node("H24", "st1") in r.arrivals
    assert edge_node("H24", 5) in r.arrivals
    assert not reach(graph, "EIR", "metre").tracks - {t.id for t in graph.tracks_in("J28")}


def test_a_line_ends_at_a_blocked_station_but_does_not_pass_it() -> None:
    state = _line_to_patna().with_base(Base("BNR", "H24", "st1"))
    graph = TrackGraph.build(state)
    r = reach(graph, "EIR", "broad")
    assert station_node("H24", "st1") in r.arrivals
    assert edge_node("H24", 5) not in r.arrivals
    # The blocking company itself passes its own base.
    bnr = reach(graph, "BNR", "broad")
    assert edge_node("H24", 5) in bnr.arrivals and edge_node("J28", 2) in bnr.arrivals
