"""Alternative Rules 1.0 (first edition): the starting procedure without contract bids.

"Shuffle the place cards ... and deal one to each player. This decides the seating order and
Player One takes the 'Elephant'. The players are now given their Initial Capital as given in the
revised TABLE 3. Player One may now buy a share in ANY Company. The following players may also
buy any, single, share they wish, in turn. ... once shares have been bought in as many different
Companies as there are players in the game, further purchases are limited to those Companies in
which shares have already been bought until all but one of these Companies has been fully paid
for. When shares in only one Company remain on offer the next Company, in numerical order, is put
on offer and this process continues for the remainder of the game."

It replaces 13-16 (except 16.7), 18 (except 18.1), 19 and 21.3.  The place cards are dealt from
the seed, so the seating is part of the settings and every replay repeats it.  The revised
TABLE 3 is data (``tables.variants``, chosen by the variant policy).  The director: "the player
with the most shares ... If several players have an equal number of shares the first player to
acquire a share in the Company takes precedence. If no player has two shares to exchange the
process is delayed until someone acquires two shares"; "A Company may start to operate once the
required number of shares have been bought and a Director has been appointed" - so no manager
runs a company at its start (:func:`director_waits`).
"""

from __future__ import annotations

import random

from india1853.errors import RuleError
from india1853.rules.game.events import change
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.shares import ipo_available, would_be_director
from india1853.rules.game.state import CompanyState, GameState

RULE = "Alternative Rules 1.0"


def deal_places(rules: GameRules, st: GameState) -> None:
    """Alternative Rules 1.0: the place cards dealt at random decide the seating order; Player
    One takes the Elephant (the first dealing round follows, 20, 21: ``sequence``)."""
    random.Random(f"{st.seed}:places").shuffle(st.players)
    change(st, "elephant", "", RULE, st.elephant, st.players[0].name)
    st.elephant = st.players[0].name


def bought_into(rules: GameRules, co: CompanyState) -> bool:
    """Whether any new share of the company has been bought (the pool's count as bought)."""
    return co.ipo < rules.shares_per_company


def fully_paid(rules: GameRules, co: CompanyState) -> bool:
    """Every new share bought: none left in the company's stack (the director's certificate
    laid out beside it is exchanged, not bought)."""
    return ipo_available(rules, co) == 0


def on_offer(rules: GameRules, st: GameState) -> list[str]:
    """The companies whose new shares may be bought now (Alternative Rules 1.0), in TABLE 1
    order: any, until shares have been bought in as many companies as there are players; then
    those bought into and not fully paid for, and, when only one remains on offer, the next
    company in numerical order ("in general, there will be new shares in TWO Companies
    available at any time")."""
    companies = [st.companies[c.initials] for c in rules.companies]
    bought = [co for co in companies if bought_into(rules, co)]
    if len(bought) < len(st.players):
        return [co.initials for co in companies if not fully_paid(rules, co)]
    offer = [co.initials for co in bought if not fully_paid(rules, co)]
    for co in companies:
        if len(offer) >= 2:
            break
        if not bought_into(rules, co):
            offer.append(co.initials)
    order = {c.initials: i for i, c in enumerate(rules.companies)}
    return sorted(offer, key=order.__getitem__)


def check_offer(rules: GameRules, st: GameState, initials: str) -> None:
    """A new share of a company not on offer is refused, naming the companies that are."""
    offer = on_offer(rules, st)
    if initials not in offer:
        raise RuleError(RULE, f"new shares are on offer only in {', '.join(offer) or 'none'}, "
                        f"not in {initials}: once shares have been bought in as many companies "
                        "as there are players, only those are sold until all but one are fully "
                        "paid, then the next in numerical order")


def director_waits(rules: GameRules, st: GameState, co: CompanyState) -> bool:
    """Alternative Rules 1.0: with the qualifying number bought but nobody holding two shares
    to exchange for the director's certificate, the company waits for a director (no manager
    starts it, unlike 22.2)."""
    return rules.share_by_share_start and would_be_director(rules, st, co) is None
