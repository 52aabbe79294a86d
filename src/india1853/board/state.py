"""The state of the board: tiles laid, base tokens placed, and the tile supply.

A :class:`BoardState` is immutable.  Every change returns a new state that shares whatever did
not change, so the game engine and the move generator can keep old states around cheaply.

* Tiles: every hex with track, including the preprinted large cities (rules 4.2.12 / 31.22:
  "these positions are equivalent to tiles already laid").
* Bases: a company's base token on a station of a hex (rules 4.4 / 32).  ``station`` is the id
  of a station of the tile now on the hex; it is ``None`` only for a home base on a city whose
  tile has not been laid yet (rule 4.1.8 / 31.6).
* Supply: the edition's manifest less the tiles on the board; a tile replaced by promotion goes
  back to the supply (rule 4.2.10 / 31.20).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from india1853.board.hexes import parse_side
from india1853.board.tiles import map_paths, promotion_station_map
from india1853.data.model import HomeBase, TileSpec
from india1853.errors import InputError

if TYPE_CHECKING:
    from india1853.data.model import Edition


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile on the board: its catalogue id and rotation 0..5."""

    tile: str
    rotation: int


@dataclass(frozen=True, slots=True)
class Base:
    """A base token of ``company`` (initials) on station ``station`` of the tile on ``hex``."""

    company: str
    hex: str
    station: str | None


def _frozen(tiles: Mapping[str, PlacedTile]) -> Mapping[str, PlacedTile]:
    return tiles if isinstance(tiles, MappingProxyType) else MappingProxyType(dict(tiles))


@dataclass(frozen=True)
class BoardState:
    """Tiles and bases on the board of one edition.  Build it with :meth:`initial`."""

    edition: Edition
    tiles: Mapping[str, PlacedTile]
    bases: tuple[Base, ...] = ()
    # The supply (manifest less the tiles on the board), counted once on first use.  It
    # depends on the tiles only, so :meth:`with_base` hands the same dict on; anything else
    # (``with_tile``, ``dataclasses.replace``) starts empty, as it is not an __init__ argument.
    _supply: dict[str, int] = field(default_factory=dict, init=False, repr=False,
                                    compare=False)
    # Data derived from this (immutable) state once and shared by every reader, such as the
    # track graph (see ``TrackGraph.build``).  Never copied into a changed state (not an
    # __init__ argument, so ``dataclasses.replace`` starts a new one too).
    _derived: dict[str, object] = field(default_factory=dict, init=False, repr=False,
                                        compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", _frozen(self.tiles))
        object.__setattr__(self, "bases", tuple(self.bases))

    # --- construction ---------------------------------------------------------------------

    @classmethod
    def initial(cls, edition: Edition) -> BoardState:
        """The printed board: the preprinted large cities (4.2.12 / 31.22) and no bases."""
        tiles = {
            coord: PlacedTile(spec.preprinted, spec.preprinted_rotation)
            for coord, spec in edition.board.hexes.items()
            if spec.preprinted is not None
        }
        return cls(edition, tiles)

    # --- queries --------------------------------------------------------------------------

    def tile_at(self, hex: str) -> tuple[TileSpec, int] | None:
        """The tile on ``hex`` with its rotation, or None for a hex without a tile."""
        placed = self.tiles.get(hex)
        if placed is None:
            return None
        return self.edition.tiles[placed.tile], placed.rotation

    def bases_at(self, hex: str, station: str | None = None) -> tuple[Base, ...]:
        """Bases on ``hex``; with ``station``, only those on that station."""
        return tuple(
            b for b in self.bases if b.hex == hex and (station is None or b.station == station)
        )

    def company_bases(self, company: str) -> tuple[Base, ...]:
        return tuple(b for b in self.bases if b.company == company)

    def tiles_on_board(self) -> Iterator[tuple[str, TileSpec, int]]:
        """Every tile on the board as (hex, tile, rotation), in hex order of insertion."""
        for coord, placed in self.tiles.items():
            yield coord, self.edition.tiles[placed.tile], placed.rotation

    def supply(self) -> dict[str, int]:
        """Tiles still available: the manifest less the tiles on the board (4.2.10 / 31.20).

        Preprinted tiles are not part of the manifest and are ignored.
        """
        return dict(self._counted_supply())

    def supply_left(self, tile: str) -> int:
        """How many of ``tile`` the supply still holds (``supply().get(tile, 0)``, uncopied)."""
        return self._counted_supply().get(tile, 0)

    def _counted_supply(self) -> dict[str, int]:
        if not self._supply:
            counts = dict(self.edition.manifest)
            for placed in self.tiles.values():
                if placed.tile in counts:
                    counts[placed.tile] -= 1
            self._supply.update(counts)
        return self._supply

    def station_by_side(self, hex: str, side: int | str) -> str:
        """The id of the station on ``hex`` whose track reaches map ``side`` (e.g. ``"NW"``).

        Used where a hex holds several separate stations (large cities) and a position names
        a station by the compass side its track runs to.
        """
        number = parse_side(side)
        found = self.tile_at(hex)
        if found is None:
            raise InputError(f"hex {hex}: no tile, so no station reaches side {side!r}")
        tile, rotation = found
        for path in map_paths(tile, rotation):
            for end, other in ((path.a, path.b), (path.b, path.a)):
                if end == number and isinstance(other, str):
                    return other
        raise InputError(f"hex {hex}: no station of tile {tile.id} has track to side {side!r}")

    def home_station(self, home: HomeBase) -> str | None:
        """The station of the tile now on ``home.hex`` that is this home (see
        :func:`home_station_on`); None while the hex has no tile."""
        found = self.tile_at(home.hex)
        return None if found is None else home_station_on(self.edition, home, *found)

    # --- changes --------------------------------------------------------------------------

    def with_tile(self, hex: str, tile: str, rotation: int) -> BoardState:
        """A new state with ``tile`` at ``rotation`` on ``hex``.

        On a promotion the bases move to the matching stations of the new tile (4.2.4-4.2.6,
        4.2.9 / 31.14-31.16, 31.19); a home base waiting on an empty city (``station=None``)
        moves onto the new tile's only large station.  Legality is the rules layer's job; this
        only refuses what cannot be represented.
        """
        if tile not in self.edition.tiles:
            raise InputError(f"tile {tile!r}: not a tile of the {self.edition.name} edition")
        if rotation not in range(6):
            raise InputError(f"rotation {rotation!r}: must be 0..5")
        new_spec = self.edition.tiles[tile]
        old = self.tile_at(hex)
        mapping: dict[str, str] = {}
        if old is not None:
            promoted = promotion_station_map(old[0], old[1], new_spec, rotation)
            if promoted is None:
                raise InputError(
                    f"hex {hex}: tile {tile} at rotation {rotation} does not keep the track of "
                    f"tile {old[0].id} (rules 4.2.4-4.2.6 / 31.14-31.16)"
                )
            mapping = promoted
        bases = tuple(
            _moved_base(b, mapping, new_spec) if b.hex == hex else b for b in self.bases
        )
        tiles = dict(self.tiles)
        tiles[hex] = PlacedTile(tile, rotation)
        state = BoardState(self.edition, tiles, bases)
        state._note_grown_from(self, hex, promoted=old is not None)
        return state

    def with_base(self, base: Base) -> BoardState:
        """A new state with one more base token (legality is checked by the rules layer)."""
        state = BoardState(self.edition, self.tiles, (*self.bases, base))
        # Same tiles, same supply: share the (possibly still empty) cache.
        object.__setattr__(state, "_supply", self._supply)
        state._note_grown_from(self, None)
        return state

    def _note_grown_from(self, parent: BoardState, hex: str | None, *,
                         promoted: bool = False) -> None:
        """Note that this state is ``parent`` with one more tile, on a hex that had none
        (appended last to ``tiles``), or with the tile on ``hex`` promoted (in its place
        among the tiles), or (``hex`` None) with the same tiles: the track graph
        (``TrackGraph.build``) then grows the parent's graph instead of building its own from
        scratch, if the parent's is built.  The parent's graph itself when it is built already
        (a replay drops the old board at once, and the new one's graph is often asked for only
        later); else a weak reference to the parent, whose graph may be built before this one's:
        an old board is not kept alive by its successor, only its graph until this one's is
        built."""
        graph = parent._derived.get("track_graph")
        source = weakref.ref(parent) if graph is None else None
        self._derived["grown_from"] = (source, graph, hex, promoted)


def _moved_base(base: Base, mapping: Mapping[str, str], tile: TileSpec) -> Base:
    """The base after a new tile arrives on its hex (see :meth:`BoardState.with_tile`)."""
    if base.station is not None:
        return Base(base.company, base.hex, mapping.get(base.station, base.station))
    large = [st.id for st in tile.stations if st.kind == "large"]
    if len(large) != 1:
        raise InputError(
            f"hex {base.hex}: the {base.company} base needs a tile with one large station, "
            f"tile {tile.id} has {len(large)}"
        )
    return Base(base.company, base.hex, large[0])


def home_station_on(edition: Edition, home: HomeBase, tile: TileSpec, rotation: int) -> str | None:
    """The station of ``tile`` (at ``rotation`` on ``home.hex``) that is this home (3.3.2 /
    23.2): an ordinary city's only large station, or a preprinted city's named station followed
    through its promotions (4.2.4-4.2.6 / 31.14-31.16).  None when the tile does not tell (or
    is no promotion of the printed city)."""
    if home.station is None:
        large = [st.id for st in tile.stations if st.kind == "large"]
        return large[0] if len(large) == 1 else None
    printed = edition.board.hexes[home.hex]
    if printed.preprinted is None or tile.id == printed.preprinted:
        return home.station
    # Promotions keep every track (4.2.4), so the printed city maps straight onto whatever
    # tile covers it now, as the bases on it were moved one promotion at a time.
    mapping = promotion_station_map(edition.tiles[printed.preprinted],
                                    printed.preprinted_rotation, tile, rotation)
    return None if mapping is None else mapping.get(home.station)
