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
        coord for coord in state.edition.frontier_posts
        if state.tile_at(coord) is not None and net.touches(coord)
    }


def _eligible(policy: ConstructionPolicy, ctx: CompanyContext, hex: str) -> bool:
    if policy.frontier == "first_company":
        return not any(h == hex for h, _ in ctx.frontier_paid)
    return (hex, ctx.company) not in ctx.frontier_paid


def frontier_bonuses(
    state_before_turn: BoardState, state_after: BoardState, ctx: CompanyContext
) -> list[tuple[str, int]]:
    """The bonuses the company collects after its lays: posts it connected this turn that
    the edition's rule still lets pay it, as (hex, amount).

    Only the posts the rule would still pay are traced (most turns none: their reach is then
    never worked out), and the board before the turn only for a post connected after it."""
    policy = ConstructionPolicy.of(state_after.edition)
    posts = state_after.edition.frontier_posts
    candidates = sorted(
        coord for coord in posts
        if state_after.tile_at(coord) is not None and _eligible(policy, ctx, coord)
    )
    if not candidates:
        return []
    after = Network(state_after, ctx.company)
    before = Network(state_before_turn, ctx.company)
    out: list[tuple[str, int]] = []
    for hex in candidates:
        value = posts[hex]
        if not after.touches(hex):
            continue
        if state_before_turn.tile_at(hex) is not None and before.touches(hex):
            continue
        out.append((hex, value))
    return out
