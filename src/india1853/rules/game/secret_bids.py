"""First-edition contract bids, seating and the issue of shares (rules 14-17).

14: every player makes his whole bid - the cities, the share claimed against each, and the bond
equal to the cities' values - secretly and at once (one ``submit_bid`` action each, in any
order).  When the last bid is in:

15: the seating follows the bonds, largest first; equal bonds by the total par value of the
shares claimed (15.3); bids for exactly the same shares by the cities farthest apart, the
cities then being declared (15.4); and otherwise by lot, from the seed (15.5).
16: the shares are issued in seating order, the earlier seats first when a company is
over-subscribed (16.2, 16.3), and paid for; those a player cannot afford stay un-redeemed, the
cheapest (16.4-16.6).
17: the first dealing round begins (18); as it opens, every company with its qualifying number
issued gets its director - ties go to the earlier seat, because every holding began with the
same action and the players are ranked in seating order (17.2) - and forms (17.3, 23).
"""

from __future__ import annotations

import random
from collections import Counter

from india1853.board.hexes import distance
from india1853.errors import India1853Error, InputError, RuleError
from india1853.rules.game.bids import pay_for_shares
from india1853.rules.game.events import change, emit
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.shares import add_shares
from india1853.rules.game.state import GameState, PlayerState


def parse_claims(claims: object) -> list[tuple[str, str]]:
    """The ``claims`` field: a list of {"city", "company"} objects."""
    if not isinstance(claims, list):
        raise InputError("action submit_bid.claims: must be a list of {city, company} objects")
    out: list[tuple[str, str]] = []
    for i, c in enumerate(claims):
        where = f"action submit_bid.claims[{i}]"
        if not isinstance(c, dict) or set(c) != {"city", "company"}:
            raise InputError(f"{where}: must be an object with city and company")
        city, company = c["city"], c["company"]
        if not isinstance(city, str) or not isinstance(company, str):
            raise InputError(f"{where}: city and company must be strings")
        out.append((city, company))
    return out


def check_bid(rules: GameRules, st: GameState, player: PlayerState,
              claims: list[tuple[str, str]]) -> tuple[list[str], list[str], int]:
    """A bid's cities, claimed companies and bond, or the rule it breaks (14.2-14.5)."""
    if player.bond is not None:
        raise RuleError("14.1", f"{player.name} has already made a bid")
    t = rules.table
    if not t.bid_cities_min <= len(claims) <= t.bid_cities_max:
        raise RuleError("14.2", f"a bid names {t.bid_cities_min} to {t.bid_cities_max} cities "
                        f"with {len(st.players)} players, not {len(claims)}")
    cities: list[str] = []
    companies: list[str] = []
    for city, company in claims:
        try:
            spec = rules.city(city)
        except India1853Error:
            raise RuleError("14.3", f"{city!r} is not a named city (un-named towns may not "
                            "form part of a bid)") from None
        if spec.name in cities:
            raise RuleError("14.5", f"{spec.name} is named twice")
        try:
            co = rules.company(company)
        except India1853Error:
            raise InputError(f"action submit_bid.claims: unknown company {company!r}") from None
        if co.number not in spec.companies:
            raise RuleError("16.1", f"{spec.name} carries no share of {co.initials}")
        cities.append(spec.name)
        companies.append(co.initials)
    valley = [c for c in cities if rules.city(c).ganges_valley]
    if len(valley) > rules.ganges_limit:
        raise RuleError("14.3", f"a bid may include at most {rules.ganges_limit} cities of the "
                        f"Ganges valley (named {', '.join(valley)})")
    for initials, n in Counter(companies).items():
        if t.share_limit is not None and n > t.share_limit:
            raise RuleError("21.2", f"at most {t.share_limit} shares of one company "
                            f"({initials})")
    bond = sum(rules.city(c).bond_value for c in cities)
    if bond > player.cash:
        raise RuleError("14.4", f"the bond is £{bond}; {player.name} has £{player.cash}")
    return cities, companies, bond


def submit_bid(rules: GameRules, st: GameState, player: PlayerState,
               claims: list[tuple[str, str]]) -> None:
    """14.1-14.5: the secret bid and its bond; the last one settles them all."""
    cities, companies, bond = check_bid(rules, st, player, claims)
    player.cash -= bond
    player.bond = bond
    player.cities = cities
    player.claims = companies
    emit(st, "bid_submitted", player.name, "14.5", bond=bond,
         claims=[{"company": co, "city": city} for city, co in claims])
    player.bid_complete = True
    if all(p.bond is not None for p in st.players):
        settle_bids(rules, st)


def claimed_value(rules: GameRules, player: PlayerState) -> int:
    """15.3: the total (par) value of the shares the player claims."""
    return sum(rules.company(i).par for i in player.claims)


def spread(rules: GameRules, player: PlayerState) -> int:
    """15.4: how far apart the bid's cities are: the greatest distance in hexes between two of
    them (docs/rulings.md)."""
    hexes = [rules.city(c).hex for c in player.cities]
    return max((distance(a, b) for a in hexes for b in hexes), default=0)


def seat(rules: GameRules, st: GameState) -> None:
    """15.2-15.5: the seating order and the Elephant."""
    rng = random.Random(f"{st.seed}:seating")
    lots = {p.name: rng.random() for p in st.players}
    same_shares = Counter((p.bond, tuple(sorted(p.claims))) for p in st.players)
    for p in st.players:
        # 15.4: players who bid for exactly the same shares must declare their cities.
        if same_shares[(p.bond, tuple(sorted(p.claims)))] > 1:
            p.declared = True
    st.players.sort(key=lambda p: (-(p.bond or 0), -claimed_value(rules, p),
                                   -spread(rules, p) if p.declared else 0, lots[p.name]))
    change(st, "elephant", "", "15.5", st.elephant, st.players[0].name)
    st.elephant = st.players[0].name


def issue_shares(rules: GameRules, st: GameState) -> None:
    """16.2-16.3: every player receives the shares of his bid, in seating order; a company's
    ordinary shares (all but the director's certificate) go to the earlier seats first."""
    ordinary = rules.shares_per_company - rules.director_shares
    for p in st.players:
        issued: list[str] = []
        for initials in p.claims:
            co = st.companies[initials]
            if rules.shares_per_company - co.ipo >= ordinary:
                continue  # 16.3: over-subscribed; the earlier seats had them
            co.ipo -= 1
            co.contract = True
            add_shares(st, p, initials, 1)
            p.contracted[initials] = p.contracted.get(initials, 0) + 1
            issued.append(initials)
        pay_for_shares(rules, st, p, issued)


def settle_bids(rules: GameRules, st: GameState) -> None:
    """15, 16; the bids are over (then 18: the first dealing round, whose opening appoints
    the directors, 17)."""
    seat(rules, st)
    issue_shares(rules, st)
    st.end_round()


def sample_bids(rules: GameRules, st: GameState,
                player: PlayerState) -> list[list[tuple[str, str]]]:
    """A selection of legal bids for the lists of legal actions (every legal bid is too many
    to list; ``submit_bid`` accepts any): for each city and each company numbered on it, the
    smallest bid of that city and its nearest cities, claiming that company wherever it can."""
    out: list[list[tuple[str, str]]] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    size = rules.table.bid_cities_min
    for first in rules.cities:
        others = sorted((c for c in rules.cities if c.name != first.name),
                        key=lambda c: (distance(first.hex, c.hex), c.name))
        for number in first.companies:
            bid = [first]
            for c in others:
                if len(bid) == size:
                    break
                valley = sum(1 for b in [*bid, c] if b.ganges_valley)
                if valley <= rules.ganges_limit:
                    bid.append(c)
            initials = rules.ed.company(number).initials
            claims = [(c.name, initials if number in c.companies
                       else rules.ed.company(c.companies[0]).initials) for c in bid]
            key = tuple(sorted(claims))
            if key in seen:
                continue
            try:
                check_bid(rules, st, player, claims)
            except RuleError:
                continue
            seen.add(key)
            out.append(claims)
    return out
