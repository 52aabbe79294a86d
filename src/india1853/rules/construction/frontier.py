"""Frontier posts: rules 4.1.14 (second edition) and 31.11 (first edition).

A post pays its bonus when a company's lays connect it to one of the company's bases, after
all of the turn's lays.  The second edition pays only the first company to connect a post;
the first edition pays each company once.  See docs/rulings.md, "Frontier posts".
"""

from __future__ import annotations

from india1853.board.state import BoardState
from india1853.rules.construction.context import CompanyContext, ConstructionPolicy
from india1853.rules.construction.network import Network


def connected_posts(state: BoardState, company: str) -> set[str]:
    """Frontier-post hexes that a line from one of the company's bases reaches."""
    net = Network(state, company)
    # The cheap tests first: the network's reach is only worked out when a post has a tile.
    return {
        coord for coord, spec in state.edition.board.hexes.items()
        if spec.frontier_post is not None and state.tile_at(coord) is not None
        and net.touches(coord)
    }


def _eligible(policy: ConstructionPolicy, ctx: CompanyContext, hex: str) -> bool:
    if policy.frontier == "first_company":
        return not any(h == hex for h, _ in ctx.frontier_paid)
    return (hex, ctx.company) not in ctx.frontier_paid


def frontier_bonuses(
    state_before_turn: BoardState, state_after: BoardState, ctx: CompanyContext
) -> list[tuple[str, int]]:
    """The bonuses the company collects after its lays: posts it connected this turn that
    the edition's rule still lets pay it, as (hex, amount)."""
    policy = ConstructionPolicy.of(state_after.edition)
    before = connected_posts(state_before_turn, ctx.company)
    after = connected_posts(state_after, ctx.company)
    out: list[tuple[str, int]] = []
    for hex in sorted(after - before):
        value = state_after.edition.board.hexes[hex].frontier_post
        if value is not None and _eligible(policy, ctx, hex):
            out.append((hex, value))
    return out
