"""The track graph is built once per (immutable) board state and never outlives it."""

from __future__ import annotations

from dataclasses import replace

from india1853.board.graph import TrackGraph, station_node
from india1853.board.state import Base, BoardState
from india1853.data.loader import load_edition


def _second() -> BoardState:
    return BoardState.initial(load_edition("second"))


def test_one_graph_per_board_state() -> None:
    board = _second()
    assert TrackGraph.build(board) is TrackGraph.build(board)


def test_a_changed_board_gets_its_own_graph() -> None:
    board = _second().with_tile("H24", "14", 0)
    before = TrackGraph.build(board)
    based = board.with_base(Base("EIR", "H24", "st1"))
    assert TrackGraph.build(based).tokens(station_node("H24", "st1")) == ("EIR",)
    assert before.tokens(station_node("H24", "st1")) == ()
    laid = board.with_tile("E15", "1", 0)
    assert len(TrackGraph.build(laid).tracks) > len(before.tracks)
    assert not [t for t in before.tracks if t.hex == "E15"]


def test_a_replaced_board_does_not_share_the_cache() -> None:
    board = _second()
    graph = TrackGraph.build(board)
    other = replace(board, bases=(Base("EIR", "J28", "st1"),))
    assert TrackGraph.build(other) is not graph
    assert TrackGraph.build(other).tokens(station_node("J28", "st1")) == ("EIR",)


def test_the_same_tile_on_a_fresh_board_gives_equal_tracks() -> None:
    # The per-tile memo must give the same tracks as a first build.
    one = TrackGraph.build(_second().with_tile("E15", "1", 0))
    two = TrackGraph.build(BoardState.initial(load_edition("second")).with_tile("E15", "1", 0))
    assert one is not two
    assert [(t.hex, t.a, t.b, t.gauge) for t in one.tracks] == [
        (t.hex, t.a, t.b, t.gauge) for t in two.tracks]


def _in_order(graph: TrackGraph) -> tuple[object, ...]:
    """Everything in a graph, the order of every dict included (dict equality ignores it)."""
    return (graph.tracks, list(graph.stations.items()), list(graph._incident.items()),
            [(g, list(nodes.items())) for g, nodes in graph._by_gauge.items()],
            list(graph._tokens.items()), list(graph._by_hex.items()))


def test_a_graph_grown_from_the_previous_board_is_the_graph_built_anew() -> None:
    # A lay on a new hex, a base and a promotion grow the previous board's graph
    # (TrackGraph._grown): the same tracks, ids, stations and orders as a build from scratch.
    board = _second()
    TrackGraph.build(board)
    home = board.with_base(Base("EIR", "B8", None))  # a home base waiting for its tile
    steps = [home, home.with_tile("B8", "5", 0), None, None]
    steps[2] = steps[1].with_tile("H24", "14", 0)
    steps[3] = steps[2].with_base(Base("GIP", "H24", "st1"))
    for step in steps:
        assert step is not None
        assert step._derived.get("grown_from") is not None
        graph = TrackGraph.build(step)
        assert "grown_from" not in step._derived
        assert _in_order(graph) == _in_order(TrackGraph._build(step))
    assert TrackGraph.build(steps[3]).tokens(station_node("B8", "st1")) == ("EIR",)
    # Promotions: of a hex amid the tiles (the tracks after it renumbered), and of Delhi, the
    # first of the printed cities (every other track renumbered).
    promoted = steps[3].with_tile("B8", "12", 0)
    assert promoted._derived.get("grown_from") is not None
    assert _in_order(TrackGraph.build(promoted)) == _in_order(TrackGraph._build(promoted))
    assert "grown_from" not in promoted._derived
    delhi = promoted.with_tile("F14", "500", 0)
    assert _in_order(TrackGraph.build(delhi)) == _in_order(TrackGraph._build(delhi))
    assert len(TrackGraph.build(delhi).tracks) != len(TrackGraph.build(promoted).tracks)
