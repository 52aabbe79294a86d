"""Laying yellow tiles: rules 4.1.1-4.1.15 (second edition), 31.1-31.11 (first edition)."""

from __future__ import annotations

from india1853.board.graph import USABLE, StationNode, station_node
from india1853.board.state import BoardState
from india1853.board.tiles import fitting_rotations, map_paths
from india1853.data.model import Gauge, HexSpec, TileSpec
from india1853.errors import InputError, RuleError
from india1853.rules.construction.common import (
    Fitter,
    check_payment,
    hex_spec,
    tile_colours,
)
from india1853.rules.construction.context import (
    CompanyContext,
    ConstructionPolicy,
    Lay,
    LegalMove,
)
from india1853.rules.construction.lines import LineGauge, Target
from india1853.rules.construction.network import (
    LayTarget,
    Network,
    disjoint_lines,
    first_lay_has_line,
    lay_target,
)

# Rules 4.1.9 / 31.7: the stations a yellow tile needs on each kind of hex, as (small, large).
STATIONS_FOR_KIND: dict[str, tuple[int, int]] = {
    "plain": (0, 0),
    "town": (1, 0),
    "double_town": (2, 0),
    "city": (0, 1),
}


def station_count(tile: TileSpec) -> tuple[int, int]:
    """The tile's stations, as (small, large)."""
    return (sum(1 for s in tile.stations if s.kind == "small"),
            sum(1 for s in tile.stations if s.kind == "large"))


def fits_kind(kind: str, tile: TileSpec) -> bool:
    """Rules 4.1.9 / 31.7: whether the tile's stations suit a hex of ``kind`` - a yellow tile
    has exactly the stations of its kind (none on open country, one town, two towns on a double
    town, one large station on a city); from green on a town may carry a large station instead
    (4.2.5 / 31.15) and a city more large stations.  The large cities' tiles (4.2.12 / 31.22)
    go by their labels, not by this rule."""
    small, large = station_count(tile)
    if tile.colour == "yellow":
        return STATIONS_FOR_KIND.get(kind) == (small, large)
    return {
        "plain": small == large == 0,
        "town": (small, large) in ((1, 0), (0, 1)),
        "double_town": (small, large) == (2, 0),
        "city": small == 0 and large >= 1,
    }.get(kind, False)


def lays_allowed(policy: ConstructionPolicy, ctx: CompanyContext) -> int:
    """Rules 4.1.2-4.1.3 / 31.2: how many tiles the company may lay this turn.

    Second edition: a major's second lay "depends on the option chosen" in its first operating
    round (4.1.2), so until a choice is recorded it lays one tile, whatever the phase; option
    1 ("later") gives two from ``double_lay_free_from_phase``, option 2 ("paid") at once.
    """
    allowed = policy.tile_lays[ctx.type]
    if allowed < 2 or not policy.double_lay_is_a_choice:
        return allowed
    if ctx.double_lay == "paid":
        return allowed
    if ctx.double_lay == "later" and ctx.phase >= policy.double_lay_free_from_phase:
        return allowed
    return 1


def double_lay_fee(policy: ConstructionPolicy, ctx: CompanyContext) -> int:
    """Rule 4.1.3 option 2: the fee paid each time the company lays its second tile."""
    if ctx.double_lay != "paid":
        return 0
    return policy.double_lay_fees.get(ctx.company, 0)


def tile_gauge(tile: TileSpec) -> Gauge:
    """The gauge TABLE 4 charges: broad if the tile has any broad track, else metre."""
    gauges = {p.gauge for p in tile.paths}
    return "metre" if gauges <= {"metre", "dual"} and "metre" in gauges else "broad"


def lay_cost(state: BoardState, ctx: CompanyContext, policy: ConstructionPolicy, lay: Lay) -> int:
    """TABLE 4 (4.1.12 / 31.10), the BBCI Major's £70 Ajmer (2.6.2, 4.1.13), and the fee of
    option 2 of 4.1.3 on a second lay."""
    spec = state.edition.board.hexes[lay.hex]
    tile = state.edition.tiles[lay.tile]
    cost = state.edition.costs.construction(spec.terrain, tile_gauge(tile))
    for special in state.edition.costs.special:
        if (
            special.id == "ajmer_station"
            and special.hex == lay.hex
            and special.company == ctx.company
            and (special.condition != "bbci_major" or ctx.type == "major")
        ):
            cost = min(cost, special.amount)
    if ctx.lays_done:
        cost += double_lay_fee(policy, ctx)
    return cost


def _home_base_waiting(state: BoardState, company: str, hex: str) -> bool:
    """Rule 4.1.8 / 31.6 as the players' guide reads it: a company may lay a yellow tile on an
    empty city holding its own (home) base without a railhead."""
    return any(b.hex == hex and b.station is None for b in state.company_bases(company))


def _check_turn(policy: ConstructionPolicy, ctx: CompanyContext) -> None:
    if ctx.promoted:
        raise RuleError("4.2.1 / 31.12", f"{ctx.company} promoted a tile this turn: no lays")
    allowed = lays_allowed(policy, ctx)
    if len(ctx.lays_done) >= allowed:
        rule = "4.1.2-4.1.3 / 31.2"
        if allowed == 1 and policy.tile_lays[ctx.type] > 1:
            raise RuleError(rule, f"{ctx.company} chose two lays from Phase "
                                  f"{policy.double_lay_free_from_phase} only (option 1 of 4.1.3)"
                            if ctx.double_lay == "later" else
                            f"{ctx.company} has not chosen how to lay two tiles (4.1.3)")
        raise RuleError(rule, f"{ctx.company} may lay {allowed} tile(s) per turn")


def _check_place(
    state: BoardState, ctx: CompanyContext, lay: Lay, fitted: bool
) -> tuple[HexSpec, TileSpec]:
    spec = hex_spec(state, lay.hex)
    if not spec.playable:
        raise RuleError("4.1.10 / 31.8", f"{spec.coord} is off the playable board")
    if spec.kind == "large_city" or spec.preprinted is not None:
        raise RuleError("4.1.4 / 31.3", f"{spec.coord} is a preprinted large city: promote it")
    if spec.coord in state.tiles:
        raise RuleError("4.1.4 / 31.3", f"{spec.coord} already has a tile: promote it instead")
    if lay.tile not in state.edition.tiles:
        raise InputError(f"tile: {lay.tile!r} is not a tile of the {state.edition.name} edition")
    tile = state.edition.tiles[lay.tile]
    if tile.colour != "yellow":
        raise RuleError("4.1.4 / 31.3", f"tile {tile.id} is {tile.colour}: only yellow tiles "
                                        "are laid, other colours come by promotion")
    if tile.colour not in tile_colours(state, ctx):
        raise RuleError("TABLE 6", f"no {tile.colour} tiles in Phase {ctx.phase}")
    if state.supply().get(tile.id, 0) <= 0:
        raise RuleError("4.2.10 / 31.20", f"no tile {tile.id} left in the supply")
    if not fits_kind(spec.kind, tile):
        raise RuleError("4.1.9 / 31.7", f"tile {tile.id} does not fit a {spec.kind} hex "
                                        f"({spec.coord})")
    if lay.rotation not in range(6):
        raise InputError(f"rotation: must be 0..5, got {lay.rotation!r}")
    if not fitted and lay.rotation not in fitting_rotations(tile, spec.coord, state.edition.board):
        raise RuleError("4.1.10 / 31.8", f"tile {tile.id} at rotation {lay.rotation} on "
                                         f"{spec.coord} runs off the grid")
    return spec, tile


def _extends_railhead(net: Network, hex: str, tile: TileSpec, rotation: int) -> bool:
    """4.1.6 / 31.4 (and 4.1.9 / 31.7: on a two-town tile one line suffices): some track of
    the new tile continues a railhead in the railhead's gauge (or dual)."""
    for path in map_paths(tile, rotation):
        for end in (path.a, path.b):
            if isinstance(end, int):
                for g in net.railhead_gauges(hex, end):
                    if path.gauge in USABLE[g]:
                        return True
    return False


def _home_node(state: BoardState, company: str, hex: str) -> StationNode | None:
    for b in state.company_bases(company):
        if b.hex == hex and b.station is not None:
            return station_node(hex, b.station)
    return None


def _first_lay(state: BoardState, ctx: CompanyContext) -> tuple[Lay, LayTarget, bool]:
    """The turn's first lay (rule 4.1.7 / 31.5), its line's target and whether it is on a hex
    of the company's home base; InputError if ``ctx.lays_done`` is not on the board."""
    done = ctx.lays_done[0]
    first = Lay(hex_spec(state, done.hex).coord, done.tile, done.rotation)
    placed = state.tile_at(first.hex)
    if placed is None or placed[0].id != first.tile:
        raise InputError(f"lays_done: the first lay ({first.tile} on {first.hex}) is not on the "
                         "board given")
    first_home = _home_node(state, ctx.company, first.hex)
    return first, lay_target(first.hex, placed[0], placed[1], first_home), first_home is not None


def _check_second_lay(net: Network, ctx: CompanyContext, lay: Lay, tile: TileSpec) -> None:
    """Rule 4.1.7 / 31.5 for the second lay of the turn (``net`` is after the first lay)."""
    state = net.state
    first, target1, first_home = _first_lay(state, ctx)
    if _home_base_waiting(state, ctx.company, lay.hex):
        # The second lay needs no line; the first needs one from any other base.
        if first_home or first_lay_has_line(net, target1):
            return
    else:
        target2 = lay_target(lay.hex, tile, lay.rotation, None)
        if disjoint_lines(net, target1, target2):
            return
    raise RuleError(
        "4.1.7 / 31.5", f"the lays on {first.hex} and {lay.hex} need lines from two different "
        f"bases of {ctx.company} that share no track"
    )


def check_lay(
    state: BoardState, ctx: CompanyContext, lay: Lay, *, network: Network | None = None
) -> int:
    """Whether ``lay`` is legal for the company now: its cost, or RuleError naming the rule."""
    net = network if network is not None else Network(state, ctx.company)
    return _check(state, ctx, lay, net, ConstructionPolicy.of(state.edition), fitted=False)


def _check(
    state: BoardState,
    ctx: CompanyContext,
    lay: Lay,
    net: Network,
    policy: ConstructionPolicy,
    *,
    fitted: bool,
) -> int:
    """``fitted``: the caller already knows the rotation keeps every track on the grid."""
    _check_turn(policy, ctx)
    spec, tile = _check_place(state, ctx, lay, fitted)
    home = _home_base_waiting(state, ctx.company, spec.coord)
    if not home and not _extends_railhead(net, spec.coord, tile, lay.rotation):
        raise RuleError("4.1.6 / 31.4", f"tile {tile.id} on {spec.coord} at rotation "
                                        f"{lay.rotation} extends no railhead of {ctx.company}")
    if ctx.lays_done:
        _check_second_lay(net, ctx, Lay(spec.coord, lay.tile, lay.rotation), tile)
    cost = lay_cost(state, ctx, policy, Lay(spec.coord, lay.tile, lay.rotation))
    check_payment(ctx, cost, f"tile {tile.id} on {spec.coord}")
    return cost


def apply_lay(state: BoardState, ctx: CompanyContext, lay: Lay) -> tuple[BoardState, int]:
    """Check ``lay`` and return the board after it, with its cost."""
    cost = check_lay(state, ctx, lay)
    return state.with_tile(hex_spec(state, lay.hex).coord, lay.tile, lay.rotation), cost


def legal_lays(
    state: BoardState, ctx: CompanyContext, *, network: Network | None = None
) -> list[LegalMove]:
    """Every legal lay (hex, tile, rotation) with its cost.

    The same answer, in the same order, as :func:`check_lay` asked of every candidate (each
    hex with a railhead or a waiting home base, in order; each yellow tile in the supply;
    each distinct rotation that fits), with what does not depend on the candidate worked
    out once: the hex's own tests (4.1.4, 4.1.8, 4.1.10 / 31.3, 31.6, 31.8), its railheads
    (4.1.6 / 31.4), a tile's cost there (TABLE 4) and the second lay's lines (4.1.7 / 31.5),
    which depend only on where the tile's track meets the hex's edges.
    """
    policy = ConstructionPolicy.of(state.edition)
    try:
        _check_turn(policy, ctx)
    except RuleError:
        return []
    if "yellow" not in tile_colours(state, ctx):
        return []
    net = network if network is not None else Network(state, ctx.company)
    hexes = set(net.railheads())
    hexes |= {b.hex for b in state.company_bases(ctx.company) if b.station is None}
    yellow = [t for tid, t in state.edition.tiles.items()
              if t.colour == "yellow" and state.supply_left(tid) > 0]
    board = state.edition.board
    fitter = Fitter(board)
    second = _SecondLays(net, ctx) if ctx.lays_done else None
    fits: dict[tuple[str, str], bool] = {}
    out: list[LegalMove] = []
    for hex in sorted(hexes):
        if not yellow:
            break
        kind = board.hexes[hex].kind
        spec = hex_spec(state, hex)
        if not _open_for_a_lay(state, spec):
            continue
        hex = spec.coord
        home = _home_base_waiting(state, ctx.company, hex)
        accepts = None if home else _railhead_track_gauges(net, hex)
        costs: dict[str, int | None] = {}
        for tile in yellow:
            key = (kind, tile.id)
            fitting = fits.get(key)
            if fitting is None:
                fitting = fits[key] = fits_kind(kind, tile)
            if not fitting:
                continue
            for rotation in fitter.rotations(tile, hex):
                if accepts is not None and not _meets_railhead(accepts, tile, rotation):
                    continue
                lay = Lay(hex, tile.id, rotation)
                if second is not None and not second.allows(lay, tile, home):
                    continue
                if tile.id not in costs:
                    costs[tile.id] = _payable_cost(state, ctx, policy, lay, tile)
                cost = costs[tile.id]
                if cost is not None:
                    out.append(LegalMove(lay, cost))
    return out


def _open_for_a_lay(state: BoardState, spec: HexSpec) -> bool:
    """The hex's own tests of :func:`_check_place`: playable (4.1.10 / 31.8), neither a
    preprinted city nor a hex with a tile (4.1.4 / 31.3)."""
    return (spec.playable and spec.kind != "large_city" and spec.preprinted is None
            and spec.coord not in state.tiles)


def _railhead_track_gauges(net: Network, hex: str) -> dict[int, frozenset[Gauge]]:
    """For each side of ``hex``, the track gauges that continue a railhead there (4.1.6 /
    31.4): as :func:`_extends_railhead` asks it, once per hex."""
    out: dict[int, frozenset[Gauge]] = {}
    for side in range(6):
        usable: set[Gauge] = set()
        for g in net.railhead_gauges(hex, side):
            usable |= USABLE[g]
        out[side] = frozenset(usable)
    return out


def _meets_railhead(accepts: dict[int, frozenset[Gauge]], tile: TileSpec, rotation: int) -> bool:
    for path in map_paths(tile, rotation):
        for end in (path.a, path.b):
            if isinstance(end, int) and path.gauge in accepts[end]:
                return True
    return False


def _payable_cost(
    state: BoardState, ctx: CompanyContext, policy: ConstructionPolicy, lay: Lay, tile: TileSpec
) -> int | None:
    """The lay's cost, or None when the company may not pay it (as :func:`_check` ends)."""
    cost = lay_cost(state, ctx, policy, lay)
    try:
        check_payment(ctx, cost, f"tile {tile.id} on {lay.hex}")
    except RuleError:
        return None
    return cost


class _SecondLays:
    """Rule 4.1.7 / 31.5 for every candidate second lay on one board: the first lay and its
    line's target are found once (and an inconsistent first lay refused, as
    :func:`_check_second_lay` does, when the first candidate reaches the test); the answer
    for a lay depends only on its hex and where its track meets the hex's edges."""

    def __init__(self, net: Network, ctx: CompanyContext) -> None:
        self._net = net
        self._ctx = ctx
        self._first: tuple[LayTarget, bool] | None = None
        self._home_answer: bool | None = None
        self._answers: dict[tuple[Target, ...], bool] = {}

    def _first_lay(self) -> tuple[LayTarget, bool]:
        if self._first is None:
            _, target, first_home = _first_lay(self._net.state, self._ctx)
            self._first = (target, first_home)
        return self._first

    def allows(self, lay: Lay, tile: TileSpec, home: bool) -> bool:
        target1, first_home = self._first_lay()
        if home:
            if self._home_answer is None:
                self._home_answer = first_home or first_lay_has_line(self._net, target1)
            return self._home_answer
        target2 = lay_target(lay.hex, tile, lay.rotation, None)
        # disjoint_lines sees the second lay only through its targets in the side graphs:
        # tiles meeting the same reachable edges get the same answer.
        graphs = self._net.side_graphs
        key = tuple(target2.target(graphs[g]) for g in _SIDE_GRAPHS)
        found = self._answers.get(key)
        if found is None:
            found = self._answers[key] = disjoint_lines(self._net, target1, target2)
        return found


_SIDE_GRAPHS: tuple[LineGauge, ...] = ("any", "broad", "metre")
