"""Track construction: tile lays, promotions, bases, contract connections, frontier posts.

Rules 4.1-4.4 (second edition) and 31-32 (first edition).  Every function is pure: it takes a
:class:`~india1853.board.state.BoardState` and a :class:`CompanyContext` and returns a value or
a new state; an illegal move raises :class:`~india1853.errors.RuleError` citing the rule.
"""

from __future__ import annotations

from india1853.board.state import BoardState
from india1853.errors import RuleError
from india1853.rules.construction.bases import apply_base, base_cost, check_base, legal_bases
from india1853.rules.construction.context import (
    CompanyContext,
    ConstructionPolicy,
    Lay,
    LegalMove,
    Move,
    Outcome,
    PlaceBase,
    Promotion,
)
from india1853.rules.construction.contract import contract_connected, contract_groups
from india1853.rules.construction.frontier import connected_posts, frontier_bonuses
from india1853.rules.construction.lays import (
    apply_lay,
    check_lay,
    double_lay_fee,
    lay_cost,
    lays_allowed,
    legal_lays,
)
from india1853.rules.construction.network import Network
from india1853.rules.construction.promotions import (
    apply_promotion,
    check_promotion,
    legal_promotions,
)
from india1853.rules.construction.trainreach import TrainReach


def legal_moves(state: BoardState, ctx: CompanyContext) -> list[LegalMove]:
    """Every legal lay, promotion and base placement for the company now."""
    net = Network(state, ctx.company)
    return [
        *legal_lays(state, ctx, network=net),
        *legal_promotions(state, ctx, network=net),
        *legal_bases(state, ctx, network=net),
    ]


def check_move(state: BoardState, ctx: CompanyContext, move: Move) -> Outcome:
    """Check any move; RuleError names the rule broken."""
    if isinstance(move, Lay):
        return Outcome(check_lay(state, ctx, move))
    if isinstance(move, Promotion):
        return check_promotion(state, ctx, move)
    return check_base(state, ctx, move)


__all__ = [
    "CompanyContext",
    "ConstructionPolicy",
    "Lay",
    "LegalMove",
    "Move",
    "Network",
    "Outcome",
    "PlaceBase",
    "Promotion",
    "RuleError",
    "TrainReach",
    "apply_base",
    "apply_lay",
    "apply_promotion",
    "base_cost",
    "check_base",
    "check_lay",
    "check_move",
    "check_promotion",
    "connected_posts",
    "contract_connected",
    "contract_groups",
    "double_lay_fee",
    "frontier_bonuses",
    "lay_cost",
    "lays_allowed",
    "legal_bases",
    "legal_lays",
    "legal_moves",
    "legal_promotions",
]
