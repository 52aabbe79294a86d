"""The typed model of an edition's data.

Every rule value lives in the JSON files beside this module; these dataclasses only give them
names and types.  The loader (``india1853.data.loader``) builds them and rejects malformed files
with an error that names the file and the field.

Conventions (shared with ``../shared/reference`` so that positions and test cases are
interchangeable):

* A hex is named by its row letter and column number, e.g. ``"J28"``.
* Sides are numbered clockwise from SW: 0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE.
* A tile placed with rotation ``r`` is turned ``r * 60`` degrees clockwise, so catalogue side
  ``s`` lies on map side ``(s + r) % 6``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Gauge = Literal["broad", "metre", "dual"]
Colour = Literal["yellow", "green", "brown", "grey"]
StationKind = Literal["small", "large"]
HexKind = Literal["plain", "town", "double_town", "city", "large_city", "offboard"]
Terrain = Literal["river", "multiple_river", "hill", "mountain", "himalaya"]
EditionName = Literal["first", "second"]

GAUGES: tuple[Gauge, ...] = ("broad", "metre", "dual")
COLOURS: tuple[Colour, ...] = ("yellow", "green", "brown", "grey")

# A path end is a side number 0..5 or a station id of the same tile (e.g. "st1").
PathEnd = int | str


@dataclass(frozen=True, slots=True)
class StationSpec:
    """A revenue centre on a tile: small (cross-bar, a town) or large (circle, a city).

    ``slots`` is the number of base tokens the station holds (0 for small stations).
    """

    id: str
    kind: StationKind
    value: int
    slots: int


@dataclass(frozen=True, slots=True)
class PathSpec:
    """One piece of track on a tile, between two sides, a side and a station, or two stations."""

    a: PathEnd
    b: PathEnd
    gauge: Gauge


@dataclass(frozen=True, slots=True)
class TileSpec:
    """A tile of the catalogue, or a preprinted large city (``preprinted=True``).

    Preprinted tiles (ids ``"Delhi"``, ``"Calcutta"``, ``"Bombay"``, ``"Madras"``, ``"Waltair"``)
    are described in map orientation and always sit at rotation 0.
    """

    id: str
    colour: Colour
    stations: tuple[StationSpec, ...]
    paths: tuple[PathSpec, ...]
    label: str | None = None
    provenance: str = ""
    preprinted: bool = False
    note: str | None = None

    def station(self, station_id: str) -> StationSpec:
        for st in self.stations:
            if st.id == station_id:
                return st
        raise KeyError(f"tile {self.id} has no station {station_id!r}")


@dataclass(frozen=True, slots=True)
class HexSpec:
    """One hex of the printed board.

    ``preprinted`` names a preprinted tile of the catalogue (large cities); it lies at rotation
    ``preprinted_rotation``.  ``playable`` is False for grey off-board hexes.
    """

    coord: str
    kind: HexKind
    name: str | None = None
    terrain: tuple[Terrain, ...] = ()
    frontier_post: int | None = None
    ganges_valley: bool = False
    preprinted: str | None = None
    preprinted_rotation: int = 0
    playable: bool = True
    note: str | None = None


@dataclass(frozen=True, slots=True)
class HomeBase:
    """A company's home base: a hex and, where the hex has several stations, which one.

    ``station`` is a station id of the hex's preprinted tile (``None`` on an ordinary city,
    whose single station does not exist until a tile is laid).  ``condition`` is ``None`` for
    an unconditional home, or a named condition such as ``"bbci_major"`` (rule 2.6.2).
    """

    hex: str
    station: str | None = None
    condition: str | None = None


@dataclass(frozen=True, slots=True)
class Area:
    """A TABLE 2 area: inclusive row and column ranges; ``None`` means unbounded."""

    rows: tuple[str, str] | None
    cols: tuple[int, int] | None

    def contains(self, coord: str) -> bool:
        row, col = coord[0], int(coord[1:])
        if self.rows is not None and not (self.rows[0] <= row <= self.rows[1]):
            return False
        return self.cols is None or self.cols[0] <= col <= self.cols[1]


CompanyType = Literal["major", "minor", "either"]


@dataclass(frozen=True, slots=True)
class CompanySpec:
    """A railway company (TABLE 1, TABLE 2, TABLE 7)."""

    number: int
    initials: str
    name: str
    homes: tuple[HomeBase, ...]
    area: Area
    par: int
    base_tokens: int
    colour: str
    text_colour: str
    type: CompanyType


@dataclass(frozen=True, slots=True)
class CitySpec:
    """A named city: the companies whose shares a contract bid may claim, and its bond value."""

    name: str
    hex: str
    companies: tuple[int, ...]
    bond_value: int
    ganges_valley: bool


@dataclass(frozen=True, slots=True)
class Board:
    hexes: dict[str, HexSpec] = field(default_factory=dict)

    def playable(self, coord: str) -> bool:
        spec = self.hexes.get(coord)
        return spec is not None and spec.playable
