"""Final scores (5.2): cash plus shares at their current stock market value.

Bonds not returned count for nothing (5.2.1), nor does anything a company owns (5.2.2).
Un-redeemed shares were never paid for and count for nothing either (see docs/rulings.md).
"""

from __future__ import annotations

from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.shares import price
from india1853.rules.game.state import GameState


def share_value(rules: GameRules, st: GameState, name: str) -> int:
    p = st.player(name)
    total = 0
    for initials, n in p.shares.items():
        paid = n - p.unredeemed.get(initials, 0)
        total += paid * price(rules, st.companies[initials])
    return total


def scores(rules: GameRules, st: GameState) -> dict[str, int]:
    """5.2.1-5.2.3: each player's cash plus the market value of his (paid) shares."""
    return {p.name: p.cash + share_value(rules, st, p.name) for p in st.players}


def bonds_held(st: GameState) -> int:
    """Money put aside as bonds and not yet returned (held outside bank and players)."""
    return sum(p.bond or 0 for p in st.players if not p.bond_returned)
