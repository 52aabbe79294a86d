"""Tile geometry: rotation, exits, distinct rotations, fitting a tile to a hex (4.1.10 / 31.8)."""

from __future__ import annotations

import pytest

from india1853.board import tiles
from india1853.board.hexes import CoordinateError, neighbour
from india1853.data.loader import load_edition
from india1853.data.model import Board, HexSpec, PathSpec, StationSpec, TileSpec

STRAIGHT = TileSpec("t9", "yellow", (), (PathSpec(3, 0, "broad"),))
SHARP = TileSpec("t7", "yellow", (), (PathSpec(3, 4, "broad"),))
TOWN = TileSpec(
    "t3",
    "yellow",
    (StationSpec("st1", "small", 10, 0),),
    (PathSpec("st1", 3, "broad"), PathSpec("st1", 4, "metre")),
)
SIX_WAY = TileSpec(
    "t102",
    "brown",
    (StationSpec("st1", "large", 30, 2),),
    tuple(PathSpec("st1", s, "dual") for s in range(6)),
)


def test_map_paths_turns_sides_clockwise_and_keeps_station_ids() -> None:
    assert tiles.map_paths(TOWN, 2) == (PathSpec("st1", 5, "broad"), PathSpec("st1", 0, "metre"))
    assert tiles.map_paths(STRAIGHT, 0) == STRAIGHT.paths


def test_exits_follow_rotation() -> None:
    assert tiles.exits(SHARP, 0) == {3, 4}
    assert tiles.exits(SHARP, 3) == {0, 1}
    assert tiles.exits(TOWN, 5) == {2, 3}


def test_bad_rotation_is_refused() -> None:
    with pytest.raises(ValueError, match="rotation"):
        tiles.map_paths(STRAIGHT, 6)


def test_distinct_rotations_count_symmetry() -> None:
    assert tiles.distinct_rotations(STRAIGHT) == [0, 1, 2]
    assert tiles.distinct_rotations(SHARP) == [0, 1, 2, 3, 4, 5]
    assert tiles.distinct_rotations(SIX_WAY) == [0]


def test_identical_stations_are_interchangeable_in_a_picture() -> None:
    # Six one-slot stations, one per side (Calcutta's tile 500): one picture at every rotation.
    ring = TileSpec("r", "brown", tuple(StationSpec(f"st{i}", "large", 70, 1) for i in range(6)),
                    tuple(PathSpec(f"st{i}", i, "dual") for i in range(6)))
    assert tiles.distinct_rotations(ring) == [0]
    # Stations of different values are not interchangeable: every rotation differs.
    mixed = TileSpec("m", "brown", tuple(StationSpec(f"st{i}", "large", 10 * i, 1)
                                         for i in range(6)),
                     tuple(PathSpec(f"st{i}", i, "dual") for i in range(6)))
    assert tiles.distinct_rotations(mixed) == [0, 1, 2, 3, 4, 5]
    # Two equal towns on opposite curves look the same turned half round.
    towns = TileSpec("t1", "yellow",
                     (StationSpec("a", "small", 10, 0), StationSpec("b", "small", 10, 0)),
                     (PathSpec("a", 0, "broad"), PathSpec("a", 1, "broad"),
                      PathSpec("b", 3, "broad"), PathSpec("b", 4, "broad")))
    assert tiles.distinct_rotations(towns) == [0, 1, 2]
    assert tiles.picture(towns, 0) == tiles.picture(towns, 3)
    # A different gauge on one track is a different picture.
    gauged = TileSpec("t2", "yellow", towns.stations,
                      (*towns.paths[:3], PathSpec("b", 4, "metre")))
    assert tiles.distinct_rotations(gauged) == [0, 1, 2, 3, 4, 5]


def test_station_kind_helpers() -> None:
    two_town = TileSpec(
        "t1",
        "yellow",
        (StationSpec("st1", "small", 10, 0), StationSpec("st2", "small", 10, 0)),
        (PathSpec("st1", 0, "broad"), PathSpec("st2", 3, "broad")),
    )
    assert tiles.is_two_town(two_town)
    assert not tiles.is_two_town(TOWN)
    assert tiles.is_plain(STRAIGHT) and not tiles.is_plain(TOWN)
    assert tiles.next_colour(TOWN) == "green"
    assert tiles.next_colour(SIX_WAY) == "grey"
    assert tiles.next_colour(TileSpec("g", "grey", (), ())) is None


# A hand-made strip of coast: K10 has playable neighbours only to the W and E.
STRIP = Board(
    {
        "K8": HexSpec("K8", "plain"),
        "K10": HexSpec("K10", "plain"),
        "K12": HexSpec("K12", "plain"),
        "J11": HexSpec("J11", "offboard", playable=False),
    }
)


def test_fitting_rotations_on_a_hand_made_strip() -> None:
    # Straight from catalogue sides 3-0 (NE-SW) runs W-E at rotation 1 and 4.
    assert tiles.fitting_rotations(STRAIGHT, "K10", STRIP) == [1, 4]
    assert tiles.fitting_rotations(STRAIGHT, "K10", STRIP, distinct=True) == [1]
    assert tiles.fitting_rotations(SHARP, "K10", STRIP) == []
    assert tiles.fitting_rotations(STRAIGHT, "J11", STRIP) == []


def test_fitting_rotations_unknown_hex_is_an_input_error() -> None:
    with pytest.raises(CoordinateError, match="Z99"):
        tiles.fitting_rotations(STRAIGHT, "Z99", STRIP)


@pytest.mark.parametrize("edition", ["first", "second"])
def test_interior_hex_takes_every_rotation(edition: str) -> None:
    ed = load_edition(edition)
    board = ed.board
    straight, sharp = ed.tiles["9"], ed.tiles["7"]
    assert tiles.fitting_rotations(sharp, "K17", board) == [0, 1, 2, 3, 4, 5]
    assert tiles.fitting_rotations(straight, "K17", board, distinct=True) == [0, 1, 2]
    assert len(tiles.fitting_rotations(ed.tiles["102"], "K17", board, distinct=True)) == 1


@pytest.mark.parametrize("edition", ["first", "second"])
def test_coast_hex_refuses_track_into_the_sea(edition: str) -> None:
    # V14 is the southern tip: only NW, NE and E lead to playable hexes.
    ed = load_edition(edition)
    board = ed.board
    land = {side for side in range(6) if _playable_across(board, "V14", side)}
    assert land and land != set(range(6))
    straight = ed.tiles["9"]
    fits = tiles.fitting_rotations(straight, "V14", board)
    assert all(tiles.exits(straight, r) <= land for r in fits)
    refused = [r for r in range(6) if r not in fits]
    assert refused and all(not tiles.exits(straight, r) <= land for r in refused)


def test_first_edition_west_edge_refuses_track_into_the_grey_margin() -> None:
    # F2's W neighbour F0 is beyond the grid and no buff edge; its NW and SW neighbours E1 and
    # G1 are pale grey, playable in the first edition: a straight fits except running W.
    ed = load_edition("first")
    assert tiles.fitting_rotations(ed.tiles["9"], "F2", ed.board) == [0, 2, 3, 5]
    assert tiles.open_sides(ed.board, "F2") == {0, 2, 3, 4, 5}


def test_the_second_edition_west_edge_is_grey_margin() -> None:
    ed = load_edition("second")
    assert tiles.fitting_rotations(ed.tiles["9"], "F2", ed.board) == []
    assert tiles.fitting_rotations(ed.tiles["7"], "F2", ed.board) == [0, 1]
    assert tiles.fitting_rotations(ed.tiles["9"], "E1", ed.board) == []


def test_pale_grey_hexes_take_tiles_in_the_first_edition() -> None:
    """The map notes: "Those that are coloured pale grey may be used in the normal way" - E1,
    G1 and I1; their sides beyond the grid are not buff edges (31.8)."""
    ed = load_edition("first")
    for coord in ("E1", "G1", "I1"):
        assert ed.board.playable(coord)
        assert not ed.board.hexes[coord].buff_edges
    # E1: NE D2, E E3, SE F2 on the board; NW, W, SW beyond it.
    assert tiles.open_sides(ed.board, "E1") == {3, 4, 5}
    assert tiles.fitting_rotations(ed.tiles["7"], "E1", ed.board) == [0, 1]
    assert ed.board.hexes["I1"].terrain == ("river",)


BUFF_EDGES = {"B8": {2, 3}, "B10": {2, 3}, "B12": {2, 3}, "F36": {4}, "J36": {4}}


def test_buff_edges_are_the_first_editions_board_data() -> None:
    """31.8: a line may run off the board at a buff edge: the sides of B8, B10 and B12 above
    row B and of F36 and J36 beyond column 36 (docs/rulings.md); each leads off the grid."""
    first = load_edition("first").board
    found = {c: set(h.buff_edges) for c, h in first.hexes.items() if h.buff_edges}
    assert found == BUFF_EDGES
    assert all(neighbour(c, s) is None for c, sides in found.items() for s in sides)
    assert not any(h.buff_edges for h in load_edition("second").board.hexes.values())


def test_track_may_run_off_the_board_at_a_buff_edge() -> None:
    first, second = load_edition("first"), load_edition("second")
    straight = first.tiles["9"]  # NE-SW at rotation 0
    # B12 (Himalaya): NE off the board, SW to C11: fits in the first edition only.
    assert 0 in tiles.fitting_rotations(straight, "B12", first.board)
    assert 0 not in tiles.fitting_rotations(straight, "B12", second.board)
    # B12's E side leads into the margin (B14): never.
    assert all(4 not in tiles.exits(straight, r)
               for r in tiles.fitting_rotations(straight, "B12", first.board))
    # F36: W to F34, E off the board (Burma).
    assert tiles.fitting_rotations(straight, "F36", first.board) == [1, 4]


def _playable_across(board: Board, coord: str, side: int) -> bool:
    across = neighbour(coord, side)
    return across is not None and board.playable(across)
