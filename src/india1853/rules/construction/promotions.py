"""Promoting tiles: rules 4.2.1-4.2.13 (second edition), 31.12-31.23 (first edition)."""

from __future__ import annotations

from india1853.board.hexes import neighbours
from india1853.board.state import BoardState
from india1853.board.tiles import (
    fitting_rotations,
    promotion_rotation_list,
    promotion_station_map,
)
from india1853.data.model import TileSpec
from india1853.errors import InputError, RuleError
from india1853.rules.construction.common import (
    Fitter,
    check_payment,
    hex_spec,
    outside_area_duty,
    tile_colours,
)
from india1853.rules.construction.context import (
    CompanyContext,
    ConstructionPolicy,
    LegalMove,
    Outcome,
    Promotion,
)
from india1853.rules.construction.network import Network


def promotion_cost(state: BoardState, hex: str) -> int:
    """4.2.11 / 31.21: promotions cost nothing, except the first promotion of Calcutta
    (4.2.13 / 31.23: £60) - the first, because Calcutta still shows its preprinted tile."""
    found = state.tile_at(hex)
    for special in state.edition.costs.special:
        if (
            special.id == "calcutta_first_promotion"
            and special.hex == hex
            and found is not None
            and found[0].preprinted
        ):
            return special.amount
    return 0


def _check_turn(ctx: CompanyContext) -> None:
    if ctx.lays_done:
        raise RuleError("4.2.1 / 31.12", f"{ctx.company} laid a tile this turn: a promotion "
                                         "replaces the lays")
    if ctx.promoted:
        raise RuleError("4.2.1 / 31.12", f"{ctx.company} has already promoted a tile this turn")


def _check_chart(
    state: BoardState, ctx: CompanyContext, hex: str, old: TileSpec, new_id: str
) -> TileSpec:
    edition = state.edition
    if new_id not in edition.tiles:
        raise InputError(f"tile: {new_id!r} is not a tile of the {edition.name} edition")
    new = edition.tiles[new_id]
    targets = edition.promotions.get(old.id, ())
    if not targets:
        raise RuleError("4.2.5 / 31.15", f"tile {old.id} on {hex} cannot be promoted")
    if new_id not in targets:
        rule = "4.2.12 / 31.22" if old.preprinted else "4.2.5 / 31.15, TABLE 8"
        raise RuleError(rule, f"tile {old.id} promotes to {', '.join(targets)}, not {new_id}")
    if new.colour not in tile_colours(state, ctx):
        rule = "4.2.12 / 31.22" if old.preprinted else "4.2.1 / 31.12"
        raise RuleError(rule, f"no {new.colour} tiles in Phase {ctx.phase}")
    if state.supply().get(new_id, 0) <= 0:
        raise RuleError("4.2.10 / 31.20", f"no tile {new_id} left in the supply")
    return new


def _check_grey(state: BoardState, hex: str, old: TileSpec, new: TileSpec) -> None:
    """4.2.7 / 31.17: a brown tile next to a grey one is not promoted; no two grey tiles touch."""
    for side, other in neighbours(hex).items():
        found = state.tile_at(other)
        if found is not None and found[0].colour == "grey":
            if old.colour == "brown":
                raise RuleError("4.2.7 / 31.17", f"brown tile {old.id} on {hex} touches grey "
                                                 f"tile {found[0].id} on {other}")
            if new.colour == "grey":
                raise RuleError("4.2.7", f"grey tile {new.id} would touch grey tile "
                                         f"{found[0].id} on {other}")
        del side


def _area_duty(
    state: BoardState, ctx: CompanyContext, policy: ConstructionPolicy, hex: str,
    net: Network | None,
) -> str | None:
    """4.2.2-4.2.3 / 31.13: inside the area, or (Phase 5) a tile one of the company's trains
    reaches on the board before the promotion, with a run duty.  Without ``net`` the reach
    is left for later (the cheap tests first)."""
    reached = None if net is None else (lambda: net.train_reach(ctx.trains).hex(hex))
    return outside_area_duty(state, ctx, policy, hex, "4.2.2-4.2.3 / 31.13", "promote",
                             reached=reached, reach_rule="4.2.3")


def check_promotion(
    state: BoardState, ctx: CompanyContext, move: Promotion, *, network: Network | None = None
) -> Outcome:
    """Whether ``move`` is legal now: its cost and run duty, or RuleError naming the rule."""
    net = network if network is not None else Network(state, ctx.company)
    return _check(state, ctx, move, net, ConstructionPolicy.of(state.edition), fitted=False)


def _check(
    state: BoardState,
    ctx: CompanyContext,
    move: Promotion,
    net: Network,
    policy: ConstructionPolicy,
    *,
    fitted: bool,
) -> Outcome:
    """``fitted``: the caller already knows the rotation keeps the track and fits the grid."""
    _check_turn(ctx)
    spec = hex_spec(state, move.hex)
    hex = spec.coord
    found = state.tile_at(hex)
    if found is None:
        raise RuleError("4.2.1 / 31.12", f"{hex} has no tile to promote; lay one instead")
    old, old_rotation = found
    new = _check_chart(state, ctx, hex, old, move.tile)
    if move.rotation not in range(6):
        raise InputError(f"rotation: must be 0..5, got {move.rotation!r}")
    _check_grey(state, hex, old, new)
    if not fitted:
        if promotion_station_map(old, old_rotation, new, move.rotation) is None:
            raise RuleError("4.2.4-4.2.6 / 31.14-31.16", f"tile {new.id} at rotation "
                            f"{move.rotation} does not keep the track of tile {old.id} on {hex}")
        if move.rotation not in fitting_rotations(new, hex, state.edition.board):
            raise RuleError("4.2.2, 4.1.10 / 31.13, 31.8", f"tile {new.id} at rotation "
                            f"{move.rotation} on {hex} runs off the grid")
    duty = _area_duty(state, ctx, policy, hex, None)
    if not (net.touches(hex) or net.enters(hex, new, move.rotation)):
        raise RuleError("4.2.2 / 31.13", f"tile {new.id} on {hex} would not be connected to a "
                                         f"base of {ctx.company} without a break of gauge")
    if duty is not None:
        _area_duty(state, ctx, policy, hex, net)
    cost = promotion_cost(state, hex)
    check_payment(ctx, cost, f"promoting {hex}")
    return Outcome(cost, duty)


def apply_promotion(
    state: BoardState, ctx: CompanyContext, move: Promotion
) -> tuple[BoardState, Outcome]:
    """Check ``move`` and return the board after it (bases moved to the new tile)."""
    outcome = check_promotion(state, ctx, move)
    return state.with_tile(hex_spec(state, move.hex).coord, move.tile, move.rotation), outcome


def legal_promotions(
    state: BoardState, ctx: CompanyContext, *, network: Network | None = None
) -> list[LegalMove]:
    """Every legal promotion (hex, tile, rotation) with its cost and run duty.

    The same answer, in the same order, as :func:`check_promotion` asked of every candidate
    (each tile on the board, in order; each tile its chart allows that the phase and the
    supply offer; each distinct rotation that keeps the track and fits the grid), with what
    does not depend on the candidate worked out once per hex: the grey neighbours (4.2.7 /
    31.17), the connection of the old tile (4.2.2 / 31.13), the area and run duty (4.2.2-4.2.3
    / 31.13) and the cost (4.2.11, 4.2.13 / 31.21, 31.23).
    """
    if ctx.lays_done or ctx.promoted:
        return []
    policy = ConstructionPolicy.of(state.edition)
    colours = tile_colours(state, ctx)
    net = network if network is not None else Network(state, ctx.company)
    fitter = Fitter(state.edition.board)
    out: list[LegalMove] = []
    for hex, old, old_rotation in state.tiles_on_board():
        offered = [(n, new) for n, new in ((n, state.edition.tiles[n])
                                           for n in state.edition.promotions.get(old.id, ()))
                   if new.colour in colours and state.supply_left(n) > 0]
        if not offered:
            continue  # the area test below is pure: nothing is lost by skipping it
        try:
            duty = _area_duty(state, ctx, policy, hex, None)
        except RuleError:
            continue
        checks = _HexChecks(state, ctx, policy, net, hex, duty)
        for new_id, new in offered:
            distinct = fitter.distinct(new)
            for rotation in promotion_rotation_list(old, old_rotation, new):
                if rotation not in distinct or not fitter.fits(new, hex, rotation):
                    continue
                move = Promotion(hex, new_id, rotation)
                if checks.exact:
                    cost = checks.cost(old, new, rotation)
                    if cost is None:
                        continue
                    out.append(LegalMove(move, cost, duty))
                    continue
                try:
                    outcome = _check(state, ctx, move, net, policy, fitted=True)
                except RuleError:
                    continue
                out.append(LegalMove(move, outcome.cost, outcome.duty))
    return out


class _HexChecks:
    """:func:`_check` for the candidates on one hex whose tile is the one being promoted
    (``exact``; any other hex is checked in full): the tests that depend only on the hex
    are made once, lazily, in :func:`_check`'s order."""

    def __init__(self, state: BoardState, ctx: CompanyContext, policy: ConstructionPolicy,
                 net: Network, hex: str, duty: str | None) -> None:
        self._state, self._ctx, self._policy, self._net = state, ctx, policy, net
        self._hex = hex
        self._duty = duty
        spec = state.edition.board.hexes.get(hex)
        self.exact = spec is not None and spec.coord == hex
        self._grey: bool | None = None
        self._touches: bool | None = None
        self._reached: bool | None = None
        self._cost: int | None = None
        self._paid: bool | None = None

    def cost(self, old: TileSpec, new: TileSpec, rotation: int) -> int | None:
        """The promotion's cost if :func:`_check` accepts it, else None."""
        state, hex = self._state, self._hex
        if self._grey is None:
            self._grey = any(
                (found := state.tile_at(other)) is not None and found[0].colour == "grey"
                for other in neighbours(hex).values())
        if self._grey and (old.colour == "brown" or new.colour == "grey"):
            return None
        if self._touches is None:
            self._touches = self._net.touches(hex)
        if not (self._touches or self._net.enters(hex, new, rotation)):
            return None
        if self._duty is not None:
            if self._reached is None:
                try:
                    _area_duty(state, self._ctx, self._policy, hex, self._net)
                    self._reached = True
                except RuleError:
                    self._reached = False
            if not self._reached:
                return None
        if self._paid is None:
            self._cost = promotion_cost(state, hex)
            try:
                check_payment(self._ctx, self._cost, f"promoting {hex}")
                self._paid = True
            except RuleError:
                self._paid = False
        return self._cost if self._paid else None
