"""The engine's link to the board: construction (4.1-4.4), contracts (4.3), runs (4.5-4.6).

The rules themselves live in ``india1853.rules.construction`` and ``india1853.rules.routes`` /
``india1853.rules.router``; this module describes the operating company to them, applies their
answers to the game state and moves the money.
"""

from __future__ import annotations

from typing import Any

from india1853.board.graph import TrackGraph
from india1853.board.hexes import neighbour
from india1853.board.state import Base, BoardState
from india1853.board.tiles import exits
from india1853.errors import RuleError
from india1853.rules import construction as con
from india1853.rules.construction.common import hex_spec, outside_area_duty
from india1853.rules.construction.lays import lays_allowed
from india1853.rules.construction.promotions import promotion_cost
from india1853.rules.game.disturbances import DISTURBANCES, closed_hex
from india1853.rules.game.events import emit, paid
from india1853.rules.game.money import bank_breaks, company_pays, company_receives
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import CompanyState, GameState
from india1853.rules.router import best_run
from india1853.rules.routes import (
    RunValue,
    Train,
    check_routes,
    parse_route_file,
    route_to_json,
    route_value,
)


def owes_for_credit_train(rules: GameRules, co: CompanyState) -> bool:
    """Whether the construction rules must refuse the company every expense because its
    Manager owes for a train bought on credit: 3.4.6 (second edition); never in the first,
    whose 24.6 has a Manager "meet all other expenses when they are incurred"."""
    return co.credit_train is not None and rules.policy.credit_train_bars_expenses


def context(rules: GameRules, st: GameState, co: CompanyState) -> con.CompanyContext:
    """The company as the construction rules see it."""
    lay_option = {1: "later", 2: "paid"}.get(co.lay_option or 0)
    return con.CompanyContext(
        company=co.initials,
        type="major" if co.kind == "major" else "minor",
        phase=st.phase,
        cash=max(0, co.cash),
        trains=tuple(t.runs_as for t in st.company_trains(co.initials)),
        running=frozenset(c.initials for c in st.companies.values() if c.formed),
        double_lay=lay_option,  # type: ignore[arg-type]
        owes_credit_train=owes_for_credit_train(rules, co),
        lays_done=tuple(con.Lay(h, t, r) for h, t, r in st.turn.lays_done),
        promoted=st.turn.promoted,
        frontier_paid=frozenset((h, c) for h, c in st.frontier_paid),
        bases_placed=co.extra_bases,
    )


def open_board(rules: GameRules, st: GameState) -> BoardState:
    """MIK 2, DISTURBANCES: the board as the railway round may use it - without the closed
    city's hex (its track, and the bases on it as railheads), while a city is closed."""
    closed = closed_hex(rules, st)
    if closed is None:
        return st.board
    # Kept with the board (immutable): a railway turn asks for it many times, and each new
    # board would build its track graph anew.
    key = f"open_board:{closed}"
    kept = st.board._derived.get(key)
    if isinstance(kept, BoardState):
        return kept
    tiles = {h: t for h, t in st.board.tiles.items() if h != closed}
    board = BoardState(st.board.edition, tiles, tuple(b for b in st.board.bases
                                                      if b.hex != closed))
    st.board._derived[key] = board
    return board


def check_open(rules: GameRules, st: GameState, hex: str, tile: str | None,
               rotation: int) -> None:
    """MIK 2, DISTURBANCES: "nor may track be connected to it" - no tile laid or promoted,
    and no base placed, on the closed city's hex; no tile whose track runs to its edge."""
    closed = closed_hex(rules, st)
    if closed is None:
        return
    coord = hex_spec(st.board, hex).coord
    if coord == closed:
        raise RuleError(DISTURBANCES, f"{coord} is closed this railway round")
    if tile is not None and tile in rules.ed.tiles and rotation in range(6):
        for side in exits(rules.ed.tiles[tile], rotation):
            if neighbour(coord, side) == closed:
                raise RuleError(DISTURBANCES, f"no track may be connected to {closed}, "
                                "closed this railway round")


def lay_option_offered(rules: GameRules) -> bool:
    """4.1.3 (second edition): a major chooses how it gets its second lay.  The first edition
    has no such choice: companies 1-4 lay up to two tiles from the start (31.2)."""
    return con.ConstructionPolicy.of(rules.ed).double_lay_is_a_choice


def lays_left(rules: GameRules, st: GameState, co: CompanyState) -> int:
    policy = con.ConstructionPolicy.of(rules.ed)
    if st.turn.promoted:
        return 0
    return lays_allowed(policy, context(rules, st, co)) - len(st.turn.lays_done)


def _pay(rules: GameRules, st: GameState, co: CompanyState, cost: int, rule: str) -> None:
    if cost > co.cash:
        raise RuleError(rule, f"{co.initials} has £{co.cash}; this costs £{cost}")
    company_pays(rules, st, co, cost, rule)


def _start_of_track(st: GameState) -> None:
    if not st.turn.lays_done and not st.turn.promoted:
        st.turn_start_board = st.board


def lay_tile(rules: GameRules, st: GameState, co: CompanyState, hex: str, tile: str,
             rotation: int, *, check: bool = True) -> None:
    """4.1: lay a yellow tile (the construction module checks it and prices it).
    ``check=False`` (trusted logs): only price it (4.1.12-4.1.13)."""
    if lays_left(rules, st, co) <= 0:
        raise RuleError("4.1.2", f"{co.initials} may lay no more tiles this turn")
    check_open(rules, st, hex, tile, rotation)
    _start_of_track(st)
    ctx = context(rules, st, co)
    if check:
        board, cost = con.apply_lay(st.board, ctx, con.Lay(hex, tile, rotation))
        if open_board(rules, st) is not st.board:
            con.apply_lay(open_board(rules, st), ctx, con.Lay(hex, tile, rotation))
    else:
        coord = hex_spec(st.board, hex).coord
        cost = con.lay_cost(st.board, ctx, con.ConstructionPolicy.of(rules.ed),
                            con.Lay(coord, tile, rotation))
        board = st.board.with_tile(coord, tile, rotation)
    _pay(rules, st, co, cost, "4.1.12")
    emit(st, "tile_laid", co.initials, "4.1", hex=hex, tile=tile, rotation=rotation, cost=cost)
    st.board = board
    st.turn.lays_done.append((hex, tile, rotation))
    check_contracts(rules, st)


def promote_tile(rules: GameRules, st: GameState, co: CompanyState, hex: str, tile: str,
                 rotation: int, *, check: bool = True) -> None:
    """4.2: promote one tile instead of laying.  ``check=False`` (trusted logs): only the
    cost (4.2.11, 4.2.13) and the run duty outside the area (4.2.3)."""
    if st.turn.lays_done or st.turn.promoted:
        raise RuleError("4.2.1", "a promotion replaces the turn's tile lays")
    check_open(rules, st, hex, tile, rotation)
    _start_of_track(st)
    ctx = context(rules, st, co)
    if check:
        board, outcome = con.apply_promotion(st.board, ctx, con.Promotion(hex, tile, rotation))
        if open_board(rules, st) is not st.board:
            con.apply_promotion(open_board(rules, st), ctx, con.Promotion(hex, tile, rotation))
    else:
        coord = hex_spec(st.board, hex).coord
        outcome = con.Outcome(
            promotion_cost(st.board, coord),
            outside_area_duty(st.board, ctx, con.ConstructionPolicy.of(rules.ed), coord,
                              "4.2.2-4.2.3 / 31.13", "promote"),
        )
        board = st.board.with_tile(coord, tile, rotation)
    _pay(rules, st, co, outcome.cost, "4.2.13")
    emit(st, "tile_promoted", co.initials, "4.2", hex=hex, tile=tile, rotation=rotation,
         cost=outcome.cost)
    st.board = board
    st.turn.promoted = True
    if outcome.duty is not None:
        st.turn.duties.append(outcome.duty)
    check_contracts(rules, st)


def pay_frontier_bonuses(rules: GameRules, st: GameState, co: CompanyState) -> None:
    """4.1.14: once the lays are done, a bonus for each frontier post newly connected."""
    if not st.turn.lays_done and not st.turn.promoted:
        return
    before = st.turn_start_board if st.turn_start_board is not None else st.board
    for hex, amount in con.frontier_bonuses(before, st.board, context(rules, st, co)):
        company_receives(rules, st, co, amount, "4.1.14")
        st.frontier_paid.append((hex, co.initials))
    bank_breaks(st)


def check_contracts(rules: GameRules, st: GameState) -> None:
    """4.3.1-4.3.2: a bid whose cities are connected is fulfilled at once: the bond returns
    and the bid is revealed."""
    for p in st.players:
        if p.bond_returned or p.bond is None or not p.cities:
            continue
        if con.contract_connected(st.board, p.cities):
            p.bond_returned = True
            p.cash += p.bond
            paid(st, "bond", p.name, p.bond, "4.3.2")
            emit(st, "contract_fulfilled", p.name, "4.3", bond=p.bond, cities=list(p.cities))


def place_base(rules: GameRules, st: GameState, co: CompanyState, hex: str,
               station: str | None, *, check: bool = True) -> None:
    """4.4: a base on a vacant space of a large station, reached from a base of the company.
    ``check=False`` (trusted logs): only the cost (4.4.4) and the run duty (4.4.2)."""
    if station is None:
        found = st.board.tile_at(hex)
        large = [s.id for s in found[0].stations if s.kind == "large"] if found else []
        if len(large) != 1:
            raise RuleError("4.4.5", f"name the station of {hex} for the base")
        station = large[0]
    check_open(rules, st, hex, None, 0)
    ctx = context(rules, st, co)
    if check:
        board, outcome = con.apply_base(st.board, ctx, con.PlaceBase(hex, station))
        if open_board(rules, st) is not st.board:
            con.apply_base(open_board(rules, st), ctx, con.PlaceBase(hex, station))
    else:
        coord = hex_spec(st.board, hex).coord
        outcome = con.Outcome(
            con.base_cost(st.board, ctx),
            outside_area_duty(st.board, ctx, con.ConstructionPolicy.of(rules.ed), coord,
                              "4.4.1-4.4.2 / 32.1", "place a base"),
        )
        board = st.board.with_base(Base(co.initials, coord, station))
    _pay(rules, st, co, outcome.cost, "4.4.4")
    emit(st, "base_placed", co.initials, "4.4", hex=hex, station=station, cost=outcome.cost)
    st.board = board
    co.extra_bases += 1
    if outcome.duty is not None:
        st.turn.duties.append(outcome.duty)


def _with_board(st: GameState, board: BoardState) -> GameState:
    """A copy of the state on another board, its kit without a closure (to ask the
    construction rules about the open board)."""
    new = st.clone()
    new.board = board
    if new.kit is not None:
        new.kit.closed = None
    return new


def _open_move(rules: GameRules, st: GameState, move: dict[str, Any]) -> bool:
    try:
        check_open(rules, st, move["hex"], move.get("tile"), move.get("rotation", 0))
    except RuleError:
        return False
    return True


def running_trains(rules: GameRules, st: GameState, co: CompanyState) -> list[Train]:
    return [Train.named(rules.ed, t.runs_as) for t in st.company_trains(co.initials)]


def run_routes(rules: GameRules, st: GameState, co: CompanyState,
               routes: list[dict[str, Any]], *, check: bool = True) -> None:
    """4.5-4.6: check the proposed runs (any legal set, not only the best) and collect:
    the mail always goes to the company (4.6.6); the rest awaits the dividend decision.
    ``check=False`` (trusted logs): value the runs without checking them."""
    graph = TrackGraph.build(open_board(rules, st))
    trains = running_trains(rules, st, co)
    _, parsed = parse_route_file({"company": co.initials, "routes": routes}, graph, trains)
    if check:
        run = check_routes(graph, co.initials, trains, parsed, st.turn.duties)
    else:
        run = RunValue(tuple(route_value(r, graph) for r in parsed))
    st.turn.revenue = run.revenue
    st.turn.routes = [route_to_json(r, graph) for r in parsed]
    company_receives(rules, st, co, run.mail, "4.6.6")
    bank_breaks(st)
    emit(st, "run", co.initials, "4.5 / 4.6.2", revenue=run.revenue, mail=run.mail,
         trains=[r.get("train") for r in st.turn.routes])


def best_routes(rules: GameRules, st: GameState, co: CompanyState) -> list[dict[str, Any]] | None:
    """The router's optimum as route-file objects, or None when no legal run exists."""
    graph = TrackGraph.build(open_board(rules, st))
    trains = running_trains(rules, st, co)
    try:
        best = best_run(graph, co.initials, trains, st.turn.duties)
    except RuleError:
        return None
    return [route_to_json(rv.route, graph) for rv in best.run.routes]


def legal_moves(rules: GameRules, st: GameState, co: CompanyState,
                kind: str) -> list[dict[str, Any]]:
    """Tile lays, promotions or bases as action fields."""
    ctx = context(rules, st, co)
    out: list[dict[str, Any]] = []
    board = open_board(rules, st)
    if board is not st.board:
        # MIK 2, DISTURBANCES: the moves legal both on the board and on the board without the
        # closed city, that connect no track to it.
        shut = st.clone()
        assert shut.kit is not None
        shut.kit.closed = None
        moves = legal_moves(rules, _with_board(st, board), co, kind)
        full = legal_moves(rules, shut, co, kind)
        return [m for m in moves if m in full and _open_move(rules, st, m)]
    if kind == "lay_tile":
        if lays_left(rules, st, co) <= 0:
            return out
        for m in con.legal_lays(st.board, ctx):
            assert isinstance(m.move, con.Lay)
            if m.cost <= co.cash:
                out.append({"hex": m.move.hex, "tile": m.move.tile, "rotation": m.move.rotation})
    elif kind == "promote_tile":
        if st.turn.lays_done or st.turn.promoted:
            return out
        for m in con.legal_promotions(st.board, ctx):
            assert isinstance(m.move, con.Promotion)
            if m.cost <= co.cash:
                out.append({"hex": m.move.hex, "tile": m.move.tile, "rotation": m.move.rotation})
    else:
        for m in con.legal_bases(st.board, ctx):
            assert isinstance(m.move, con.PlaceBase)
            if m.cost <= co.cash:
                out.append({"hex": m.move.hex, "station": m.move.station})
    return out
