"""Load an edition's JSON files into the typed model, rejecting anything malformed.

Files (see docs/data-format.md): the shared tile catalogue ``tiles.json`` and, per edition
directory, ``board.json``, ``cities.json``, ``companies.json``, ``tiles.json`` (manifest and
promotions), ``trains.json`` (trains and phases), ``market.json`` and ``rules.json`` (costs,
tables, rule values).  Every error names the file and the field, e.g.
``second/board.json: hexes[12].kind: expected one of plain, town, ...``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast

from india1853.data.model import (
    COLOURS,
    GAUGES,
    Area,
    Board,
    CitySpec,
    CompanySpec,
    Costs,
    DerivedValue,
    DualOption,
    Edition,
    EditionName,
    HexSpec,
    HomeBase,
    Market,
    Movement,
    PathSpec,
    PhaseSpec,
    PlayerRow,
    RuleParams,
    SpecialCost,
    StationSpec,
    Tables,
    TableVariant,
    TerrainCost,
    TileSpec,
    Trains,
    TrainSpec,
)
from india1853.errors import DataError

DATA_DIR = Path(__file__).resolve().parent
EDITIONS: tuple[EditionName, ...] = ("first", "second")
HEX_KINDS = ("plain", "town", "double_town", "city", "large_city", "offboard")
TERRAINS = ("river", "multiple_river", "hill", "mountain", "himalaya")
COMPANY_TYPES = ("major", "minor", "either")
ROWS = "BCDEFGHIJKLMNOPQRSTUV"

T = TypeVar("T")


class _Ctx:
    """Where we are while reading: the file and a path of fields, for error messages."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.path: list[str] = []

    def error(self, message: str) -> DataError:
        where = ".".join(self.path).replace(".[", "[")
        return DataError(f"{self.file}: {where or '(top)'}: {message}")

    @contextmanager
    def at(self, name: str | int) -> Iterator[None]:
        self.path.append(f"[{name}]" if isinstance(name, int) else name)
        try:
            yield
        finally:
            self.path.pop()


def _type_name(t: type | tuple[type, ...]) -> str:
    names = {
        int: "an integer",
        str: "a string",
        bool: "true/false",
        list: "a list",
        dict: "an object",
        float: "a number",
    }
    if isinstance(t, tuple):
        return " or ".join(names.get(x, x.__name__) for x in t)
    return names.get(t, t.__name__)


def _is(value: Any, t: type | tuple[type, ...]) -> bool:
    # bool is an int in Python; a JSON true must never pass as a number.
    if isinstance(value, bool):
        return t is bool or (isinstance(t, tuple) and bool in t)
    return isinstance(value, t)


class _Obj:
    """A JSON object being read: each key must be read exactly once (``done`` checks extras)."""

    def __init__(self, ctx: _Ctx, raw: Any) -> None:
        if not isinstance(raw, dict):
            raise ctx.error("expected an object")
        self.ctx = ctx
        self.raw: dict[str, Any] = raw
        self.seen: set[str] = set()

    def req(self, key: str, t: type | tuple[type, ...]) -> Any:
        self.seen.add(key)
        if key not in self.raw:
            raise self.ctx.error(f"missing field {key!r}")
        return self._check(key, self.raw[key], t)

    def opt(self, key: str, t: type | tuple[type, ...], default: Any = None) -> Any:
        self.seen.add(key)
        if key not in self.raw or self.raw[key] is None:
            return default
        return self._check(key, self.raw[key], t)

    def _check(self, key: str, value: Any, t: type | tuple[type, ...]) -> Any:
        if not _is(value, t):
            with self.ctx.at(key):
                raise self.ctx.error(f"expected {_type_name(t)}, got {json.dumps(value)}")
        return value

    def choice(self, key: str, choices: tuple[str, ...], optional: bool = False) -> Any:
        value = self.opt(key, str) if optional else self.req(key, str)
        if value is not None and value not in choices:
            with self.ctx.at(key):
                raise self.ctx.error(f"expected one of {', '.join(choices)}, got {value!r}")
        return value

    def done(self) -> None:
        extra = sorted(set(self.raw) - self.seen)
        if extra:
            raise self.ctx.error(f"unknown field {extra[0]!r}")


def _items(ctx: _Ctx, raw: list[Any], read: Callable[[_Ctx, Any], T]) -> list[T]:
    out = []
    for i, item in enumerate(raw):
        with ctx.at(i):
            out.append(read(ctx, item))
    return out


def _strs(ctx: _Ctx, raw: list[Any], key: str) -> tuple[str, ...]:
    with ctx.at(key):
        for i, x in enumerate(raw):
            if not isinstance(x, str):
                with ctx.at(i):
                    raise ctx.error(f"expected a string, got {json.dumps(x)}")
    return tuple(raw)


def _read_json(directory: Path, rel: str) -> tuple[_Ctx, Any]:
    path = directory / rel
    ctx = _Ctx(rel)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{rel}: cannot read file ({exc.strerror})") from None
    try:
        return ctx, json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{rel}: invalid JSON at line {exc.lineno}: {exc.msg}") from None


def _top(
    directory: Path, rel: str, keys: dict[str, type | tuple[type, ...]]
) -> tuple[_Ctx, dict[str, Any]]:
    """Read a file whose top level holds exactly ``keys`` (plus an optional ``about`` text)."""
    ctx, raw = _read_json(directory, rel)
    obj = _Obj(ctx, raw)
    obj.opt("about", str)
    obj.opt("derived", dict)  # checked by _derived_values
    out = {k: obj.req(k, t) for k, t in keys.items()}
    obj.done()
    return ctx, out


# ---------------------------------------------------------------------------------------------
# Tiles
# ---------------------------------------------------------------------------------------------


def _coord(ctx: _Ctx, value: str) -> str:
    if len(value) < 2 or value[0] not in ROWS or not value[1:].isdigit():
        raise ctx.error(f"bad hex {value!r}: expected a row letter B..V and a column, e.g. J28")
    col = int(value[1:])
    if not 1 <= col <= 36 or (ROWS.index(value[0]) + col) % 2 != 0:
        raise ctx.error(f"bad hex {value!r}: not a hex of the 1853 grid")
    return value


def _station(ctx: _Ctx, raw: Any) -> StationSpec:
    o = _Obj(ctx, raw)
    st = StationSpec(
        id=o.req("id", str),
        kind=o.choice("kind", ("small", "large")),
        value=o.req("value", int),
        slots=o.req("slots", int),
    )
    o.done()
    if st.kind == "small" and st.slots != 0:
        raise ctx.error("a small station holds no bases: slots must be 0")
    return st


def _path(ctx: _Ctx, raw: Any, station_ids: set[str]) -> PathSpec:
    if not isinstance(raw, list) or len(raw) != 3:
        raise ctx.error("expected [a, b, gauge]")
    a, b, gauge = raw
    for end in (a, b):
        if isinstance(end, bool) or not (
            (isinstance(end, int) and 0 <= end <= 5)
            or (isinstance(end, str) and end in station_ids)
        ):
            raise ctx.error(f"bad path end {json.dumps(end)}: expected a side 0..5 or a station id")
    if gauge not in GAUGES:
        raise ctx.error(f"bad gauge {json.dumps(gauge)}: expected one of {', '.join(GAUGES)}")
    return PathSpec(a=a, b=b, gauge=gauge)


def _tile(ctx: _Ctx, tile_id: str, raw: Any) -> TileSpec:
    o = _Obj(ctx, raw)
    colour = o.choice("colour", COLOURS)
    with ctx.at("stations"):
        stations = tuple(_items(ctx, o.req("stations", list), _station))
    ids = {s.id for s in stations}
    if len(ids) != len(stations):
        raise ctx.error("duplicate station id")
    with ctx.at("paths"):
        paths = tuple(_items(ctx, o.req("paths", list), lambda c, r: _path(c, r, ids)))
    tile = TileSpec(
        id=tile_id,
        colour=colour,
        stations=stations,
        paths=paths,
        label=o.opt("label", str),
        provenance=o.choice("provenance", ("rails-tiles-xml", "ps18xx", "derived")),
        preprinted=o.opt("preprinted", bool, False),
        note=o.opt("note", str),
    )
    o.done()
    return tile


def load_catalogue(directory: Path = DATA_DIR) -> dict[str, TileSpec]:
    """The shared tile catalogue of both editions, including the preprinted large cities."""
    ctx, top = _top(directory, "tiles.json", {"tiles": dict})
    out: dict[str, TileSpec] = {}
    with ctx.at("tiles"):
        for tile_id, raw in top["tiles"].items():
            with ctx.at(tile_id):
                out[tile_id] = _tile(ctx, tile_id, raw)
    return out


# ---------------------------------------------------------------------------------------------
# Board, cities, companies
# ---------------------------------------------------------------------------------------------


# Side names in side-number order (0 SW .. 5 SE), as in board.hexes.SIDE_NAMES.
SIDE_NAMES = ("SW", "W", "NW", "NE", "E", "SE")


def _sides(ctx: _Ctx, raw: list[Any]) -> tuple[int, ...]:
    """A list of side names (``"NW"``) as side numbers, each once."""
    names = _strs(ctx, raw, "buff_edges")
    with ctx.at("buff_edges"):
        for name in names:
            if name not in SIDE_NAMES:
                raise ctx.error(f"expected one of {', '.join(SIDE_NAMES)}, got {name!r}")
        if len(set(names)) != len(names):
            raise ctx.error("a side is named twice")
    return tuple(sorted(SIDE_NAMES.index(n) for n in names))


def _hex(ctx: _Ctx, raw: Any) -> HexSpec:
    o = _Obj(ctx, raw)
    coord = o.req("coord", str)
    with ctx.at("coord"):
        _coord(ctx, coord)
    terrain = _strs(ctx, o.opt("terrain", list, []), "terrain")
    for t in terrain:
        if t not in TERRAINS:
            with ctx.at("terrain"):
                raise ctx.error(f"expected one of {', '.join(TERRAINS)}, got {t!r}")
    spec = HexSpec(
        coord=coord,
        kind=o.choice("kind", HEX_KINDS),
        name=o.opt("name", str),
        terrain=cast(Any, terrain),
        frontier_post=o.opt("frontier_post", int),
        ganges_valley=o.opt("ganges_valley", bool, False),
        preprinted=o.opt("preprinted", str),
        preprinted_rotation=o.opt("preprinted_rotation", int, 0),
        playable=o.opt("playable", bool, True),
        note=o.opt("note", str),
        pale_grey=o.opt("pale_grey", bool, False),
        buff_edges=_sides(ctx, o.opt("buff_edges", list, [])),
    )
    o.done()
    if (spec.kind == "offboard") == spec.playable:
        raise ctx.error("playable must be false exactly for offboard hexes")
    if spec.buff_edges and not spec.playable:
        raise ctx.error("buff_edges: an offboard hex has no buff edge")
    if (spec.kind == "large_city") != (spec.preprinted is not None):
        raise ctx.error("a large_city hex, and only one, names its preprinted tile")
    if spec.kind in ("city", "large_city") and not spec.name:
        raise ctx.error(f"a {spec.kind} hex needs a name")
    return spec


def _board(directory: Path, edition: str, catalogue: dict[str, TileSpec]) -> Board:
    ctx, top = _top(directory, f"{edition}/board.json", {"hexes": list})
    hexes: dict[str, HexSpec] = {}
    with ctx.at("hexes"):
        for i, raw in enumerate(top["hexes"]):
            with ctx.at(i):
                spec = _hex(ctx, raw)
                if spec.coord in hexes:
                    raise ctx.error(f"duplicate hex {spec.coord}")
                if spec.preprinted is not None:
                    tile = catalogue.get(spec.preprinted)
                    if tile is None or not tile.preprinted:
                        raise ctx.error(f"preprinted: {spec.preprinted!r} is no preprinted tile")
                hexes[spec.coord] = spec
    return Board(hexes=hexes)


def _cities(directory: Path, edition: str, board: Board) -> tuple[CitySpec, ...]:
    ctx, top = _top(directory, f"{edition}/cities.json", {"cities": list})

    def read(c: _Ctx, raw: Any) -> CitySpec:
        o = _Obj(c, raw)
        numbers = o.req("companies", list)
        for n in numbers:
            if not _is(n, int) or not 1 <= n <= 8:
                with c.at("companies"):
                    raise c.error(f"expected company numbers 1-8, got {json.dumps(n)}")
        city = CitySpec(
            name=o.req("name", str),
            hex=o.req("hex", str),
            companies=tuple(numbers),
            bond_value=o.req("bond_value", int),
            ganges_valley=o.req("ganges_valley", bool),
        )
        o.done()
        spec = board.hexes.get(city.hex)
        if spec is None or spec.kind not in ("city", "large_city") or spec.name != city.name:
            with c.at("hex"):
                raise c.error(f"{city.hex} is not the hex of {city.name} on the board")
        return city

    with ctx.at("cities"):
        return tuple(_items(ctx, top["cities"], read))


def _area(ctx: _Ctx, raw: Any) -> Area:
    o = _Obj(ctx, raw)
    rows = o.opt("rows", list)
    cols = o.opt("cols", list)
    o.done()
    if rows is not None and (len(rows) != 2 or any(r not in ROWS for r in rows)):
        raise ctx.error("rows: expected [first, last] row letters B..V")
    if cols is not None and (len(cols) != 2 or any(not _is(x, int) for x in cols)):
        raise ctx.error("cols: expected [first, last] column numbers")
    return Area(
        rows=(rows[0], rows[1]) if rows else None, cols=(cols[0], cols[1]) if cols else None
    )


def _company(ctx: _Ctx, raw: Any, board: Board, catalogue: dict[str, TileSpec]) -> CompanySpec:
    o = _Obj(ctx, raw)
    homes: list[HomeBase] = []
    with ctx.at("homes"):
        for i, h in enumerate(o.req("homes", list)):
            with ctx.at(i):
                homes.append(_home(ctx, h, board, catalogue))
    with ctx.at("area"):
        area = _area(ctx, o.req("area", dict))
    company = CompanySpec(
        number=o.req("number", int),
        initials=o.req("initials", str),
        name=o.req("name", str),
        homes=tuple(homes),
        area=area,
        par=o.req("par", int),
        base_tokens=o.req("base_tokens", int),
        colour=o.req("colour", str),
        text_colour=o.req("text_colour", str),
        type=o.choice("type", COMPANY_TYPES),
    )
    o.done()
    return company


def _home(ctx: _Ctx, raw: Any, board: Board, catalogue: dict[str, TileSpec]) -> HomeBase:
    o = _Obj(ctx, raw)
    home = HomeBase(
        hex=o.req("hex", str),
        station=o.opt("station", str),
        condition=o.opt("condition", str),
        variant=o.opt("variant", str),
    )
    o.done()
    spec = board.hexes.get(home.hex)
    if spec is None or spec.kind not in ("city", "large_city"):
        raise ctx.error(f"hex: {home.hex} is not a city on the board")
    if spec.preprinted is not None:
        tile = catalogue[spec.preprinted]
        if home.station is None or home.station not in {s.id for s in tile.stations}:
            raise ctx.error(f"station: {home.station!r} is not a station of {tile.id}")
    elif home.station is not None:
        raise ctx.error("station: only a preprinted large city names a home station")
    return home


def _companies(
    directory: Path, edition: str, board: Board, catalogue: dict[str, TileSpec]
) -> tuple[CompanySpec, ...]:
    ctx, top = _top(directory, f"{edition}/companies.json", {"companies": list})
    with ctx.at("companies"):
        companies = tuple(
            _items(ctx, top["companies"], lambda c, r: _company(c, r, board, catalogue))
        )
    if [c.number for c in companies] != list(range(1, len(companies) + 1)):
        raise ctx.error("companies: expected numbers 1, 2, ... in TABLE 1 order")
    if len({c.initials for c in companies}) != len(companies):
        raise ctx.error("companies: duplicate initials")
    return companies


# ---------------------------------------------------------------------------------------------
# Manifest and promotions
# ---------------------------------------------------------------------------------------------


def _tiles_file(
    directory: Path, edition: str, catalogue: dict[str, TileSpec]
) -> tuple[dict[str, int], dict[str, tuple[str, ...]]]:
    ctx, top = _top(directory, f"{edition}/tiles.json", {"manifest": dict, "promotions": dict})
    manifest: dict[str, int] = {}
    with ctx.at("manifest"):
        for tile_id, count in top["manifest"].items():
            with ctx.at(tile_id):
                if tile_id not in catalogue:
                    raise ctx.error(f"unknown tile {tile_id!r}")
                if not _is(count, int) or count < 1:
                    raise ctx.error(f"expected a positive count, got {json.dumps(count)}")
                manifest[tile_id] = count
    promotions: dict[str, tuple[str, ...]] = {}
    with ctx.at("promotions"):
        for tile_id, targets in top["promotions"].items():
            with ctx.at(tile_id):
                if tile_id not in manifest and not (
                    tile_id in catalogue and catalogue[tile_id].preprinted
                ):
                    raise ctx.error(f"unknown tile {tile_id!r}: not in the manifest")
                if not isinstance(targets, list):
                    raise ctx.error("expected a list of tile ids")
                for t in targets:
                    if t not in manifest:
                        raise ctx.error(f"unknown tile {t!r}: not in the manifest")
                promotions[tile_id] = tuple(targets)
    return manifest, promotions


# ---------------------------------------------------------------------------------------------
# Trains, phases, market
# ---------------------------------------------------------------------------------------------


def _train(ctx: _Ctx, raw: Any) -> TrainSpec:
    o = _Obj(ctx, raw)
    train = TrainSpec(
        name=o.req("name", str),
        gauge=o.choice("gauge", ("broad", "metre")),
        large_stations=o.req("large_stations", int),
        price=o.req("price", int),
        count=o.req("count", int),
        extra_count=o.opt("extra_count", int, 0),
        buyers=o.choice("buyers", ("any", "minor"), optional=True) or "any",
        min_small_stations=o.opt("min_small_stations", int, 0),
        large_station_needs_base=o.opt("large_station_needs_base", bool, False),
    )
    o.done()
    return train


def _dual_option(ctx: _Ctx, raw: Any, names: set[str]) -> DualOption:
    o = _Obj(ctx, raw)
    trains = _strs(ctx, o.req("trains", list), "trains")
    if len(trains) != 2 or any(t not in names for t in trains):
        with ctx.at("trains"):
            raise ctx.error("expected two train names of this edition")
    opt = DualOption(
        card=o.req("card", str),
        trains=(trains[0], trains[1]),
        count=o.req("count", int),
        second_buyers=o.choice("second_buyers", ("any", "minor")),
        condition=o.req("condition", str),
        before_next_type=o.req("before_next_type", bool),
        first_or_unlimited=o.req("first_or_unlimited", bool),
        rule=o.req("rule", str),
    )
    o.done()
    return opt


def _phase(ctx: _Ctx, raw: Any, names: set[str]) -> PhaseSpec:
    o = _Obj(ctx, raw)
    available = _strs(ctx, o.req("trains_available", list), "trains_available")
    obsolete = _strs(ctx, o.req("trains_obsolete", list), "trains_obsolete")
    tiles = _strs(ctx, o.req("tiles", list), "tiles")
    for key, values, allowed in (
        ("trains_available", available, names),
        ("trains_obsolete", obsolete, names),
        ("tiles", tiles, set(COLOURS)),
    ):
        for v in values:
            if v not in allowed:
                with ctx.at(key):
                    raise ctx.error(f"unknown {'colour' if key == 'tiles' else 'train'} {v!r}")
    phase = PhaseSpec(
        number=o.req("number", int),
        introduced_by=o.choice("introduced_by", ("game_start", "first_stock_round", "first_train")),
        train=o.opt("train", str),
        trains_available=available,
        trains_obsolete=obsolete,
        tiles=cast(Any, tiles),
        train_limit=o.opt("train_limit", int),
        ors_per_set=o.opt("ors_per_set", int),
        areas_relaxed=o.opt("areas_relaxed", bool, False),
        note=o.opt("note", str),
    )
    o.done()
    if (phase.introduced_by == "first_train") != (phase.train in names):
        raise ctx.error("train: a phase introduced by a train names that train, and only then")
    return phase


def _trains(directory: Path, edition: str) -> tuple[Trains, tuple[PhaseSpec, ...]]:
    ctx, top = _top(
        directory,
        f"{edition}/trains.json",
        {
            "trains": list,
            "extra_condition": (str, type(None)),
            "dual_options": list,
            "phases": list,
        },
    )
    with ctx.at("trains"):
        types = tuple(_items(ctx, top["trains"], _train))
    names = {t.name for t in types}
    if len(names) != len(types):
        raise ctx.error("trains: duplicate train name")
    with ctx.at("dual_options"):
        duals = tuple(_items(ctx, top["dual_options"], lambda c, r: _dual_option(c, r, names)))
    extra = top["extra_condition"]
    with ctx.at("phases"):
        phases = tuple(_items(ctx, top["phases"], lambda c, r: _phase(c, r, names)))
    if [p.number for p in phases] != list(range(1, len(phases) + 1)):
        raise ctx.error("phases: expected numbers 1, 2, ... in order")
    return Trains(types=types, dual_options=duals, extra_condition=extra), phases


def _movement(ctx: _Ctx, raw: Any) -> Movement:
    o = _Obj(ctx, raw)
    steps = []
    with ctx.at("dividend_steps"):
        for i, pair in enumerate(o.req("dividend_steps", list)):
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or not _is(pair[0], (int, float))
                or not _is(pair[1], int)
            ):
                with ctx.at(i):
                    raise ctx.error("expected [multiple of the share price, steps]")
            steps.append((float(pair[0]), int(pair[1])))
    movement = Movement(
        rule=o.req("rule", str),
        no_dividend_with_pool_shares=o.req("no_dividend_with_pool_shares", int),
        no_dividend_without_pool_shares=o.req("no_dividend_without_pool_shares", int),
        dividend_steps=tuple(steps),
    )
    o.done()
    return movement


def _market(directory: Path, edition: str) -> Market:
    ctx, top = _top(
        directory,
        f"{edition}/market.json",
        {"values": list, "movement": dict, "alternative_movement": (dict, type(None))},
    )
    values = top["values"]
    if not all(_is(v, int) for v in values):
        raise ctx.error("values: expected a list of integers")
    if values != sorted(set(values)):
        raise ctx.error("values: expected strictly increasing prices")
    with ctx.at("movement"):
        movement = _movement(ctx, top["movement"])
    alt = top["alternative_movement"]
    with ctx.at("alternative_movement"):
        alternative = _movement(ctx, alt) if alt is not None else None
    return Market(values=tuple(values), movement=movement, alternative_movement=alternative)


# ---------------------------------------------------------------------------------------------
# Costs, tables, rule values
# ---------------------------------------------------------------------------------------------


def _costs(ctx: _Ctx, raw: Any, board: Board, company_initials: set[str]) -> Costs:
    o = _Obj(ctx, raw)
    terrain: dict[Any, TerrainCost] = {}
    with ctx.at("terrain"):
        table = o.req("terrain", dict)
        if set(table) != set(TERRAINS):
            raise ctx.error(f"expected exactly the terrains {', '.join(TERRAINS)}")
        for name, cost in table.items():
            with ctx.at(name):
                c = _Obj(ctx, cost)
                terrain[name] = TerrainCost(broad=c.req("broad", int), metre=c.req("metre", int))
                c.done()
    tokens = o.req("base_tokens", list)
    if not tokens or not all(_is(t, int) for t in tokens):
        with ctx.at("base_tokens"):
            raise ctx.error("expected a non-empty list of integers")
    fees = o.req("double_lay_fees", dict)
    with ctx.at("double_lay_fees"):
        for k, v in fees.items():
            if k not in company_initials or not _is(v, int):
                raise ctx.error(f"expected company initials -> integer, got {k!r}")
    specials: list[SpecialCost] = []
    with ctx.at("special"):
        for i, s in enumerate(o.req("special", list)):
            with ctx.at(i):
                so = _Obj(ctx, s)
                sc = SpecialCost(
                    id=so.req("id", str),
                    rule=so.req("rule", str),
                    amount=so.req("amount", int),
                    hex=so.opt("hex", str),
                    company=so.opt("company", str),
                    condition=so.opt("condition", str),
                    note=so.opt("note", str),
                )
                so.done()
                if sc.hex is not None and sc.hex not in board.hexes:
                    raise ctx.error(f"hex: {sc.hex} is not on the board")
                if sc.company is not None and sc.company not in company_initials:
                    raise ctx.error(f"company: unknown company {sc.company!r}")
                specials.append(sc)
    o.done()
    return Costs(
        terrain=terrain,
        base_tokens=tuple(tokens),
        double_lay_fees=dict(fees),
        special=tuple(specials),
    )


def _player_row(ctx: _Ctx, raw: Any) -> PlayerRow:
    o = _Obj(ctx, raw)
    bid = o.opt("bid_cities", list)
    if bid is not None and (len(bid) != 2 or not all(_is(x, int) for x in bid)):
        with ctx.at("bid_cities"):
            raise ctx.error("expected [minimum, maximum]")
    notes_raw = o.opt("starting_notes", dict)
    notes: dict[int, int] | None = None
    if notes_raw is not None:
        notes = {}
        with ctx.at("starting_notes"):
            for k, v in notes_raw.items():
                if not k.isdigit() or not _is(v, int):
                    raise ctx.error(f"expected note value -> count, got {k!r}")
                notes[int(k)] = v
    row = PlayerRow(
        players=o.req("players", int),
        starting_capital=o.req("starting_capital", int),
        share_limit=o.req("share_limit", (int, type(None))),
        certificate_limit=o.req("certificate_limit", int),
        qualifying_shares=o.req("qualifying_shares", int),
        bid_cities=(bid[0], bid[1]) if bid else None,
        minimum_bond=o.opt("minimum_bond", int),
        starting_notes=notes,
        minimum_companies=o.opt("minimum_companies", int),
    )
    o.done()
    if notes is not None and sum(k * v for k, v in notes.items()) != row.starting_capital:
        raise ctx.error("starting_notes: the notes do not add up to starting_capital")
    return row


def _rows(ctx: _Ctx, raw: Any) -> dict[int, PlayerRow]:
    if not isinstance(raw, list):
        raise ctx.error("expected a list of player-count rows")
    rows = {r.players: r for r in _items(ctx, raw, _player_row)}
    if sorted(rows) != [3, 4, 5, 6]:
        raise ctx.error("expected one row each for 3, 4, 5 and 6 players")
    return rows


def _tables(ctx: _Ctx, raw: Any) -> Tables:
    o = _Obj(ctx, raw)
    bank = o.req("bank", int)
    bank_variants = o.req("bank_variants", dict)
    with ctx.at("players"):
        players = _rows(ctx, o.req("players", list))
    variants: dict[str, TableVariant] = {}
    with ctx.at("variants"):
        for i, v in enumerate(o.req("variants", list)):
            with ctx.at(i):
                vo = _Obj(ctx, v)
                vid = vo.req("id", str)
                rule = vo.req("rule", str)
                with ctx.at("players"):
                    rows = _rows(ctx, vo.req("players", list))
                vo.done()
                variants[vid] = TableVariant(id=vid, rule=rule, players=rows)
    o.done()
    return Tables(bank=bank, bank_variants=dict(bank_variants), players=players, variants=variants)


def _rule_params(ctx: _Ctx, raw: Any) -> RuleParams:
    o = _Obj(ctx, raw)
    lays = o.req("tile_lays", dict)
    with ctx.at("tile_lays"):
        if set(lays) != {"major", "minor"} or not all(_is(v, int) for v in lays.values()):
            raise ctx.error('expected {"major": n, "minor": n}')
    params = RuleParams(
        shares_per_company=o.req("shares_per_company", int),
        director_certificate_shares=o.req("director_certificate_shares", int),
        first_stock_round_sale_discount=o.req("first_stock_round_sale_discount", int),
        limit_exempt_max_price=o.req("limit_exempt_max_price", int),
        min_train_transfer_price=o.req("min_train_transfer_price", int),
        route_min_stations=o.req("route_min_stations", int),
        game_end_share_price=o.req("game_end_share_price", int),
        tile_lays=dict(lays),
        double_lay_free_from_phase=o.req("double_lay_free_from_phase", int),
        areas_relaxed_phase=o.req("areas_relaxed_phase", (int, type(None))),
        extra_operating_rounds=o.req("extra_operating_rounds", int),
        minor_special_token=o.req("minor_special_token", bool),
        bid_bond=o.choice("bid_bond", ("at_least", "equal")),
        bid_ganges_limit=o.req("bid_ganges_limit", int),
        bid_ganges_limit_three_cities=o.req("bid_ganges_limit_three_cities", (int, type(None))),
        bid_pass_unaccounted_limit=o.req("bid_pass_unaccounted_limit", (int, type(None))),
        frontier_bonus=o.choice("frontier_bonus", ("first_company", "each_company")),
        bid_ganges_three_cities_also=tuple(o.opt("bid_ganges_three_cities_also", list, [])),
    )
    o.done()
    return params


def _rules_file(
    directory: Path, edition: str, board: Board, companies: tuple[CompanySpec, ...]
) -> tuple[Costs, Tables, RuleParams]:
    ctx, top = _top(
        directory, f"{edition}/rules.json", {"costs": dict, "tables": dict, "rules": dict}
    )
    initials = {c.initials for c in companies}
    with ctx.at("costs"):
        costs = _costs(ctx, top["costs"], board, initials)
    with ctx.at("tables"):
        tables = _tables(ctx, top["tables"])
    with ctx.at("rules"):
        params = _rule_params(ctx, top["rules"])
    return costs, tables, params


# ---------------------------------------------------------------------------------------------
# The "derived" marker: every reconstructed value, by path (docs/data-format.md)
# ---------------------------------------------------------------------------------------------

_SEGMENT = re.compile(r"([^.\[\]]+)?((?:\[[^\[\]]+\])*)$")
_SELECTOR = re.compile(r"\[([^\[\]]+)\]")


def select(raw: Any, path: str) -> list[Any]:
    """The values ``path`` selects in a file's JSON: dotted keys, each optionally followed by
    list selectors ``[3]`` (an index), ``[*]`` (every item) or ``[key=value]`` (the items whose
    field ``key`` reads ``value``), e.g. ``hexes[coord=G19].name`` or ``tiles.716``.
    Raises ValueError for a malformed path."""
    found = [raw]
    for segment in path.split("."):
        m = _SEGMENT.match(segment)
        if not segment or m is None or (m.group(1) is None and not m.group(2)):
            raise ValueError(f"bad segment {segment!r}")
        if m.group(1) is not None:
            found = [v[m.group(1)] for v in found if isinstance(v, dict) and m.group(1) in v]
        for sel in _SELECTOR.findall(m.group(2)):
            if sel != "*" and not sel.isdigit() and "=" not in sel:
                raise ValueError(f"bad selector [{sel}]: expected *, an index or key=value")
            found = [item for v in found if isinstance(v, list) for item in _pick(v, sel)]
    return found


def _pick(items: list[Any], selector: str) -> list[Any]:
    if selector == "*":
        return list(items)
    if selector.isdigit():
        return [items[int(selector)]] if int(selector) < len(items) else []
    key, _, value = selector.partition("=")
    return [item for item in items if isinstance(item, dict) and key in item
            and str(item[key]) == value]


def _derived_values(directory: Path, rel: str) -> tuple[DerivedValue, ...]:
    """The file's ``derived`` marker: each path must select at least one value and give a
    reason.  A catalogue tile of provenance "derived" and a hex carrying a ``note`` (a choice
    between the sources) must be marked too, so that the marker lists every reconstruction."""
    ctx, raw = _read_json(directory, rel)
    marker = raw.get("derived", {}) if isinstance(raw, dict) else {}
    out: list[DerivedValue] = []
    with ctx.at("derived"):
        if not isinstance(marker, dict):
            raise ctx.error("expected an object of path -> reason")
        for path, why in marker.items():
            with ctx.at(path):
                if not isinstance(why, str) or not why.strip():
                    raise ctx.error("expected a reason (a non-empty string)")
                try:
                    selected = select(raw, path)
                except ValueError as exc:
                    raise ctx.error(f"bad path: {exc}") from None
                if path.split(".")[0].split("[")[0] in ("about", "derived") or not selected:
                    raise ctx.error("the path selects no value of this file")
            out.append(DerivedValue(file=rel, path=path, why=why))
        for owner in _unmarked(raw, set(marker)):
            raise ctx.error(f"{owner} is reconstructed but not marked")
    return tuple(out)


def _unmarked(raw: Any, paths: set[str]) -> list[str]:
    """Paths of the tiles of provenance "derived" and the hexes with a note that no marker
    path covers (the path itself or one inside it)."""
    if not isinstance(raw, dict):
        return []
    owners: list[str] = []
    tiles = raw.get("tiles")
    if isinstance(tiles, dict):
        owners += [f"tiles.{tid}" for tid, t in tiles.items()
                   if isinstance(t, dict) and t.get("provenance") == "derived"]
    hexes = raw.get("hexes")
    if isinstance(hexes, list):
        owners += [f"hexes[coord={h.get('coord')}]" for h in hexes
                   if isinstance(h, dict) and h.get("note")]
    return [o for o in owners
            if not any(p == o or p.startswith(o + ".") for p in paths)]


EDITION_FILES: tuple[str, ...] = (
    "board.json", "cities.json", "companies.json", "tiles.json", "trains.json", "market.json",
    "rules.json",
)


def load_derived(directory: Path, edition: str) -> tuple[DerivedValue, ...]:
    """Every marked reconstruction of an edition: the shared catalogue's and its own files'."""
    out = list(_derived_values(directory, "tiles.json"))
    for name in EDITION_FILES:
        out += _derived_values(directory, f"{edition}/{name}")
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Cross-file checks and the entry points
# ---------------------------------------------------------------------------------------------


def _check_edition(ed: Edition) -> None:
    for c in ed.companies:
        if c.par not in ed.market.values:
            raise DataError(
                f"{ed.name}/companies.json: {c.initials}.par: {c.par} is not a stock market value"
            )
    for p in ed.phases:
        if p.number == ed.rules.areas_relaxed_phase and not p.areas_relaxed:
            raise DataError(
                f"{ed.name}/trains.json: phases[{p.number - 1}].areas_relaxed: "
                "disagrees with rules.areas_relaxed_phase"
            )


def load_edition_from(directory: Path, name: str) -> Edition:
    """Load edition ``name`` from a data directory laid out like the package's own."""
    if name not in EDITIONS:
        raise DataError(f"unknown edition {name!r}: expected first or second")
    edition: EditionName = name
    catalogue = load_catalogue(directory)
    board = _board(directory, name, catalogue)
    manifest, promotions = _tiles_file(directory, name, catalogue)
    preprinted = [h.preprinted for h in board.hexes.values() if h.preprinted is not None]
    tiles = {tid: catalogue[tid] for tid in (*preprinted, *manifest)}
    companies = _companies(directory, name, board, catalogue)
    cities = _cities(directory, name, board)
    trains, phases = _trains(directory, name)
    market = _market(directory, name)
    costs, tables, params = _rules_file(directory, name, board, companies)
    ed = Edition(
        name=edition,
        board=board,
        tiles=tiles,
        manifest=manifest,
        promotions=promotions,
        companies=companies,
        cities=cities,
        trains=trains,
        phases=phases,
        market=market,
        costs=costs,
        tables=tables,
        rules=params,
        derived=load_derived(directory, name),
    )
    _check_edition(ed)
    return ed


@cache
def load_edition(name: str) -> Edition:
    """The edition ``"first"`` or ``"second"`` from the package's data (cached: treat as frozen)."""
    return load_edition_from(DATA_DIR, name)
