"""The edition policy: the procedures in which the two rulebooks differ.

The numbers of an edition (money, limits, trains, costs, the market) are data
(``india1853.data``); what data alone cannot say - which procedure a rule prescribes - is one
small policy object per edition, chosen by the settings' edition.  The engine asks the policy
and never tests the edition's name.  Where both editions share a rule, they share its code and
the policy has no say.

Second edition (2009): the sequential contract bids (2.5), directors of the first stock round
appointed at its end (2.9.1), companies paid from the bank's money (3.3.1).

First edition (1989): the secret contract bids made at once (rules 14-16), directors appointed as
soon as the qualifying number is issued (17.1, 22.1), Company Credits (23.1, 31.10, 31.11, 35.7,
40), shares after the contract companies in TABLE 1 order (21.3) and broad trains strictly in
order (35.2), and a Manager owing for a credit train still pays the other expenses (24.6).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EditionPolicy:
    """How one edition runs the procedures the two rulebooks describe differently."""

    name: str
    # "sequential": a bond, then one city at a time in seating order (2.5); "secret": every
    # player's whole bid (cities, claimed shares and bond) made secretly and at once (14-16).
    bid_procedure: str
    # 2.9.1: the first stock round's directors are appointed at its end.  False: 17.1 / 22.1, a
    # director is appointed as soon as the qualifying number of shares has been issued.
    directors_at_first_round_end: bool
    # 23.1, 31.10, 31.11, 35.7, 40: companies hold Company Credits, a currency apart from the
    # bank's personal money; only the personal money can run out.
    company_credits: bool
    # 21.3: after the contract companies, new shares are sold in TABLE 1 order, each company
    # fully issued before the next is put on offer (2.x: 3.1.3 opens all the others at once).
    table1_order_after_contracts: bool
    # 35.2: all of one broad type are bought before the next is available, even where TABLE 6
    # lists two types for a phase (second edition 4.8.3 sells the '6' beside the '5').
    strict_broad_order: bool
    # 3.1.8: no sale in the round in which the company floated and formed (2.x); 21.8 / 18.1:
    # none in the round in which its director was first appointed (first edition).
    no_sale_rule: str
    # The rule that reveals the bonds once every bid is in (2.5.3; 15.1).
    bonds_revealed_rule: str
    # 3.4.6: a Manager owing for a train bought on credit may pay no other expense (no track
    # cost, no base) until it is paid.  False: 24.6, "A Manager must meet all other expenses
    # when they are incurred" - they are paid as usual, only the train is on credit.
    credit_train_bars_expenses: bool
    # What the rulebook calls its two kinds of round: Stock and Operating Rounds (2009), Dealing
    # and Railway Rounds (1989: SECTION 2 and 3, 20 and 30).
    stock_round_name: str
    operating_round_name: str


SECOND_EDITION = EditionPolicy(
    name="second",
    bid_procedure="sequential",
    directors_at_first_round_end=True,
    company_credits=False,
    table1_order_after_contracts=False,
    strict_broad_order=False,
    no_sale_rule="3.1.8",
    bonds_revealed_rule="2.5.3",
    credit_train_bars_expenses=True,
    stock_round_name="Stock Round",
    operating_round_name="Operating Round",
)

FIRST_EDITION = EditionPolicy(
    name="first",
    bid_procedure="secret",
    directors_at_first_round_end=False,
    company_credits=True,
    table1_order_after_contracts=True,
    strict_broad_order=True,
    no_sale_rule="18.1, 21.8",
    bonds_revealed_rule="15.1",
    credit_train_bars_expenses=False,
    stock_round_name="Dealing Round",
    operating_round_name="Railway Round",
)

POLICIES: dict[str, EditionPolicy] = {p.name: p for p in (FIRST_EDITION, SECOND_EDITION)}


def edition_policy(edition: str) -> EditionPolicy:
    """The policy of the edition the settings name."""
    return POLICIES[edition]
