"""Position files: a board and the companies on it, as JSON (see docs/positions.md).

``load_position`` accepts a path or an already parsed dict and returns a :class:`Position`;
every problem is reported as one :class:`PositionError` naming the field, e.g.
``tiles[3].rotation: must be 0..5``.  ``position_to_dict`` writes the same format back.

The format stands above the rules: no rule module imports it.  What a position says to the
rules is read here: a company's trains able to run and its run duties (:func:`runnable_trains`),
its construction context (:func:`context_from_position`); and :func:`game_position` turns a
game into a position (``india1853 export-position``), public information only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from india1853.board.hexes import CoordinateError, parse_coord, side_name
from india1853.board.state import Base, BoardState
from india1853.board.tiles import exits, open_sides
from india1853.data.jsonfile import read_json_file
from india1853.data.loader import load_edition
from india1853.data.model import CompanySpec, Edition, HomeBase, TileSpec
from india1853.errors import India1853Error, InputError
from india1853.rules.construction.context import CompanyContext, Lay
from india1853.rules.construction.lays import STATIONS_FOR_KIND, fits_kind
from india1853.rules.game.board_port import owes_for_credit_train
from india1853.rules.game.game import Game
from india1853.rules.routes import Train


class PositionError(InputError):
    """A position file that cannot be read; the message names the field."""


CompanyKind = Literal["major", "minor"]


@dataclass(frozen=True)
class CompanyEntry:
    """A company's entry in a position file (a game's own company is
    :class:`india1853.rules.game.state.CompanyState`).  Fields the file leaves out take the
    defaults shown in docs/positions.md; ``extra`` keeps any further fields for other tools."""

    company: str
    trains: tuple[str, ...] = ()
    cash: int = 0
    running: bool = True
    type: CompanyKind = "major"
    double_lay: Literal["later", "paid"] | None = None
    owes_credit_train: bool = False
    bases_placed: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Position:
    edition: Edition
    phase: int
    board: BoardState
    companies: Mapping[str, CompanyEntry]
    frontier_paid: frozenset[tuple[str, str]] = frozenset()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def running(self) -> frozenset[str]:
        """The companies running (4.4.7 / 32.6): those listed as running, and every company
        with a base on the board (bases come only with floating, 3.3.2), listed or not."""
        listed = {c.company for c in self.companies.values() if c.running}
        return frozenset(listed | {b.company for b in self.board.bases})

    def company(self, key: str) -> CompanyEntry:
        initials = self.edition.company(key).initials
        if initials not in self.companies:
            raise PositionError(f"companies: {initials} is not in this position")
        return self.companies[initials]


_TOP_FIELDS = {"edition", "phase", "tiles", "bases", "companies", "frontier_paid"}
_COMPANY_FIELDS = {"company", "trains", "cash", "running", "type", "double_lay",
                   "owes_credit_train", "bases_placed"}


def load_position(source: str | Path | Mapping[str, Any]) -> Position:
    """Read a position file (path) or dict; PositionError names the first bad field."""
    data = _read(source) if isinstance(source, str | Path) else source
    if not isinstance(data, Mapping):
        raise PositionError("position: expected a JSON object")
    if "actions" in data and "settings" in data:
        name = f"position file {str(source)!r}" if isinstance(source, str | Path) else "position"
        raise PositionError(f"{name}: this is a game log (settings and actions), not a "
                            "position file (docs/positions.md); for a game's routes use "
                            "india1853 render LOG --routes COMPANY")
    edition = _edition(data)
    phase = _phase(data, edition)
    board = _tiles(data.get("tiles", []), BoardState.initial(edition))
    board = _bases(data.get("bases", []), board)
    companies = _companies(data.get("companies", []), edition, board)
    paid = _frontier_paid(data.get("frontier_paid", []), edition)
    extra = {k: v for k, v in data.items() if k not in _TOP_FIELDS}
    return Position(edition, phase, board, companies, paid, extra)


def _read(path: str | Path) -> Any:
    try:
        return read_json_file(path, f"position file {str(path)!r}")
    except InputError as exc:
        raise PositionError(str(exc)) from None


def _edition(data: Mapping[str, Any]) -> Edition:
    name = data.get("edition")
    if not isinstance(name, str):
        raise PositionError("edition: expected \"first\" or \"second\"")
    try:
        return load_edition(name)
    except India1853Error as exc:
        raise PositionError(f"edition: {exc}") from None


def _phase(data: Mapping[str, Any], edition: Edition) -> int:
    phase = data.get("phase")
    numbers = [p.number for p in edition.phases]
    if not isinstance(phase, int) or isinstance(phase, bool) or phase not in numbers:
        raise PositionError(f"phase: expected one of {numbers} for the {edition.name} edition, "
                            f"got {phase!r}")
    return phase


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"{name}: expected a list")
    return value


def _obj(value: Any, name: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise PositionError(f"{name}: expected an object")
    return value


def parse_hex(value: Any, name: str, edition: Edition) -> str:
    """A playable hex of ``edition``, written ``J28`` or as the rulebook's ``Jab``; errors name
    the field ``name``."""
    if not isinstance(value, str):
        raise PositionError(f"{name}: expected a hex such as \"J28\"")
    try:
        coord = parse_coord(value)
    except CoordinateError as exc:
        raise PositionError(f"{name}: {exc}") from None
    if not edition.board.playable(coord):
        raise PositionError(f"{name}: {coord} is not a playable hex of the {edition.name} board")
    return coord


def _int(value: Any, name: str, low: int, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"{name}: expected a whole number, got {value!r}")
    if value < low or (high is not None and value > high):
        limit = f"{low}..{high}" if high is not None else f"at least {low}"
        raise PositionError(f"{name}: must be {limit}")
    return value


def _tiles(raw: Any, board: BoardState) -> BoardState:
    edition = board.edition
    seen: set[str] = set()
    fits: dict[tuple[str, str | None], frozenset[str]] = {}  # per kind of hex, for this file
    for i, item in enumerate(_list(raw, "tiles")):
        where = f"tiles[{i}]"
        entry = _obj(item, where)
        coord = parse_hex(entry.get("hex"), f"{where}.hex", edition)
        if coord in seen:
            raise PositionError(f"{where}.hex: {coord} is listed twice")
        seen.add(coord)
        tile = entry.get("tile")
        if isinstance(tile, int) and not isinstance(tile, bool):
            tile = str(tile)
        if not isinstance(tile, str) or tile not in edition.tiles:
            raise PositionError(f"{where}.tile: {tile!r} is not a tile of the {edition.name} "
                                "edition")
        if edition.tiles[tile].preprinted:
            raise PositionError(f"{where}.tile: {tile} is preprinted; leave it out")
        rotation = _int(entry.get("rotation"), f"{where}.rotation", 0, 5)
        _check_kind(edition, coord, tile, f"{where}.tile", fits)
        if not _stays_on_grid(edition, edition.tiles[tile], rotation, coord):
            raise PositionError(f"{where}.rotation: tile {tile} at rotation {rotation} on {coord} "
                                "runs off the grid into the sea or the grey margin "
                                "(rule 4.1.10 / 31.8)")
        try:
            board = board.with_tile(coord, tile, rotation)
        except India1853Error as exc:
            raise PositionError(f"{where}: {exc}") from None
        if board.supply()[tile] < 0:
            raise PositionError(f"{where}.tile: more tiles {tile} than the manifest's "
                                f"{edition.manifest[tile]}")
    return board


def _stays_on_grid(edition: Edition, tile: TileSpec, rotation: int, coord: str) -> bool:
    """Rule 4.1.10 / 31.8 for one rotation (``tiles.fitting_rotations`` tries all six): every
    track end leads to a playable hex or off the board at a buff edge."""
    return exits(tile, rotation) <= open_sides(edition.board, coord)


def _check_kind(
    edition: Edition, coord: str, tile: str, name: str,
    fits: dict[tuple[str, str | None], frozenset[str]],
) -> None:
    """Rules 4.1.9 / 31.7 with 4.2.5, 4.2.12 / 31.15, 31.22: a tile fits its hex when it is a
    yellow tile of the hex's kind or follows from one (or from the preprinted city) on the
    edition's promotion chart; a town may so carry a large station, a yellow tile never.
    ``fits`` remembers the answer per kind of hex."""
    spec = edition.board.hexes[coord]
    key = (spec.kind, spec.preprinted)
    if key not in fits:
        fits[key] = _tiles_for_hex(edition, spec.kind, spec.preprinted)
    if tile not in fits[key]:
        raise PositionError(f"{name}: tile {tile} does not fit {coord}, a {spec.kind} hex "
                            "(rule 4.1.9 / 31.7)")


def _tiles_for_hex(edition: Edition, kind: str, preprinted: str | None) -> frozenset[str]:
    """Every tile that can lie on a hex of ``kind``: its yellow tiles (or its preprinted
    tile) and all they promote to on the chart."""
    if preprinted is not None:
        start = [preprinted]
    elif kind not in STATIONS_FOR_KIND:
        return frozenset()
    else:  # the yellow tiles of the kind (4.1.9 / 31.7: construction's one answer)
        start = [t.id for t in edition.tiles.values() if t.colour == "yellow"
                 and not t.preprinted and fits_kind(kind, t)]
    found: set[str] = set()
    todo = list(start)
    while todo:
        tile = todo.pop()
        if tile in found:
            continue
        found.add(tile)
        todo.extend(edition.promotions.get(tile, ()))
    return frozenset(found)


def _bases(raw: Any, board: BoardState) -> BoardState:
    edition = board.edition
    for i, item in enumerate(_list(raw, "bases")):
        where = f"bases[{i}]"
        entry = _obj(item, where)
        spec = _company_spec(edition, entry.get("company"), f"{where}.company")
        coord = parse_hex(entry.get("hex"), f"{where}.hex", edition)
        station = _station(board, spec, coord, entry.get("station"), where)
        if board.bases_at(coord) and any(b.company == spec.initials
                                         for b in board.bases_at(coord)):
            raise PositionError(f"{where}: {spec.initials} already has a base on {coord} "
                                "(rule 4.4.5 / 32.4)")
        if station is not None:
            found = board.tile_at(coord)
            assert found is not None
            slots = found[0].station(station).slots
            if len(board.bases_at(coord, station)) >= slots:
                raise PositionError(f"{where}: station {station} on {coord} has no free slot")
        if len(board.company_bases(spec.initials)) >= spec.base_tokens:
            raise PositionError(f"{where}.company: {spec.initials} has only {spec.base_tokens} "
                                "base tokens (TABLE 7)")
        board = board.with_base(Base(spec.initials, coord, station))
    return board


def _company_spec(edition: Edition, key: Any, name: str) -> CompanySpec:
    if not isinstance(key, str | int) or isinstance(key, bool):
        raise PositionError(f"{name}: expected company initials such as \"EIR\"")
    try:
        return edition.company(key)
    except India1853Error as exc:
        raise PositionError(f"{name}: {exc}") from None


def _station(
    board: BoardState, spec: CompanySpec, coord: str, side: Any, where: str
) -> str | None:
    found = board.tile_at(coord)
    if found is None:
        if any(h.hex == coord for h in spec.homes):
            return None
        raise PositionError(f"{where}.hex: {coord} has no tile and is not a home of "
                            f"{spec.initials}")
    tile = found[0]
    large = [s.id for s in tile.stations if s.kind == "large"]
    if side is None:
        if len(large) == 1:
            return large[0]
        raise PositionError(f"{where}.station: {coord} has {len(large)} large stations; name "
                            "one by the side its track reaches, e.g. \"NW\"")
    if not isinstance(side, str | int) or isinstance(side, bool):
        raise PositionError(f"{where}.station: expected a side such as \"NW\"")
    try:
        station = board.station_by_side(coord, side)
    except India1853Error as exc:
        raise PositionError(f"{where}.station: {exc}") from None
    if station not in large:
        raise PositionError(f"{where}.station: bases go on large stations only (4.4.5 / 32.4)")
    return station


def _companies(raw: Any, edition: Edition, board: BoardState) -> dict[str, CompanyEntry]:
    out: dict[str, CompanyEntry] = {}
    for i, item in enumerate(_list(raw, "companies")):
        where = f"companies[{i}]"
        entry = _obj(item, where)
        spec = _company_spec(edition, entry.get("company"), f"{where}.company")
        if spec.initials in out:
            raise PositionError(f"{where}.company: {spec.initials} is listed twice")
        trains = _list(entry.get("trains", []), f"{where}.trains")
        names = {t.name for t in edition.trains}
        for j, t in enumerate(trains):
            if not isinstance(t, str) or t not in names:
                raise PositionError(f"{where}.trains[{j}]: {t!r} is not a train of the "
                                    f"{edition.name} edition")
        kind = entry.get("type", _default_type(board, spec))
        if kind not in ("major", "minor") or (spec.type != "either" and kind != spec.type):
            allowed = "major or minor" if spec.type == "either" else spec.type
            raise PositionError(f"{where}.type: {spec.initials} is {allowed}, got {kind!r}")
        double = entry.get("double_lay")
        if double not in (None, "later", "paid"):
            raise PositionError(f"{where}.double_lay: expected \"later\", \"paid\" or null")
        extra_bases = sum(1 for b in board.company_bases(spec.initials)
                          if not _on_home(board, b, spec, kind))
        running = _bool(entry.get("running", True), f"{where}.running")
        if not running and board.company_bases(spec.initials):
            raise PositionError(f"{where}.running: {spec.initials} has bases on the board, so it "
                                "is running (3.3.2, 4.4.7 / 32.6)")
        out[spec.initials] = CompanyEntry(
            company=spec.initials,
            trains=tuple(trains),
            cash=_int(entry.get("cash", 0), f"{where}.cash", 0),
            running=running,
            type=kind,
            double_lay=double,
            owes_credit_train=_bool(entry.get("owes_credit_train", False),
                                    f"{where}.owes_credit_train"),
            bases_placed=_int(entry.get("bases_placed", extra_bases), f"{where}.bases_placed", 0),
            extra={k: v for k, v in entry.items() if k not in _COMPANY_FIELDS},
        )
    return out


def _default_type(board: BoardState, spec: CompanySpec) -> CompanyKind:
    """TABLE 1 and 2.6.2: a company that may be either (the BBCI) is a major when it has a
    base on its conditional home's station (north Bombay), else a minor."""
    if spec.type != "either":
        return "minor" if spec.type == "minor" else "major"
    conditional = [h for h in spec.homes if h.condition is not None]
    return "major" if any(_is_home(board, b, h) for b in board.company_bases(spec.initials)
                          for h in conditional) else "minor"


def _on_home(board: BoardState, base: Base, spec: CompanySpec, kind: CompanyKind) -> bool:
    """Whether ``base`` is one of the free TABLE 1 home bases (4.4.4 / 32.3): an unconditional
    home, or the BBCI major's north Bombay (2.6.2); anything else is an additional base."""
    return any(_is_home(board, base, h) for h in spec.homes
               if h.condition is None or (h.condition == "bbci_major" and kind == "major"))


def _is_home(board: BoardState, base: Base, home: HomeBase) -> bool:
    """The base stands on this home: on its hex and, where the home names a station of a
    large city (3.3.2), on that very station as the city's tiles now show it."""
    if base.hex != home.hex:
        return False
    station = board.home_station(home)
    return station is None or base.station == station


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(f"{name}: expected true or false")
    return value


def _frontier_paid(raw: Any, edition: Edition) -> frozenset[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    for i, item in enumerate(_list(raw, "frontier_paid")):
        where = f"frontier_paid[{i}]"
        entry = _obj(item, where)
        coord = parse_hex(entry.get("hex"), f"{where}.hex", edition)
        if edition.board.hexes[coord].frontier_post is None:
            raise PositionError(f"{where}.hex: {coord} has no frontier post")
        spec = _company_spec(edition, entry.get("company"), f"{where}.company")
        out.add((coord, spec.initials))
    return frozenset(out)


def position_to_dict(position: Position) -> dict[str, Any]:
    """The position in the file format (bases name their station by side where needed)."""
    board = position.board
    tiles = [
        {"hex": h, "tile": p.tile, "rotation": p.rotation}
        for h, p in board.tiles.items()
        if not board.edition.tiles[p.tile].preprinted
    ]
    bases: list[dict[str, Any]] = []
    for b in board.bases:
        entry: dict[str, Any] = {"company": b.company, "hex": b.hex}
        found = board.tile_at(b.hex)
        if b.station is not None and found is not None:
            large = [s for s in found[0].stations if s.kind == "large"]
            if len(large) > 1:
                entry["station"] = _side_of_station(board, b.hex, b.station)
        bases.append(entry)
    companies = [
        {
            "company": c.company, "trains": list(c.trains), "cash": c.cash,
            "running": c.running, "type": c.type, "double_lay": c.double_lay,
            "owes_credit_train": c.owes_credit_train, "bases_placed": c.bases_placed,
            **dict(c.extra),
        }
        for c in position.companies.values()
    ]
    out: dict[str, Any] = {
        "edition": position.edition.name, "phase": position.phase, "tiles": tiles,
        "bases": bases, "companies": companies,
    }
    if position.frontier_paid:
        out["frontier_paid"] = [{"hex": h, "company": c} for h, c in sorted(position.frontier_paid)]
    out.update(position.extra)
    return out


def _side_of_station(board: BoardState, hex: str, station: str) -> str:
    for side in range(6):
        try:
            if board.station_by_side(hex, side) == station:
                return side_name(side)
        except India1853Error:
            continue
    raise PositionError(f"bases: station {station} on {hex} reaches no side")


# ---------------------------------------------------------------------------------------------
# What a position says about a company's run.

# CompanyEntry.extra keys read here (documented in docs/routes.md).
BOUGHT_THIS_TURN = "trains_bought_this_turn"
RUN_DUTIES = "run_duties"


def runnable_trains(position: Position, company: str) -> tuple[str, list[Train], list[str]]:
    """The company's initials, its trains able to run this turn and its duty hexes.

    4.5.1 / 33.1: a train bought this turn does not run (``trains_bought_this_turn`` in the
    company entry lists them).  4.2.3 / 4.4.2: ``run_duties`` lists hexes that must be on a run.
    """
    state = position.company(company)
    owned = Counter(state.trains)
    bought = state.extra.get(BOUGHT_THIS_TURN, [])
    if not isinstance(bought, list):
        raise InputError(f"companies.{state.company}.{BOUGHT_THIS_TURN}: expected a list")
    for name in bought:
        if owned[name] <= 0:
            raise InputError(f"companies.{state.company}.{BOUGHT_THIS_TURN}: {name!r} is not "
                             "among its trains")
        owned[name] -= 1
    trains = [Train.named(position.edition, n) for n in sorted(owned) for _ in range(owned[n])]
    duties_raw = state.extra.get(RUN_DUTIES, [])
    if not isinstance(duties_raw, list):
        raise InputError(f"companies.{state.company}.{RUN_DUTIES}: expected a list of hexes")
    duties: list[str] = []
    for k, raw in enumerate(duties_raw):
        try:
            duties.append(parse_coord(str(raw)))
        except InputError as exc:
            raise InputError(f"companies.{state.company}.{RUN_DUTIES}[{k}]: {exc}") from None
    return state.company, trains, duties


# ---------------------------------------------------------------------------------------------
# A position as the rules see it: a company's construction context.


def context_from_position(
    position: Position, company: str, *, lays_done: tuple[Lay, ...] = (), promoted: bool = False
) -> CompanyContext:
    """The context of ``company`` in a position file: the running companies are those listed
    as running and every company with a base on the board (:meth:`Position.running`,
    4.4.7 / 32.6)."""
    state = position.company(company)
    return CompanyContext(
        company=state.company,
        type=state.type,
        phase=position.phase,
        cash=state.cash,
        trains=state.trains,
        running=position.running(),
        double_lay=state.double_lay,
        owes_credit_train=state.owes_credit_train,
        lays_done=lays_done,
        promoted=promoted,
        frontier_paid=position.frontier_paid,
        bases_placed=state.bases_placed,
    )


# ---------------------------------------------------------------------------------------------
# A game's position now (``india1853 export-position``): public information only.


DOUBLE_LAY: dict[int, Literal["later", "paid"]] = {1: "later", 2: "paid"}


def game_position(game: Game) -> Position:
    """The position of ``game`` now: its board and its formed companies."""
    st = game.state
    operating = st.turn.order[st.turn.index] if st.round == "operating" else None
    companies: dict[str, CompanyEntry] = {}
    for initials, co in st.companies.items():
        if not co.formed:
            continue
        extra: dict[str, Any] = {}
        if initials == operating and st.turn.duties:
            extra["run_duties"] = list(st.turn.duties)
        companies[initials] = CompanyEntry(
            company=initials,
            trains=tuple(t.runs_as for t in st.company_trains(initials)),
            cash=co.cash,
            running=True,
            type="major" if co.kind == "major" else "minor",
            double_lay=DOUBLE_LAY.get(co.lay_option or 0),
            owes_credit_train=owes_for_credit_train(game.rules, co),
            bases_placed=co.extra_bases,
            extra=extra,
        )
    about: dict[str, Any] = {"action": len(game.log), "round": st.round, "phase": st.phase}
    if operating is not None:
        about |= {"operating": operating, "step": st.turn.step,
                  "lays_done": [{"hex": h, "tile": t, "rotation": r}
                                for h, t, r in st.turn.lays_done],
                  "promoted": st.turn.promoted}
    return Position(game.rules.ed, st.phase, st.board, companies,
                    frozenset((h, c) for h, c in st.frontier_paid), {"game": about})
