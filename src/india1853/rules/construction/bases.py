"""Establishing bases: rules 4.4.1-4.4.7 (second edition), 32.1-32.6 (first edition)."""

from __future__ import annotations

from india1853.board.graph import station_node
from india1853.board.state import Base, BoardState
from india1853.errors import InputError, RuleError
from india1853.rules.construction.common import (
    check_payment,
    company_spec,
    hex_spec,
    outside_area_duty,
)
from india1853.rules.construction.context import (
    CompanyContext,
    ConstructionPolicy,
    LegalMove,
    Outcome,
    PlaceBase,
)
from india1853.rules.construction.network import Network


def base_cost(state: BoardState, ctx: CompanyContext) -> int:
    """4.4.4 / 32.3: £40 for the first additional base, £100 for each after."""
    return state.edition.costs.base_token(ctx.bases_placed)


def home_stations(state: BoardState, company: str) -> set[tuple[str, str | None]]:
    """The stations (hex, station id on the current tile) that are homes of ``company``
    (TABLE 1; a preprinted city's station followed through its promotions).  Conditional
    homes (the BBCI's north Bombay, 2.6.2) count only for a running company, which has its
    base there already.
    """
    spec = state.edition.company(company)
    return {(home.hex, state.home_station(home)) for home in spec.homes
            if home.condition is None}


def check_base(
    state: BoardState, ctx: CompanyContext, move: PlaceBase, *, network: Network | None = None
) -> Outcome:
    """Whether ``move`` is legal now: its cost and run duty, or RuleError naming the rule."""
    policy = ConstructionPolicy.of(state.edition)
    if ctx.owes_credit_train:
        raise RuleError("3.4.6", f"{ctx.company} still owes the bank for a train: no bases")
    hex = hex_spec(state, move.hex).coord
    found = state.tile_at(hex)
    if found is None:
        raise RuleError("4.4.5 / 32.4", f"{hex} has no tile, so no station for a base")
    tile = found[0]
    station = next((s for s in tile.stations if s.id == move.station), None)
    if station is None:
        raise InputError(f"station: tile {tile.id} on {hex} has no station {move.station!r}")
    if station.kind != "large":
        raise RuleError("4.4.5 / 32.4", f"bases go on large stations; {hex} {station.id} is small")
    if len(state.bases_at(hex, station.id)) >= station.slots:
        raise RuleError("4.4.5 / 32.4", f"station {station.id} on {hex} has no vacant slot")
    if state.bases_at(hex) and any(b.company == ctx.company for b in state.bases_at(hex)):
        raise RuleError("4.4.5 / 32.4", f"{ctx.company} already has a base on {hex}")
    spec = company_spec(state, ctx)
    if len(state.company_bases(ctx.company)) >= spec.base_tokens:
        raise RuleError("4.4.1 / 32.1, TABLE 7", f"{ctx.company} has no base token left "
                                                 f"({spec.base_tokens} in all)")
    for other in state.edition.companies:
        if other.initials in ctx.running or other.initials == ctx.company:
            continue
        if (hex, station.id) in home_stations(state, other.initials):
            raise RuleError("4.4.7 / 32.6", f"{hex} {station.id} is the home of "
                                            f"{other.initials}, which is not yet running")
    net = network if network is not None else Network(state, ctx.company)
    if not net.reaches_station(station_node(hex, station.id)):
        raise RuleError("4.4.6 / 32.5", f"{hex} is not connected to a base of {ctx.company} by "
                                        "unblocked track of one gauge")
    node = station_node(hex, station.id)
    duty = outside_area_duty(
        state, ctx, policy, hex, "4.4.1-4.4.2 / 32.1", "place a base",
        reached=lambda: net.train_reach(ctx.trains).station(node), reach_rule="4.4.2",
    )
    cost = base_cost(state, ctx)
    check_payment(ctx, cost, f"a base on {hex}")
    return Outcome(cost, duty)


def apply_base(
    state: BoardState, ctx: CompanyContext, move: PlaceBase
) -> tuple[BoardState, Outcome]:
    outcome = check_base(state, ctx, move)
    hex = hex_spec(state, move.hex).coord
    return state.with_base(Base(ctx.company, hex, move.station)), outcome


def legal_bases(
    state: BoardState, ctx: CompanyContext, *, network: Network | None = None
) -> list[LegalMove]:
    """Every legal base placement with its cost and run duty."""
    net = network if network is not None else Network(state, ctx.company)
    out: list[LegalMove] = []
    for node in sorted(net.graph.stations):
        info = net.graph.stations[node]
        if info.kind != "large" or not net.reaches_station(node):
            continue
        move = PlaceBase(info.hex, node[2])
        try:
            outcome = check_base(state, ctx, move, network=net)
        except RuleError:
            continue
        out.append(LegalMove(move, outcome.cost, outcome.duty))
    return out
