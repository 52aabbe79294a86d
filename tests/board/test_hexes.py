"""Hex geometry: coordinates in both notations, sides, neighbours, rotation and distance."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from india1853.board import hexes
from india1853.board.hexes import CoordinateError
from india1853.errors import InputError

ALL_HEXES = [
    f"{row}{col}"
    for i, row in enumerate(hexes.ROWS)
    for col in range(hexes.MIN_COL, hexes.MAX_COL + 1)
    if (i + col) % 2 == 0
]


def test_reference_neighbours_of_calcutta() -> None:
    # The reference's worked example: J28 has E J30, SE K29, SW K27, W J26, NW I27, NE I29.
    assert hexes.neighbours("J28") == {
        4: "J30", 5: "K29", 0: "K27", 1: "J26", 2: "I27", 3: "I29",
    }


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("J28", "J28"), ("Jab", "J28"), ("Kq", "K17"), ("k17", "K17"), (" B8 ", "B8"), ("Vaj", "V36")],
)
def test_parse_both_notations(text: str, canonical: str) -> None:
    assert hexes.parse_coord(text) == canonical


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("J27", "row J uses even column numbers"),
        ("K18", "row K uses odd column numbers"),
        ("A2", "row must be one of B..V"),
        ("W2", "row must be one of B..V"),
        ("J40", "column must be 1..36"),
        ("J0", "column must be 1..36"),
        ("28J", "expected a row letter and column"),
        ("", "expected a row letter and column"),
    ],
)
def test_bad_coordinates_name_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(CoordinateError, match=fragment):
        hexes.parse_coord(text)


def test_coordinate_error_is_an_input_error() -> None:
    with pytest.raises(InputError):
        hexes.parse_coord("nonsense")


def test_rulebook_letters_round_trip() -> None:
    assert hexes.to_rulebook("J28") == "Jab"
    assert hexes.to_rulebook("K17") == "Kq"
    for coord in ALL_HEXES:
        assert hexes.parse_coord(hexes.to_rulebook(coord)) == coord


def test_side_names_and_opposites() -> None:
    assert [hexes.side_name(s) for s in range(6)] == ["SW", "W", "NW", "NE", "E", "SE"]
    assert hexes.opposite(0) == 3 and hexes.opposite(1) == 4 and hexes.opposite(5) == 2
    assert hexes.parse_side("ne") == 3 and hexes.parse_side(4) == 4 and hexes.parse_side("5") == 5
    with pytest.raises(CoordinateError, match="bad side"):
        hexes.parse_side("N")
    with pytest.raises(CoordinateError, match="bad side"):
        hexes.parse_side(6)


def test_rotation_turns_clockwise() -> None:
    # Catalogue side s lies on map side (s + r) mod 6: SW rotated once points W.
    assert hexes.rotate_side(0, 1) == 1
    assert hexes.rotate_side(5, 1) == 0
    assert hexes.rotate_side(2, 5) == 1


def test_grid_edges_have_no_neighbours() -> None:
    assert hexes.neighbour("B8", 2) is None  # nothing north of row B
    assert hexes.neighbour("V16", 5) is None  # nothing south of row V
    assert hexes.neighbour("C1", 1) is None  # nothing west of column 1


@given(st.sampled_from(ALL_HEXES), st.integers(0, 5))
def test_neighbourhood_is_symmetric(coord: str, side: int) -> None:
    other = hexes.neighbour(coord, side)
    if other is not None:
        assert hexes.neighbour(other, hexes.opposite(side)) == coord
        assert hexes.side_between(coord, other) == side
        assert hexes.distance(coord, other) == 1


@given(st.sampled_from(ALL_HEXES), st.sampled_from(ALL_HEXES), st.sampled_from(ALL_HEXES))
def test_distance_is_a_metric(a: str, b: str, c: str) -> None:
    assert hexes.distance(a, a) == 0
    assert hexes.distance(a, b) == hexes.distance(b, a)
    assert hexes.distance(a, c) <= hexes.distance(a, b) + hexes.distance(b, c)


def test_distance_matches_breadth_first_search() -> None:
    start = "J28"
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for coord in frontier:
            for other in hexes.neighbours(coord).values():
                if other not in seen:
                    seen[other] = seen[coord] + 1
                    nxt.append(other)
        frontier = nxt
    assert len(seen) == len(ALL_HEXES)
    for coord, steps in seen.items():
        assert hexes.distance(start, coord) == steps
    assert hexes.distance("B8", "T16") == 18
