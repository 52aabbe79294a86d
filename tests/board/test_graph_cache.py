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
