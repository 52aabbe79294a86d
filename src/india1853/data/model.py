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

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Literal, get_args

from india1853.errors import DataError, InputError

Gauge = Literal["broad", "metre", "dual"]
Colour = Literal["yellow", "green", "brown", "grey"]
StationKind = Literal["small", "large"]
HexKind = Literal["plain", "town", "double_town", "city", "large_city", "offboard"]
Terrain = Literal["river", "multiple_river", "hill", "mountain", "himalaya"]
EditionName = Literal["first", "second"]
Provenance = Literal["rails-tiles-xml", "ps18xx", "derived"]

EDITIONS: tuple[EditionName, ...] = get_args(EditionName)
GAUGES: tuple[Gauge, ...] = get_args(Gauge)
COLOURS: tuple[Colour, ...] = get_args(Colour)

# A field the data files must give although code may leave it out (the loader reads the
# model's fields: one with a default is otherwise optional in the files).
REQUIRED_IN_FILES = MappingProxyType({"required": True})

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
    # Where the drawing comes from (docs/data-provenance.md); None for a tile made in code.
    provenance: Provenance | None = field(default=None, metadata=REQUIRED_IN_FILES)
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
    # The map notes (first edition): pale grey hexes lie outside India but "may be used in the
    # normal way"; only their colour differs.
    pale_grey: bool = False
    # 31.8 (first edition): the sides (0 SW .. 5 SE) at which the hex meets a buff edge of the
    # board: a line may run off the board there "as if it was the start of an international
    # route".  Empty: every side without a playable hex across is sea or margin.
    buff_edges: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DerivedValue:
    """A value no source prints: reconstructed from the reference, or a ruling between texts
    that disagree.  ``path`` selects it in ``file`` (see docs/data-format.md, "derived"), e.g.
    ``companies[initials=ECR].colour``; ``why`` says where it comes from."""

    file: str
    path: str
    why: str


@dataclass(frozen=True, slots=True)
class HomeBase:
    """A company's home base: a hex and, where the hex has several stations, which one.

    ``station`` is a station id of the hex's preprinted tile (``None`` on an ordinary city,
    whose single station does not exist until a tile is laid).  ``condition`` is ``None`` for
    an unconditional home, or a named condition such as ``"bbci_major"`` (rule 2.6.2).
    ``variant`` names the optional rule without which the home does not exist at all (the
    first edition's Alternative Rules 3.0: ``"alternative_rule_3"``); such a home is not on the
    standard board.
    """

    hex: str
    station: str | None = None
    condition: str | None = None
    variant: str | None = None


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


# ---------------------------------------------------------------------------------------------
# Trains and phases (TABLE 5, TABLE 6)
# ---------------------------------------------------------------------------------------------

TrainBuyers = Literal["any", "minor"]
# A train runs on broad or metre gauge (dual-gauge track serves both, 4.2.8).
TrainGauge = Literal["broad", "metre"]
PhaseTrigger = Literal["game_start", "first_stock_round", "first_train"]


@dataclass(frozen=True, slots=True)
class TrainSpec:
    """A train type of TABLE 5.

    ``large_stations`` is the most large stations a run may visit (N for 'N' and 'NM'; rules
    4.5.4 / 33.4).  ``count`` trains are always in the game; ``extra_count`` more are added only
    under the edition's ``Trains.extra_condition`` (rule 2.8.4: a Minor formed in the first stock
    round).  A '1M' must visit exactly one large station holding one of the company's bases and
    at least ``min_small_stations`` small ones (4.5.4, 4.8.18).
    """

    name: str
    gauge: TrainGauge
    large_stations: int
    price: int
    count: int
    extra_count: int = 0
    buyers: TrainBuyers = "any"
    min_small_stations: int = 0
    large_station_needs_base: bool = False

    def total(self, with_extras: bool) -> int:
        return self.count + (self.extra_count if with_extras else 0)


@dataclass(frozen=True, slots=True)
class DualOption:
    """Train cards that may be bought as either of two types (the 2009 '2/1M', rule 4.8.16).

    ``trains[1]`` may only be chosen by ``second_buyers``.  ``before_next_type``: all ``count``
    cards must be sold before the next broad-gauge type (4.8.16); ``first_or_unlimited``: more
    may be added on demand in the first operating round until the next type is bought (4.8.17).
    """

    card: str
    trains: tuple[str, str]
    count: int
    second_buyers: TrainBuyers
    condition: str
    before_next_type: bool
    first_or_unlimited: bool
    rule: str


@dataclass(frozen=True, slots=True)
class Trains:
    """Every train type of the edition in TABLE 5 order, with the dual-option cards."""

    types: tuple[TrainSpec, ...]
    dual_options: tuple[DualOption, ...] = ()
    extra_condition: str | None = None

    def __iter__(self) -> Iterator[TrainSpec]:
        return iter(self.types)

    def __len__(self) -> int:
        return len(self.types)

    def get(self, name: str) -> TrainSpec:
        for t in self.types:
            if t.name == name:
                return t
        raise DataError(f"unknown train {name!r}: expected one of {self.names()}")

    def names(self) -> str:
        return ", ".join(t.name for t in self.types)

    def total(self, with_extras: bool) -> int:
        """Trains in the game: TABLE 5's 27, or 37 with the 2009 extra trains."""
        return sum(t.total(with_extras) for t in self.types)


@dataclass(frozen=True, slots=True)
class PhaseSpec:
    """A column of TABLE 6.

    ``ors_per_set`` is the number of operating rounds between stock rounds (None in the
    second edition's Phase 1, the contract bids).  ``areas_relaxed``: TABLE 2 no longer limits
    promotions and bases (rules 4.2.3, 4.4.2).
    """

    number: int
    introduced_by: PhaseTrigger
    train: str | None
    trains_available: tuple[str, ...]
    trains_obsolete: tuple[str, ...]
    tiles: tuple[Colour, ...]
    train_limit: int | None
    ors_per_set: int | None
    areas_relaxed: bool = False
    note: str | None = None


# ---------------------------------------------------------------------------------------------
# Stock market (rule 4.7 / 34.7)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Movement:
    """How a share price moves after a company's turn.

    ``dividend_steps`` are ``(multiple, steps)`` pairs in increasing order: a total dividend of
    at least ``multiple`` times the share price moves the price ``steps`` spaces up; the last
    pair that applies wins.
    """

    rule: str
    no_dividend_with_pool_shares: int
    no_dividend_without_pool_shares: int
    dividend_steps: tuple[tuple[float, int], ...]

    def dividend_move(self, total_dividend: int, price: int) -> int:
        steps = 0
        for multiple, n in self.dividend_steps:
            if total_dividend >= multiple * price:
                steps = n
        return steps


@dataclass(frozen=True, slots=True)
class Market:
    values: tuple[int, ...]
    movement: Movement
    alternative_movement: Movement | None = None

    def index(self, price: int) -> int:
        try:
            return self.values.index(price)
        except ValueError:
            raise DataError(f"price {price} is not a stock market value") from None

    def move(self, price: int, steps: int) -> int:
        """The price ``steps`` spaces up (negative: down), stopping at either end."""
        i = max(0, min(len(self.values) - 1, self.index(price) + steps))
        return self.values[i]


# ---------------------------------------------------------------------------------------------
# Costs (TABLE 4, 4.4.4 / 32.3, 4.1.3, special costs)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TerrainCost:
    broad: int
    metre: int


@dataclass(frozen=True, slots=True)
class SpecialCost:
    """A cost that replaces or adds to the usual ones, e.g. Calcutta's first promotion (£60)."""

    id: str
    rule: str
    amount: int
    hex: str | None = None
    company: str | None = None
    condition: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Costs:
    """``base_tokens[i]`` is the cost of the (i+1)-th additional base; the last value repeats."""

    terrain: dict[Terrain, TerrainCost]
    base_tokens: tuple[int, ...]
    double_lay_fees: dict[str, int]
    special: tuple[SpecialCost, ...] = ()

    def construction(self, terrain: tuple[Terrain, ...], gauge: Gauge) -> int:
        """TABLE 4 (rules 4.1.12 / 31.10): a hex with two terrains pays both."""
        if gauge == "dual":
            raise InputError("TABLE 4 has no dual-gauge column: lay a broad or metre tile")
        return sum(getattr(self.terrain[t], gauge) for t in terrain)

    def base_token(self, already_placed_extra: int) -> int:
        """Rule 4.4.4 / 32.3: first additional base £40, every further one £100."""
        return self.base_tokens[min(already_placed_extra, len(self.base_tokens) - 1)]

    def special_cost(self, cost_id: str) -> SpecialCost | None:
        for s in self.special:
            if s.id == cost_id:
                return s
        return None


# ---------------------------------------------------------------------------------------------
# Player tables (TABLE 3, 2.3 / 13, 2.5.6 / 14.2)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One column of TABLE 3 (with the bid limits of 2.5.6 / 14.2 and the money of 2.3 / 13).

    ``share_limit`` None: no per-company limit (MIK 2).  ``minimum_bond`` None: the bond equals
    the cities' values (first edition 14.1).  ``starting_notes`` maps a note's value to a count.
    """

    players: int
    starting_capital: int
    share_limit: int | None
    certificate_limit: int
    qualifying_shares: int
    bid_cities: tuple[int, int] | None = None
    minimum_bond: int | None = None
    starting_notes: dict[int, int] | None = None
    minimum_companies: int | None = None


@dataclass(frozen=True, slots=True)
class TableVariant:
    """A replacement TABLE 3 from an optional rule, the Simplified Game or the Alternative Rules."""

    id: str
    rule: str
    players: dict[int, PlayerRow]


@dataclass(frozen=True, slots=True)
class Tables:
    bank: int
    bank_variants: dict[str, int]
    players: dict[int, PlayerRow]
    variants: dict[str, TableVariant]

    def player_row(self, count: int, variant: str | None = None) -> PlayerRow:
        rows = self.players if variant is None else self.variant(variant).players
        if count not in rows:
            raise InputError(f"players: {count} is not a valid player count "
                             f"({min(rows)}-{max(rows)})")
        return rows[count]

    def variant(self, variant_id: str) -> TableVariant:
        if variant_id not in self.variants:
            known = ", ".join(self.variants) or "none"
            raise InputError(f"unknown table variant {variant_id!r}: expected one of {known}")
        return self.variants[variant_id]


BidBond = Literal["at_least", "equal"]
# 4.1.14 / 31.11: who collects a frontier post's bonus (see docs/rulings.md, "Frontier posts").
FrontierBonus = Literal["first_company", "each_company"]


@dataclass(frozen=True, slots=True)
class RuleParams:
    """Numeric rule values that are not a table of their own; each field names its rules.

    * ``first_stock_round_sale_discount``: 2.8.3 / 18.1 (£5).
    * ``limit_exempt_max_price``: 3.1.2 / 21.2 (shares at £40 or less are exempt).
    * ``tile_lays``: lays per turn by company type (4.1.2 / 31.2).
    * ``double_lay_free_from_phase``: 4.1.3 option 1 (first edition: from the start, 31.2).
    * ``areas_relaxed_phase``: 4.2.3 / 4.4.2 (None: TABLE 2 always applies, 31.13).
    * ``frontier_bonus``: 4.1.14 / 31.11, who is paid a frontier post's bonus: only the first
      company to connect it (``first_company``) or each company once (``each_company``).
    * ``bid_*``: 2.5.2-2.5.8 / 14.1-14.4.
    """

    shares_per_company: int
    director_certificate_shares: int
    first_stock_round_sale_discount: int
    limit_exempt_max_price: int
    min_train_transfer_price: int
    route_min_stations: int
    game_end_share_price: int
    tile_lays: dict[str, int]
    double_lay_free_from_phase: int
    areas_relaxed_phase: int | None
    extra_operating_rounds: int
    minor_special_token: bool
    bid_bond: BidBond
    bid_ganges_limit: int
    bid_ganges_limit_three_cities: int | None
    bid_pass_unaccounted_limit: int | None
    frontier_bonus: FrontierBonus
    # 2.5.7: cities a bid of three cities may name besides its one Ganges valley city.
    bid_ganges_three_cities_also: tuple[str, ...] = ()


# ---------------------------------------------------------------------------------------------
# The edition
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Edition:
    """Everything the rules need to know about one edition; built by ``load_edition``."""

    name: EditionName
    board: Board
    tiles: dict[str, TileSpec]
    manifest: dict[str, int]
    promotions: dict[str, tuple[str, ...]]
    companies: tuple[CompanySpec, ...]
    cities: tuple[CitySpec, ...]
    trains: Trains
    phases: tuple[PhaseSpec, ...]
    market: Market
    costs: Costs
    tables: Tables
    rules: RuleParams
    # Every reconstructed value of the edition's files (and of the shared tile catalogue).
    derived: tuple[DerivedValue, ...] = ()

    def company(self, key: str | int) -> CompanySpec:
        """A company by TABLE 1 number or initials (case-insensitive)."""
        for c in self.companies:
            if c.number == key or (isinstance(key, str) and c.initials == key.upper()):
                return c
        known = ", ".join(c.initials for c in self.companies)
        raise InputError(f"unknown company {key!r}: expected 1-8 or one of {known}")

    def city(self, name: str) -> CitySpec:
        """A city by name (case-insensitive) or hex: the first of TABLE 2's order that has
        either."""
        key = name.strip()
        by_name, by_hex = self._city_index
        found = [f for f in (by_name.get(key.lower()), by_hex.get(key.upper())) if f]
        if not found:
            raise InputError(f"unknown city {name!r} in the {self.name} edition")
        return min(found, key=lambda f: f[0])[1]

    @cached_property
    def _city_index(self) -> tuple[dict[str, tuple[int, CitySpec]],
                                   dict[str, tuple[int, CitySpec]]]:
        """The cities by lower-case name and by hex, each key to its first city (and that
        city's place in the order): the rules look cities up by name many times a turn."""
        by_name: dict[str, tuple[int, CitySpec]] = {}
        by_hex: dict[str, tuple[int, CitySpec]] = {}
        for i, c in enumerate(self.cities):
            by_name.setdefault(c.name.lower(), (i, c))
            by_hex.setdefault(c.hex, (i, c))
        return by_name, by_hex

    @cached_property
    def frontier_posts(self) -> dict[str, int]:
        """The frontier posts' hexes (4.1.14 / 31.11) and their bonuses, in the board's order:
        asked after every company's lays."""
        return {coord: spec.frontier_post for coord, spec in self.board.hexes.items()
                if spec.frontier_post is not None}

    def tile(self, tile_id: str) -> TileSpec:
        if tile_id not in self.tiles:
            raise InputError(f"unknown tile {tile_id!r} in the {self.name} edition")
        return self.tiles[tile_id]

    def phase(self, number: int) -> PhaseSpec:
        for p in self.phases:
            if p.number == number:
                return p
        raise InputError(f"unknown phase {number} in the {self.name} edition")
