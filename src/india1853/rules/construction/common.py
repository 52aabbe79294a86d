"""Checks shared by lays, promotions and base placements."""

from __future__ import annotations

from collections.abc import Callable

from india1853.board.hexes import CoordinateError, parse_coord
from india1853.board.state import BoardState
from india1853.board.tiles import distinct_rotations, exits, open_sides
from india1853.data.model import Board, CompanySpec, HexSpec, TileSpec
from india1853.errors import InputError, RuleError
from india1853.rules.construction.context import CompanyContext, ConstructionPolicy


def hex_spec(state: BoardState, text: str) -> HexSpec:
    # The board's keys are canonical coordinates, which parse to themselves: the move
    # generators ask with them thousands of times per turn.
    found = state.edition.board.hexes.get(text)
    if found is not None and found.coord == text:
        return found
    try:
        coord = parse_coord(text)
    except CoordinateError as exc:
        raise InputError(f"hex: {exc}") from None
    spec = state.edition.board.hexes.get(coord)
    if spec is None:
        raise InputError(f"hex: {coord} is not on the {state.edition.name} edition's board")
    return spec


def company_spec(state: BoardState, ctx: CompanyContext) -> CompanySpec:
    return state.edition.company(ctx.company)


def check_payment(ctx: CompanyContext, cost: int, what: str) -> None:
    """Rules 4.1.12 / 31.10 (pay before building) and 3.4.6 (a Manager owing for a credit
    train may spend nothing)."""
    if cost > 0 and ctx.owes_credit_train:
        raise RuleError(
            "3.4.6", f"{ctx.company} still owes the bank for a train and may not pay £{cost} "
            f"for {what}"
        )
    if cost > ctx.cash:
        raise RuleError(
            "4.1.12 / 31.10", f"{what} costs £{cost} but {ctx.company} has only £{ctx.cash}"
        )


def tile_colours(state: BoardState, ctx: CompanyContext) -> tuple[str, ...]:
    """TABLE 6: the colours of tile the phase allows."""
    return state.edition.phase(ctx.phase).tiles


def outside_area_duty(
    state: BoardState, ctx: CompanyContext, policy: ConstructionPolicy, hex: str, rule: str,
    what: str, *, reached: Callable[[], bool] | None = None, reach_rule: str = "",
) -> str | None:
    """TABLE 2 areas (4.2.2, 4.4.1 / 31.13, 32.1) and the Phase 5 exception (4.2.3, 4.4.2):
    None inside the area; the hex as a run duty outside it when allowed; else RuleError.

    ``reached`` answers whether the company "can reach [it] from a home base using one of
    their Trains" (:mod:`.trainreach`); refused under ``reach_rule`` when it says no.  Without
    it (a trusted replay) the reach is not tested."""
    if company_spec(state, ctx).area.contains(hex):
        return None
    relaxed = policy.areas_relaxed_phase
    if relaxed is not None and ctx.phase >= relaxed:
        if policy.relaxing_trains & set(ctx.trains):
            if reached is not None and not reached():
                raise RuleError(
                    reach_rule, f"{hex} lies outside {ctx.company}'s TABLE 2 area and no "
                    f"legal run of its trains ({', '.join(ctx.trains)}) from its bases "
                    f"reaches it ({what})"
                )
            return hex
        raise RuleError(
            rule, f"{hex} lies outside {ctx.company}'s TABLE 2 area and {ctx.company} owns no "
            f"{' or '.join(sorted(policy.relaxing_trains))} train to {what} there"
        )
    raise RuleError(rule, f"{hex} lies outside {ctx.company}'s TABLE 2 area ({what})")


class Fitter:
    """Rule 4.1.10 / 31.8 answered from tables built once per enumeration: which sides of a
    hex lead to playable hexes, and which catalogue sides of a tile carry track."""

    def __init__(self, board: Board) -> None:
        self._board = board
        self._open: dict[str, frozenset[int]] = {}
        self._exits: dict[str, frozenset[int]] = {}
        self._distinct: dict[str, frozenset[int]] = {}
        self._rotations: dict[tuple[str, str], tuple[int, ...]] = {}

    def open_sides(self, hex: str) -> frozenset[int]:
        if hex not in self._open:
            self._open[hex] = open_sides(self._board, hex)
        return self._open[hex]

    def fits(self, tile: TileSpec, hex: str, rotation: int) -> bool:
        if tile.id not in self._exits:
            self._exits[tile.id] = exits(tile, 0)
        open_sides = self.open_sides(hex)
        return all((s + rotation) % 6 in open_sides for s in self._exits[tile.id])

    def distinct(self, tile: TileSpec) -> frozenset[int]:
        """One rotation of each different picture of the tile."""
        if tile.id not in self._distinct:
            self._distinct[tile.id] = frozenset(distinct_rotations(tile))
        return self._distinct[tile.id]

    def rotations(self, tile: TileSpec, hex: str) -> list[int]:
        """Distinct rotations of ``tile`` that fit ``hex`` (as fitting_rotations(distinct))."""
        key = (tile.id, hex)
        found = self._rotations.get(key)
        if found is None:
            found = self._rotations[key] = tuple(
                r for r in sorted(self.distinct(tile)) if self.fits(tile, hex, r))
        return list(found)
