"""Money between the bank and the companies: the bank's cash (2.x) or Company Credits (23.1).

Second edition: a company's treasury is paid from and into the bank's money (3.3.1, 4.1.12,
4.6.4-4.6.6, 4.8.2), and any payment out of the bank may break it (5.1.2).

First edition: companies hold Company Credits, "not taken from or returned to" the bank's
personal money: formation (23.1), construction costs (31.10), frontier payments (31.11), revenue
withheld and the mail (34.4, 34.6) and train purchases (35.7) are in credits, and the bank breaks
only when its personal money runs out (40).  ``GameState.credits`` counts the credits in
circulation, so that both currencies are seen to be conserved.  A director's gift towards a
train (35.7) is personal money and goes to the bank.
"""

from __future__ import annotations

from india1853.rules.game.events import emit, paid
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import CompanyState, GameState


def bank_breaks(st: GameState) -> None:
    """5.1.2 / 40: the bank is broken once its money runs out (reported once)."""
    if st.bank <= 0 and not st.bank_broken:
        st.bank_broken = True
        emit(st, "bank_broken", "", "5.1.2")


def company_receives(rules: GameRules, st: GameState, co: CompanyState, amount: int,
                     rule: str = "") -> None:
    """The bank pays the company (formation, revenue withheld, mail, frontier posts)."""
    co.cash += amount
    paid(st, "bank", co.initials, amount, rule)
    if rules.policy.company_credits:
        st.credits += amount
        return
    st.bank -= amount
    bank_breaks(st)


def company_pays(rules: GameRules, st: GameState, co: CompanyState, amount: int,
                 rule: str = "") -> None:
    """The company pays the bank (tiles, bases, trains)."""
    co.cash -= amount
    paid(st, co.initials, "bank", amount, rule)
    if rules.policy.company_credits:
        st.credits -= amount
    else:
        st.bank += amount
