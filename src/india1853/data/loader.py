"""Load an edition's JSON files into the typed model, rejecting anything malformed.

Files (see docs/data-format.md): the shared tile catalogue ``tiles.json`` and, per edition
directory, ``board.json``, ``cities.json``, ``companies.json``, ``tiles.json`` (manifest and
promotions), ``trains.json`` (trains and phases), ``market.json`` and ``rules.json`` (costs,
tables, rule values).  The records are read by the generic reader (:mod:`.reader`) from the
model's dataclasses; this module says only where a file's JSON differs from the model and
what the types cannot (references between files, sums).  Every error names the file and the
field, e.g. ``second/board.json: hexes[12].kind: expected one of plain, town, ...``.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any, get_args

from india1853.data.model import (
    EDITIONS,
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
    PathSpec,
    PhaseSpec,
    PlayerRow,
    RuleParams,
    SpecialCost,
    StationSpec,
    Tables,
    TableVariant,
    Terrain,
    TerrainCost,
    TileSpec,
    Trains,
    TrainSpec,
)
from india1853.data.reader import Ctx, Reader, is_a, type_name
from india1853.errors import DataError

__all__ = ["DATA_DIR", "EDITIONS", "load_catalogue", "load_derived", "load_edition",
           "load_edition_from", "select"]

DATA_DIR = Path(__file__).resolve().parent
ROWS = "BCDEFGHIJKLMNOPQRSTUV"
# Side names in side-number order (0 SW .. 5 SE), as in board.hexes.SIDE_NAMES.
SIDE_NAMES = ("SW", "W", "NW", "NE", "E", "SE")


def _read_json(directory: Path, rel: str) -> tuple[Ctx, Any]:
    path = directory / rel
    ctx = Ctx(rel)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{rel}: cannot read file ({exc.strerror})") from None
    try:
        return ctx, json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{rel}: invalid JSON at line {exc.lineno}: {exc.msg}") from None


def _top(directory: Path, rel: str, keys: dict[str, type | tuple[type, ...]] | None = None
         ) -> tuple[Ctx, dict[str, Any]]:
    """Read a file whose top level holds exactly ``keys`` (None: a record read by the caller)
    plus an optional ``about`` text and the ``derived`` marker (:func:`_derived_values`)."""
    ctx, raw = _read_json(directory, rel)
    if not isinstance(raw, dict):
        raise ctx.error("expected an object")
    if not is_a(raw.get("about", ""), str):
        with ctx.at("about"):
            raise ctx.error(f"expected a string, got {json.dumps(raw['about'])}")
    if keys is None:
        return ctx, raw
    for key, t in keys.items():
        if key not in raw:
            raise ctx.error(f"missing field {key!r}")
        if not is_a(raw[key], t):
            with ctx.at(key):
                raise ctx.error(f"expected {type_name(t)}, got {json.dumps(raw[key])}")
    extra = sorted(set(raw) - set(keys) - {"about", "derived"})
    if extra:
        raise ctx.error(f"unknown field {extra[0]!r}")
    return ctx, raw



# ---------------------------------------------------------------------------------------------
# Tiles
# ---------------------------------------------------------------------------------------------


def _check_coord(ctx: Ctx, value: str) -> None:
    if len(value) < 2 or value[0] not in ROWS or not value[1:].isdigit():
        raise ctx.error(f"bad hex {value!r}: expected a row letter B..V and a column, e.g. J28")
    col = int(value[1:])
    if not 1 <= col <= 36 or (ROWS.index(value[0]) + col) % 2 != 0:
        raise ctx.error(f"bad hex {value!r}: not a hex of the 1853 grid")


def _path(reader: Reader, raw: Any) -> PathSpec:
    """A piece of track, ``[a, b, gauge]``; a station end is checked by :func:`_check_tile`."""
    ctx = reader.ctx
    if not isinstance(raw, list) or len(raw) != 3:
        raise ctx.error("expected [a, b, gauge]")
    a, b, gauge = raw
    for end in (a, b):
        if isinstance(end, bool) or not (
            (isinstance(end, int) and 0 <= end <= 5) or isinstance(end, str)
        ):
            raise ctx.error(f"bad path end {json.dumps(end)}: expected a side 0..5 or a station id")
    if gauge not in GAUGES:
        raise ctx.error(f"bad gauge {json.dumps(gauge)}: expected one of {', '.join(GAUGES)}")
    return PathSpec(a=a, b=b, gauge=gauge)


def _check_station(ctx: Ctx, st: StationSpec) -> None:
    if st.kind == "small" and st.slots != 0:
        raise ctx.error("a small station holds no bases: slots must be 0")


def _check_tile(ctx: Ctx, tile: TileSpec) -> None:
    ids = {s.id for s in tile.stations}
    if len(ids) != len(tile.stations):
        raise ctx.error("duplicate station id")
    for i, path in enumerate(tile.paths):
        for end in (path.a, path.b):
            if isinstance(end, str) and end not in ids:
                with ctx.at("paths"), ctx.at(i):
                    raise ctx.error(f"bad path end {json.dumps(end)}: expected a side 0..5 or "
                                    "a station id")


def load_catalogue(directory: Path = DATA_DIR) -> dict[str, TileSpec]:
    """The shared tile catalogue of both editions, including the preprinted large cities."""
    ctx, top = _top(directory, "tiles.json", {"tiles": dict})
    reader = Reader(ctx, forms={PathSpec: _path},
                    checks={StationSpec: _check_station, TileSpec: _check_tile})
    out: dict[str, TileSpec] = {}
    with ctx.at("tiles"):
        for tile_id, raw in top["tiles"].items():
            with ctx.at(tile_id):
                out[tile_id] = reader.record(raw, TileSpec, id=tile_id)
    return out


# ---------------------------------------------------------------------------------------------
# Board, cities, companies
# ---------------------------------------------------------------------------------------------


def _buff_edges(reader: Reader, raw: Any) -> tuple[int, ...]:
    """A list of side names (``"NW"``) as side numbers, each once."""
    names: tuple[str, ...] = reader.value(raw, tuple[str, ...])
    for name in names:
        if name not in SIDE_NAMES:
            raise reader.ctx.error(f"expected one of {', '.join(SIDE_NAMES)}, got {name!r}")
    if len(set(names)) != len(names):
        raise reader.ctx.error("a side is named twice")
    return tuple(sorted(SIDE_NAMES.index(n) for n in names))


def _check_hex(ctx: Ctx, spec: HexSpec) -> None:
    with ctx.at("coord"):
        _check_coord(ctx, spec.coord)
    if (spec.kind == "offboard") == spec.playable:
        raise ctx.error("playable must be false exactly for offboard hexes")
    if spec.buff_edges and not spec.playable:
        raise ctx.error("buff_edges: an offboard hex has no buff edge")
    if (spec.kind == "large_city") != (spec.preprinted is not None):
        raise ctx.error("a large_city hex, and only one, names its preprinted tile")
    if spec.kind in ("city", "large_city") and not spec.name:
        raise ctx.error(f"a {spec.kind} hex needs a name")


def _board(directory: Path, edition: str, catalogue: dict[str, TileSpec]) -> Board:
    ctx, top = _top(directory, f"{edition}/board.json", {"hexes": list})
    reader = Reader(ctx, forms={(HexSpec, "buff_edges"): _buff_edges},
                    checks={HexSpec: _check_hex})
    hexes: dict[str, HexSpec] = {}
    with ctx.at("hexes"):
        for i, raw in enumerate(top["hexes"]):
            with ctx.at(i):
                spec = reader.record(raw, HexSpec)
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

    def check(c: Ctx, city: CitySpec) -> None:
        for n in city.companies:
            if not 1 <= n <= 8:
                with c.at("companies"):
                    raise c.error(f"expected company numbers 1-8, got {n}")
        spec = board.hexes.get(city.hex)
        if spec is None or spec.kind not in ("city", "large_city") or spec.name != city.name:
            with c.at("hex"):
                raise c.error(f"{city.hex} is not the hex of {city.name} on the board")

    with ctx.at("cities"):
        return tuple(Reader(ctx, checks={CitySpec: check}).items(top["cities"], CitySpec))


def _check_area(ctx: Ctx, area: Area) -> None:
    if area.rows is not None and any(r not in ROWS for r in area.rows):
        raise ctx.error("rows: expected [first, last] row letters B..V")


def _companies(
    directory: Path, edition: str, board: Board, catalogue: dict[str, TileSpec]
) -> tuple[CompanySpec, ...]:
    ctx, top = _top(directory, f"{edition}/companies.json", {"companies": list})

    def check_home(c: Ctx, home: HomeBase) -> None:
        spec = board.hexes.get(home.hex)
        if spec is None or spec.kind not in ("city", "large_city"):
            raise c.error(f"hex: {home.hex} is not a city on the board")
        if spec.preprinted is not None:
            tile = catalogue[spec.preprinted]
            if home.station is None or home.station not in {s.id for s in tile.stations}:
                raise c.error(f"station: {home.station!r} is not a station of {tile.id}")
        elif home.station is not None:
            raise c.error("station: only a preprinted large city names a home station")

    reader = Reader(ctx, checks={HomeBase: check_home, Area: _check_area})
    with ctx.at("companies"):
        companies = tuple(reader.items(top["companies"], CompanySpec))
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
                if not is_a(count, int) or count < 1:
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


def _trains(directory: Path, edition: str) -> tuple[Trains, tuple[PhaseSpec, ...]]:
    ctx, top = _top(
        directory,
        f"{edition}/trains.json",
        {"trains": list, "extra_condition": (str, type(None)), "dual_options": list,
         "phases": list},
    )
    with ctx.at("trains"):
        types = tuple(Reader(ctx).items(top["trains"], TrainSpec))
    names = {t.name for t in types}
    if len(names) != len(types):
        raise ctx.error("trains: duplicate train name")

    def check_dual(c: Ctx, opt: DualOption) -> None:
        if any(t not in names for t in opt.trains):
            with c.at("trains"):
                raise c.error("expected two train names of this edition")

    def check_phase(c: Ctx, phase: PhaseSpec) -> None:
        for key in ("trains_available", "trains_obsolete"):
            for v in getattr(phase, key):
                if v not in names:
                    with c.at(key):
                        raise c.error(f"unknown train {v!r}")
        if (phase.introduced_by == "first_train") != (phase.train in names):
            raise c.error("train: a phase introduced by a train names that train, and only then")

    reader = Reader(ctx, checks={DualOption: check_dual, PhaseSpec: check_phase})
    with ctx.at("dual_options"):
        duals = tuple(reader.items(top["dual_options"], DualOption))
    with ctx.at("phases"):
        phases = tuple(reader.items(top["phases"], PhaseSpec))
    if [p.number for p in phases] != list(range(1, len(phases) + 1)):
        raise ctx.error("phases: expected numbers 1, 2, ... in order")
    return Trains(types=types, dual_options=duals, extra_condition=top["extra_condition"]), phases


def _check_market(ctx: Ctx, market: Market) -> None:
    if list(market.values) != sorted(set(market.values)):
        raise ctx.error("values: expected strictly increasing prices")


def _market(directory: Path, edition: str) -> Market:
    ctx, top = _top(directory, f"{edition}/market.json")
    reader = Reader(ctx, checks={Market: _check_market})
    return reader.record(top, Market, ignore=("about", "derived"))


# ---------------------------------------------------------------------------------------------
# Costs, tables, rule values
# ---------------------------------------------------------------------------------------------

TERRAINS: tuple[Terrain, ...] = get_args(Terrain)


def _terrain_costs(reader: Reader, raw: Any) -> dict[Terrain, TerrainCost]:
    """TABLE 4: a cost for every terrain, and for nothing else."""
    if not isinstance(raw, dict) or set(raw) != set(TERRAINS):
        raise reader.ctx.error(f"expected exactly the terrains {', '.join(TERRAINS)}")
    value: dict[Terrain, TerrainCost] = reader.value(raw, dict[Terrain, TerrainCost])
    return value


def _rows(reader: Reader, raw: Any) -> dict[int, PlayerRow]:
    """TABLE 3 as a list of rows, one per player count."""
    rows = {r.players: r for r in reader.items(raw, PlayerRow)}
    if sorted(rows) != [3, 4, 5, 6]:
        raise reader.ctx.error("expected one row each for 3, 4, 5 and 6 players")
    return rows


def _table_variants(reader: Reader, raw: Any) -> dict[str, TableVariant]:
    return {v.id: v for v in reader.items(raw, TableVariant)}


def _check_row(ctx: Ctx, row: PlayerRow) -> None:
    notes = row.starting_notes
    if notes is not None and sum(k * v for k, v in notes.items()) != row.starting_capital:
        raise ctx.error("starting_notes: the notes do not add up to starting_capital")


def _check_rule_params(ctx: Ctx, params: RuleParams) -> None:
    if set(params.tile_lays) != {"major", "minor"}:
        with ctx.at("tile_lays"):
            raise ctx.error('expected {"major": n, "minor": n}')


def _rules_file(
    directory: Path, edition: str, board: Board, companies: tuple[CompanySpec, ...]
) -> tuple[Costs, Tables, RuleParams]:
    ctx, top = _top(
        directory, f"{edition}/rules.json", {"costs": dict, "tables": dict, "rules": dict}
    )
    initials = {c.initials for c in companies}

    def check_costs(c: Ctx, costs: Costs) -> None:
        if not costs.base_tokens:
            with c.at("base_tokens"):
                raise c.error("expected a non-empty list of integers")
        for k in costs.double_lay_fees:
            if k not in initials:
                with c.at("double_lay_fees"):
                    raise c.error(f"expected company initials -> integer, got {k!r}")

    def check_special(c: Ctx, sc: SpecialCost) -> None:
        if sc.hex is not None and sc.hex not in board.hexes:
            raise c.error(f"hex: {sc.hex} is not on the board")
        if sc.company is not None and sc.company not in initials:
            raise c.error(f"company: unknown company {sc.company!r}")

    reader = Reader(
        ctx,
        forms={(Costs, "terrain"): _terrain_costs, (Tables, "players"): _rows,
               (TableVariant, "players"): _rows, (Tables, "variants"): _table_variants},
        checks={Costs: check_costs, SpecialCost: check_special, PlayerRow: _check_row,
                RuleParams: _check_rule_params},
    )
    costs = reader.item("costs", top["costs"], Costs)
    tables = reader.item("tables", top["tables"], Tables)
    params = reader.item("rules", top["rules"], RuleParams)
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
