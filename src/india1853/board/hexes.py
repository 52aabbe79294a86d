"""Hex geometry of the 1853 map: coordinates, sides, neighbours, rotation, distance.

The map is made of pointy-top hexes in horizontal rows B (north) to V (south).  Rows B, D, F ...
use even column numbers, rows C, E, G ... odd ones.  A hex is written ``J28``; the rulebook writes
the column as letters (a=1 ... z=26, aa=27 ...), so ``J28`` is ``Jab``.

Sides are numbered clockwise from SW: 0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE.  Rule 15.4 ("farthest
apart") needs the distance in hexes, which :func:`distance` gives.
"""

from __future__ import annotations

import re
from functools import lru_cache

from india1853.errors import InputError

ROWS = "BCDEFGHIJKLMNOPQRSTUV"
MIN_COL, MAX_COL = 1, 36

SIDE_NAMES: tuple[str, ...] = ("SW", "W", "NW", "NE", "E", "SE")
SIDE_BY_NAME: dict[str, int] = {name: i for i, name in enumerate(SIDE_NAMES)}

# (row delta, column delta) for each side number.
SIDE_OFFSETS: tuple[tuple[int, int], ...] = ((1, -1), (0, -2), (-1, -1), (-1, 1), (0, 2), (1, 1))

_PLAIN = re.compile(r"^([A-Za-z])(\d{1,2})$")
_LETTERS = re.compile(r"^([A-Za-z])([a-z]{1,2})$")


class CoordinateError(InputError, ValueError):
    """A hex coordinate that does not name a hex of the 1853 grid."""


def _row_index(row: str) -> int:
    return ROWS.index(row)


def _check(row: str, col: int, text: str) -> str:
    if row not in ROWS:
        raise CoordinateError(f"bad coordinate {text!r}: row must be one of B..V")
    if not MIN_COL <= col <= MAX_COL:
        raise CoordinateError(f"bad coordinate {text!r}: column must be {MIN_COL}..{MAX_COL}")
    if (_row_index(row) + col) % 2 != 0:
        parity = "even" if _row_index(row) % 2 == 0 else "odd"
        raise CoordinateError(f"bad coordinate {text!r}: row {row} uses {parity} column numbers")
    return f"{row}{col}"


def letters_to_col(letters: str) -> int:
    """Rulebook column letters to a number: a=1 .. z=26, aa=27 .. aj=36."""
    if len(letters) == 1:
        return ord(letters) - ord("a") + 1
    return 26 * (ord(letters[0]) - ord("a") + 1) + ord(letters[1]) - ord("a") + 1


def col_to_letters(col: int) -> str:
    """A column number in the rulebook's letters: 17 -> "q", 28 -> "ab"."""
    if col <= 26:
        return chr(ord("a") + col - 1)
    return chr(ord("a") + (col - 1) // 26 - 1) + chr(ord("a") + (col - 1) % 26)


def parse_coord(text: str) -> str:
    """Parse ``J28`` or the rulebook's ``Jab`` into the canonical ``J28``.

    Raises :class:`CoordinateError` naming the problem for anything that is not a grid hex.
    """
    raw = text.strip()
    m = _PLAIN.match(raw)
    if m:
        return _check(m.group(1).upper(), int(m.group(2)), text)
    m = _LETTERS.match(raw)
    if m:
        return _check(m.group(1).upper(), letters_to_col(m.group(2)), text)
    raise CoordinateError(
        f"bad coordinate {text!r}: expected a row letter and column, e.g. J28 or Jab"
    )


def split(coord: str) -> tuple[str, int]:
    """``"J28"`` -> ``("J", 28)`` for a canonical coordinate."""
    return coord[0], int(coord[1:])


def to_rulebook(coord: str) -> str:
    """``"J28"`` -> ``"Jab"``."""
    row, col = split(coord)
    return row + col_to_letters(col)


@lru_cache(maxsize=8192)  # the grid has under 5,000 (hex, side) pairs; asked very often
def neighbour(coord: str, side: int) -> str | None:
    """The grid hex across ``side`` of ``coord``, or None beyond rows B..V / columns 1..36."""
    row, col = split(coord)
    dr, dc = SIDE_OFFSETS[side]
    r = _row_index(row) + dr
    c = col + dc
    if not (0 <= r < len(ROWS)) or not MIN_COL <= c <= MAX_COL:
        return None
    return f"{ROWS[r]}{c}"


def neighbours(coord: str) -> dict[int, str]:
    """Every grid neighbour of ``coord`` by side number."""
    out: dict[int, str] = {}
    for side in range(6):
        n = neighbour(coord, side)
        if n is not None:
            out[side] = n
    return out


def opposite(side: int) -> int:
    """The side of the neighbour that touches ``side``: SW<->NE, W<->E, NW<->SE."""
    return (side + 3) % 6


def rotate_side(side: int, rotation: int) -> int:
    """Catalogue side ``side`` of a tile laid at ``rotation`` lies on this map side."""
    return (side + rotation) % 6


def side_between(a: str, b: str) -> int | None:
    """The side of ``a`` that touches ``b``, or None if they are not adjacent."""
    for side, n in neighbours(a).items():
        if n == b:
            return side
    return None


def distance(a: str, b: str) -> int:
    """Distance in hexes (rule 15.4 "farthest apart")."""
    ra, ca = split(a)
    rb, cb = split(b)
    dy = abs(_row_index(ra) - _row_index(rb))
    dx = abs(ca - cb)
    return dy + max(0, (dx - dy) // 2)


def side_name(side: int) -> str:
    return SIDE_NAMES[side]


def parse_side(text: str | int) -> int:
    """A side given as 0..5 or a compass name (SW, W, NW, NE, E, SE)."""
    if isinstance(text, int):
        if 0 <= text <= 5:
            return text
        raise CoordinateError(f"bad side {text!r}: expected 0..5 or SW, W, NW, NE, E, SE")
    name = text.strip().upper()
    if name in SIDE_BY_NAME:
        return SIDE_BY_NAME[name]
    if name.isdigit() and 0 <= int(name) <= 5:
        return int(name)
    raise CoordinateError(f"bad side {text!r}: expected 0..5 or SW, W, NW, NE, E, SE")
