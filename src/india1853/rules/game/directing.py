"""What floats a company, and whether a player can still become a director (2.7.5, 2.9.2,
3.1.2, 3.2.1, 3.2.3; first edition 16.7, 21.2, 22.1).

A company floats once the qualifying number of its shares (TABLE 3) is issued (2.7.5, 16.7);
its director is the largest holder of at least a director's certificate (2.9.2, 3.2.1, 22.1),
and a director keeps office until another holder has more shares (3.2.3).  A player who can no
longer become the director of any company has nothing to run for the rest of the game; the
turn model warns on the option itself when a bond, a claim or a purchase would leave him so.

"Can still become a director" is judged on his cash alone - the shares he might sell are not
counted, and the warning says so - and otherwise generously, so that the warning is not raised
wrongly (docs/rulings.md, "No company left to direct"): with his cash - less what his bid's
shares will cost at the end of the bids (2.7.2) or his un-redeemed shares cost to
redeem before any purchase (2.7.4) - he could get, by the claims his bid may still make (free
until the bids end, 2.7.3) and then by buying new shares at par and pool shares at their price,
the shares that make him the largest holder with at least a director's certificate (more than
a sitting director), within the share limit (3.1.2).  The other players are assumed to buy the
rest of the qualifying number (a company rarely floats on one player's shares), never to
outbid him; the order of sale of new shares (3.1.3, 21.3), the certificate limit and the
bond's return are not counted, as they would only make the way harder or later.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from india1853.errors import India1853Error
from india1853.rules.game import steps
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.shares import exempt, ipo_available, issued, par, price
from india1853.rules.game.state import CompanyState, GameState, PlayerState

Json = dict[str, Any]

# The options after which the turn model looks for a way left to direct a company.
WARNED = ("place_bond", "claim_city", "buy_share")
# The rules a "no company left to direct" warning rests on (first edition: 22.1).
DIRECTING_RULES = "2.9.2, 3.2.1"


def float_need(rules: GameRules, st: GameState, co: CompanyState) -> Json:
    """What the company needs to float (2.7.5 / 16.7, TABLE 3) and who becomes its director
    (2.9.2, 3.2.1): ``qualifying``, ``issued``, ``needed`` (shares still to issue), ``floated``,
    ``text`` (one sentence) and ``rule``.  Public: the holdings are."""
    qualifying = rules.table.qualifying_shares
    done = issued(rules, co)
    needed = 0 if co.floated else max(0, qualifying - done)
    director = (f"its director is the largest holder of at least {rules.director_shares} "
                "shares (2.9.2, 3.2.1)")
    if co.floated:
        text = (f"{co.initials} has floated: {done} shares issued, TABLE 3's qualifying number "
                f"is {qualifying} (2.7.5); {director}")
    else:
        text = (f"{co.initials} floats when {qualifying} of its shares are issued, TABLE 3's "
                f"qualifying number (2.7.5): {done} issued, {needed} more needed; {director}")
    return {"qualifying": qualifying, "issued": done, "needed": needed, "floated": co.floated,
            "text": text, "rule": "2.7.5"}


@dataclass(frozen=True)
class Reach:
    """How far a player is from directing one company: ``shares`` more to get (``free`` of
    them by claims still open to his bid), costing ``cost``; ``blocked``: why no number of
    shares would do (the share limit, too few shares left), else None."""

    company: str
    shares: int
    free: int
    cost: int
    blocked: str | None = None


def spendable(rules: GameRules, st: GameState, player: PlayerState) -> int:
    """The cash a player may put into new shares: less the par of the shares his bid has
    claimed, paid at the end of the bids (2.7.2), or of his un-redeemed shares, redeemed before
    any purchase (2.7.4)."""
    if st.round in ("bonds", "claims"):
        owed = sum(rules.company(c).par for c in player.claims)
    else:
        owed = sum(rules.company(c).par * n for c, n in player.unredeemed.items())
    return max(0, player.cash - owed)


def _free_claims(rules: GameRules, st: GameState, player: PlayerState) -> int:
    """Shares the player's bid may still claim (2.5.4, 2.5.6, 2.5.9), counted generously: a
    city for each unclaimed place in the bid that the bond could still cover at the cheapest
    city's value.  None once the bids are over."""
    if st.round not in ("bonds", "claims") or player.bid_complete:
        return 0
    places = rules.table.bid_cities_max - len(player.cities)
    if player.bond is None:
        return places
    cheapest = min(c.bond_value for c in rules.cities)
    left = player.bond - sum(rules.city(c).bond_value for c in player.cities)
    return max(0, min(places, left // cheapest))


def reach(rules: GameRules, st: GameState, player: PlayerState, co: CompanyState,
          free_claims: int | None = None) -> Reach:
    """What ``player`` must still get to direct ``co`` on his own (module docstring);
    ``free_claims``: his bid's claims still open (:func:`_free_claims`) when already known."""
    initials = co.initials
    held = player.shares.get(initials, 0)
    if co.director == player.name:
        return Reach(initials, 0, 0, 0)
    top = max((p.shares.get(initials, 0) for p in st.players if p is not player), default=0)
    # 3.2.3: a sitting director keeps a tie; otherwise a tie may fall his way (3.2.1).
    target = max(rules.director_shares, top + 1 if co.director is not None else top)
    need = max(0, target - held)
    limit = rules.table.share_limit
    if limit is not None and target > limit and not exempt(rules, co):
        return Reach(initials, need, 0, 0,
                     f"{target} shares of {initials} would pass the limit of {limit} (3.1.2)")
    new, pool = ipo_available(rules, co), co.pool
    if need > new + pool:
        return Reach(initials, need, 0, 0, f"only {new + pool} {initials} shares are left "
                     "to get")
    if free_claims is None:
        free_claims = _free_claims(rules, st, player)
    free = min(need, new, free_claims)
    bought_new = min(need - free, new - free)
    bought_pool = need - free - bought_new
    cost = bought_new * par(rules, co) + bought_pool * price(rules, co)
    return Reach(initials, need, free, cost)


def ways_to_direct(rules: GameRules, st: GameState, name: str) -> list[Reach]:
    """The companies ``name`` could still direct on his own money, nearest first."""
    player = st.player(name)
    money = spendable(rules, st, player)
    free = _free_claims(rules, st, player)
    ways = [r for r in (reach(rules, st, player, co, free) for co in st.companies.values())
            if r.blocked is None and r.cost <= money]
    return sorted(ways, key=lambda r: (r.cost, r.shares))


def can_direct(rules: GameRules, st: GameState, name: str) -> bool:
    """Whether ``ways_to_direct`` finds any company (it stops at the first)."""
    player = st.player(name)
    money = spendable(rules, st, player)
    free = _free_claims(rules, st, player)
    return any(r.blocked is None and r.cost <= money
               for r in (reach(rules, st, player, co, free) for co in st.companies.values()))


def _nearest(rules: GameRules, st: GameState, name: str) -> str:
    """The company nearest to his reach, in words, with what it lacks."""
    player = st.player(name)
    money = spendable(rules, st, player)
    found = [reach(rules, st, player, co) for co in st.companies.values()]
    open_ = sorted((r for r in found if r.blocked is None), key=lambda r: (r.cost, r.shares))
    if not open_:
        return "every company is out of reach (" + "; ".join(
            r.blocked for r in found[:2] if r.blocked) + ")"
    r = open_[0]
    bought = r.shares - r.free
    return (f"the nearest, {r.company}, needs {r.shares} more share"
            f"{'' if r.shares == 1 else 's'}"
            + (f" ({bought} bought for £{r.cost})" if r.free else f" (£{r.cost})")
            + f" and you would have £{money}, not counting shares you might sell")


def shut_out_warnings(rules: GameRules, st: GameState, name: str,
                      actions: list[dict[str, Any]]) -> list[str | None]:
    """For each of player ``name``'s ``actions``: the warning it carries when it would leave
    him no company he could still direct with his cash, having had one before (module
    docstring); else None."""
    if not any(a.get("type") in WARNED for a in actions) or not can_direct(rules, st, name):
        return [None] * len(actions)
    return [_after(rules, st, name, a) if a.get("type") in WARNED else None for a in actions]


def _after(rules: GameRules, st: GameState, name: str, action: dict[str, Any]) -> str | None:
    trial = st.clone()
    step = steps.current(trial)
    if step is None:
        return None
    try:
        step.apply(rules, trial, dict(action), True)
    except India1853Error:
        return None  # not possible: the option is not offered
    if can_direct(rules, trial, name):
        return None
    return (f"after this you could not become the director of any company with your cash "
            f"alone ({DIRECTING_RULES}): {_nearest(rules, trial, name)}")


__all__ = ["DIRECTING_RULES", "WARNED", "Reach", "can_direct", "float_need", "reach",
           "shut_out_warnings", "spendable", "ways_to_direct"]
