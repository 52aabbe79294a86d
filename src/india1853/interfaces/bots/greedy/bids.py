"""The greedy bot's contract bids (2.5; first edition 14-16): a compact plan of the fewest
cities allowed, near each other and sharing a company, the bond just covering their values
(2.5.9); one share a city, of the company it concentrates on."""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import Any

from india1853.board.hexes import distance
from india1853.interfaces.bots.decision import Action, Decision
from india1853.interfaces.bots.greedy.common import (
    PLAN_CHOICES,
    BotBase,
    Knowledge,
    Plan,
    knowledge,
)


class ContractBids(BotBase):
    """Bonds, claims and the first edition's secret bids."""

    def _bond(self, k: Knowledge, d: Decision, options: list[Action]) -> Action:
        """2.5.2, 2.5.9: the bond covers the cities of a compact plan, and no more."""
        amounts = sorted(d.cost(a) for a in options)
        players = len(d.view["players"])
        low, _ = k.ed.tables.player_row(players).bid_cities or (3, 3)
        plans = [p for p in best_plans(k.ed.name, low) if p.value <= amounts[-1]]
        if plans:
            # Bonds are placed at once and in secret: a random focus company keeps the bots
            # from all bidding for the same shares.
            focus = self._rng.choice(sorted({p.focus for p in plans}))
            mine = [p for p in plans if p.focus == focus]
            self._plan = self._rng.choice(mine[:PLAN_CHOICES])
            target = self._plan.value
        else:
            target = amounts[0]
        amount = next((a for a in amounts if a >= target), amounts[-1])
        return next(a for a in options if d.cost(a) == amount)

    def _secret_bid(self, k: Knowledge, d: Decision, options: list[Action]) -> Action:
        """14-16 (first edition): a whole bid at once.  The bids concentrated on one company
        (the most shares of it, so that its qualifying number is near), then the cheapest bond
        (the engine's price of the bid, 14.4: a small bid keeps money for the dealing round);
        a random company among the best keeps the bots from all bidding for the same shares."""

        def concentration(a: Action) -> int:
            companies = [c["company"] for c in a["claims"]]
            return max(companies.count(c) for c in companies)

        best = max(concentration(a) for a in options)
        top = [a for a in options if concentration(a) == best]
        cheapest = min(d.cost(a) for a in top)
        return self._rng.choice([a for a in top if d.cost(a) == cheapest])

    def _claim(self, k: Knowledge, d: Decision, options: list[Action]) -> Action:
        """2.5.4-2.5.10: claim the plan's next city, with a share of the company the bid
        concentrates on; otherwise the city nearest the cities already named; pass when the
        bid may end.  The engine's legal claims decide what may be named (2.5.7's
        look-ahead included): a city of the plan that is not among them is skipped."""
        claims = [a for a in options if a["type"] == "claim_city"]
        me = self._me(d.view)
        named: list[str] = list(me["cities"] or [])
        passing = next((a for a in options if a["type"] == "pass"), None)
        plan_left = [c for c in (self._plan.cities if self._plan else ()) if c not in named]
        if passing is not None and (not plan_left or not claims):
            return passing
        if not claims:
            return passing if passing is not None else options[0]
        focus = self._focus(k, me)
        wanted = [a for a in claims if a["city"] in plan_left]
        pool = wanted or claims

        def score(a: Action) -> tuple[float, ...]:
            city = k.city_by_name[a["city"]]
            near = min((distance(city.hex, k.city_by_name[n].hex) for n in named), default=0)
            company = k.number_of[a["company"]]
            return (-near, company == focus, me["claims"].count(a["company"]), -city.bond_value)

        return max(pool, key=score)

    def _focus(self, k: Knowledge, me: dict[str, Any]) -> int:
        if self._plan is not None:
            return self._plan.focus
        claims: list[str] = me["claims"]
        if not claims:
            return 0
        return k.number_of[max(set(claims), key=claims.count)]


@cache
def best_plans(edition: str, size: int) -> tuple[Plan, ...]:
    """Contract bids of ``size`` cities, most compact first (2.5.6-2.5.9): every city shares a
    company with the plan's focus company, at most one Ganges-valley city (so that no plan
    meets 2.5.7 at any bid size; the claims themselves are the engine's legal ones), ranked
    by the length of the path through them, then the bond."""
    k = knowledge(edition)
    plans: list[tuple[int, int, Plan]] = []
    for company in k.ed.companies:
        cities = [c for c in k.ed.cities if company.number in c.companies]
        for combo in combinations(cities, size):
            if sum(c.ganges_valley for c in combo) > 1:
                continue
            span = _path_length([c.hex for c in combo])
            value = sum(c.bond_value for c in combo)
            plan = Plan(tuple(c.name for c in combo), value, company.number)
            plans.append((span, value, plan))
    plans.sort(key=lambda x: (x[0], x[1], x[2].cities))
    return tuple(p for _, _, p in plans)


def _path_length(hexes: list[str]) -> int:
    """A short path through the hexes: nearest neighbour from each start, the best kept."""
    best = 10**9
    for start in hexes:
        left = [h for h in hexes if h != start]
        here, total = start, 0
        while left:
            nxt = min(left, key=lambda h: distance(here, h))
            total += distance(here, nxt)
            left.remove(nxt)
            here = nxt
        best = min(best, total)
    return best
