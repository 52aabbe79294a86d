"""Contract bids, seating and the payment for contracted shares (2.5, 2.7).

Stage 1: every player places a secret bond (2.5.2).  When all are in, the seating follows the
bonds, largest first, ties by lot from the seed (2.5.3).  Stage 2: in turn, each player writes a
city (secret) and claims one share of that city's companies (public), or passes when the bid may
be complete (2.5.4-2.5.10).  Then every player pays par for the contracted shares in company
order; those they cannot afford stay un-redeemed (2.7.2-2.7.3).
"""

from __future__ import annotations

import random

from india1853.errors import India1853Error, RuleError
from india1853.rules.game.events import change, emit, paid
from india1853.rules.game.rules_data import GameRules, PlayerCountRules
from india1853.rules.game.shares import add_shares
from india1853.rules.game.state import GameState, PlayerState

# The size of bid that 2.5.7's stricter limit (RuleParams.bid_ganges_limit_three_cities) names.
THREE_CITY_BID = 3


def table(rules: GameRules, st: GameState) -> PlayerCountRules:
    return rules.table


def cheapest_city(rules: GameRules) -> int:
    return min(c.bond_value for c in rules.cities)


def bond_values(rules: GameRules, player: PlayerState) -> int:
    return sum(rules.city(c).bond_value for c in player.cities)


def unaccounted(rules: GameRules, player: PlayerState) -> int:
    assert player.bond is not None
    return player.bond - bond_values(rules, player)


def _ganges(rules: GameRules, cities: list[str]) -> tuple[int, int]:
    """(Ganges valley cities, those of them not exempt in a small bid) (2.5.7)."""
    valley = [c for c in cities if rules.city(c).ganges_valley]
    return len(valley), len([c for c in valley if c not in rules.ganges_three_city_also])


def may_end_bid(
    rules: GameRules, st: GameState, cities: list[str], left: int
) -> RuleError | None:
    """Why a bid with these cities and this much unaccounted bond may not end, or None.

    2.5.4: not below the minimum number of cities, nor below the maximum with the pass
    threshold or more of the bond unaccounted for; 2.5.7: a bid of the small size may hold
    only one valley city besides the exempt ones (the players' guide's reading).
    """
    t = table(rules, st)
    n = len(cities)
    if n < t.bid_cities_min:
        return RuleError("2.5.4", f"a bid needs at least {t.bid_cities_min} cities")
    limit = rules.bond_pass_unaccounted
    if n < t.bid_cities_max and limit is not None and left >= limit:
        return RuleError(
            "2.5.4",
            f"£{left} of the bond is unaccounted for; claim more cities "
            f"(up to {t.bid_cities_max})",
        )
    _, strict = _ganges(rules, cities)
    three = rules.ganges_three_city_limit
    if n == THREE_CITY_BID and three is not None and strict > three:
        return RuleError(
            "2.5.7",
            f"a bid of {n} cities may include only {three} of the Ganges valley cities "
            f"besides {', '.join(rules.ganges_three_city_also)}",
        )
    return None


def completion_blocker(
    rules: GameRules, st: GameState, cities: list[str], left: int
) -> RuleError | None:
    """Why a bid cannot be brought to a legal end by adding the cheapest cities, or None.

    Lookahead for 2.5.4/2.5.7/2.5.9 so that a player is never stuck with a bid that may neither
    end nor grow: further cities are costed at the cheapest bond value, outside the valley.
    When some completion has enough cities and money but breaks the Ganges limit, that limit
    (2.5.7) is the reason; otherwise the bid cannot reach a legal size (2.5.6).
    """
    t = table(rules, st)
    step = cheapest_city(rules)
    n, money = len(cities), left
    padding: list[str] = []
    ganges: RuleError | None = None
    while True:
        reason = may_end_bid(rules, st, cities + padding, money)
        if reason is None:
            return None
        if reason.rule == "2.5.7":
            ganges = reason
        if n >= t.bid_cities_max or money < step:
            return ganges or RuleError(
                "2.5.6", f"the bid could not be completed legally ({len(cities)} cities, "
                f"£{left} of the bond unaccounted for)")
        n += 1
        money -= step
        padding.append(_filler(rules, cities + padding))


def completable(rules: GameRules, st: GameState, cities: list[str], left: int) -> bool:
    """Whether a bid can still be brought to a legal end (see :func:`completion_blocker`)."""
    return completion_blocker(rules, st, cities, left) is None


def _filler(rules: GameRules, taken: list[str]) -> str:
    cheapest = cheapest_city(rules)
    for c in rules.cities:
        if c.bond_value == cheapest and not c.ganges_valley and c.name not in taken:
            return c.name
    raise RuleError("2.5.8", "no city left to complete a bid")


def place_bond(rules: GameRules, st: GameState, player: PlayerState, amount: int) -> None:
    """Stage 1: the secret bond (2.5.2), at least the edition's minimum for the player count."""
    if player.bond is not None:
        raise RuleError("2.5.2", f"{player.name} has already placed a bond")
    t = table(rules, st)
    if amount < (t.minimum_bond or 0):
        raise RuleError("2.5.2", f"the minimum bond with {len(st.players)} players is "
                        f"£{t.minimum_bond}")
    if amount > player.cash:
        raise RuleError("2.5.2", f"{player.name} has only £{player.cash}")
    if not completable(rules, st, [], amount):
        raise RuleError("2.5.6", f"a bond of £{amount} cannot cover a legal bid")
    player.cash -= amount
    player.bond = amount
    emit(st, "bond_placed", player.name, "2.5.2", amount=amount)
    if all(p.bond is not None for p in st.players):
        seat(st)


def seat(st: GameState) -> None:
    """Seating by bond, largest first; ties by lot, using the seed (2.5.3)."""
    rng = random.Random(f"{st.seed}:seating")
    lots = {p.name: rng.random() for p in st.players}
    st.players.sort(key=lambda p: (-(p.bond or 0), lots[p.name]))
    emit(st, "bonds_revealed", "", "2.5.3",
         bonds=[[p.name, p.bond] for p in st.players if p.bond is not None])
    change(st, "elephant", "", "2.5.3", st.elephant, st.players[0].name)
    st.elephant = st.players[0].name
    st.round = "claims"
    st.stock.current = 0


def claims_of(st: GameState, initials: str) -> int:
    return sum(p.claims.count(initials) for p in st.players)


def check_claim(
    rules: GameRules, st: GameState, player: PlayerState, city: str, initials: str
) -> None:
    """Stage 2 claim: a city and one share of a company numbered on it (2.5.4-2.5.10)."""
    try:
        spec = rules.city(city)
    except India1853Error:
        raise RuleError("2.5.8", f"{city!r} is not a city that a bid may name") from None
    if city in player.cities:
        raise RuleError("2.5.4", f"{city} is already in the bid")
    try:
        number = rules.company(initials).number
    except India1853Error:
        raise RuleError("2.5.5", f"unknown company {initials!r}") from None
    if number not in spec.companies:
        raise RuleError("2.5.5", f"{city} carries no share of {initials}")
    t = table(rules, st)
    if len(player.cities) >= t.bid_cities_max:
        raise RuleError("2.5.6", f"a bid may name at most {t.bid_cities_max} cities")
    ordinary = rules.shares_per_company - rules.director_shares
    if claims_of(st, initials) >= ordinary:
        raise RuleError("2.5.10", f"no {initials} share is left to claim")
    if t.share_limit is not None and player.shares.get(initials, 0) + 1 > t.share_limit:
        percent = 100 * t.share_limit // rules.shares_per_company
        raise RuleError("3.1.2", f"at most {t.share_limit} shares ({percent}%) of one company; "
                        f"{player.name} holds {player.shares.get(initials, 0)} of {initials}")
    cities = [*player.cities, city]
    assert player.bond is not None
    left = player.bond - bond_values(rules, player) - spec.bond_value
    if left < 0:
        raise RuleError("2.5.9", f"the cities' values would exceed the bond of £{player.bond}")
    valley, _ = _ganges(rules, cities)
    if valley > rules.ganges_limit:
        raise RuleError("2.5.7", f"a bid may include at most {rules.ganges_limit} "
                        f"Ganges valley cities; with {city} it would name {valley}")
    blocker = completion_blocker(rules, st, cities, left)
    if blocker is not None:
        detail = str(blocker).removeprefix(f"rule {blocker.rule}: ")
        raise RuleError(blocker.rule, f"with {city} {detail}")


def claim_city(
    rules: GameRules, st: GameState, player: PlayerState, city: str, initials: str
) -> None:
    check_claim(rules, st, player, city, initials)
    emit(st, "city_claimed", player.name, "2.5.4", company=initials, city=city)
    player.cities.append(city)
    player.claims.append(initials)
    player.contracted[initials] = player.contracted.get(initials, 0) + 1
    add_shares(st, player, initials, 1)
    co = st.companies[initials]
    co.ipo -= 1
    co.contract = True
    next_bidder(rules, st)


def end_bid(rules: GameRules, st: GameState, player: PlayerState) -> None:
    """A pass in stage 2 ends the player's bid for good (2.5.4)."""
    reason = may_end_bid(rules, st, player.cities, unaccounted(rules, player))
    if reason is not None and any_claim(rules, st, player):
        raise reason
    player.bid_complete = True
    next_bidder(rules, st)


def legal_claims(rules: GameRules, st: GameState, player: PlayerState) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for spec in rules.cities:
        for number in spec.companies:
            initials = rules.ed.company(number).initials
            try:
                check_claim(rules, st, player, spec.name, initials)
            except RuleError:
                continue
            out.append((spec.name, initials))
    return out


def any_claim(rules: GameRules, st: GameState, player: PlayerState) -> bool:
    return bool(legal_claims(rules, st, player))


def next_bidder(rules: GameRules, st: GameState) -> None:
    n = len(st.players)
    for step in range(1, n + 1):
        i = (st.stock.current + step) % n
        if not st.players[i].bid_complete:
            st.stock.current = i
            return
    settle(rules, st)


def pay_for_shares(rules: GameRules, st: GameState, player: PlayerState,
                   issued: list[str]) -> None:
    """Par for each share issued to the player by his bid, the dearest first; those he cannot
    afford stay un-redeemed, the cheapest ones (2.7.2, 2.7.3; 16.4-16.5)."""
    par_order = sorted(issued, key=lambda i: (-rules.company(i).par, rules.company(i).number))
    short = False
    for initials in par_order:
        cost = rules.company(initials).par
        if not short and player.cash >= cost:
            player.cash -= cost
            st.bank += cost
            paid(st, player.name, "bank", cost, "2.7.2", company=initials)
        else:
            # Once one share is unaffordable the rest are the cheapest (2.7.3, 16.5).
            short = True
            player.unredeemed[initials] = player.unredeemed.get(initials, 0) + 1


def settle(rules: GameRules, st: GameState) -> None:
    """Payment for contracted shares in company order; what a player cannot afford stays
    un-redeemed, the cheapest shares (2.7.2, 2.7.3).  The contract bids are over (the first
    stock round follows, 2.8)."""
    for player in st.players:
        cash, unredeemed = player.cash, sum(player.unredeemed.values())
        pay_for_shares(rules, st, player, player.claims)
        if player.claims:
            emit(st, "claims_settled", player.name, "2.7.2 / 2.7.3",
                 claimed=len(player.claims), paid=cash - player.cash,
                 unredeemed=sum(player.unredeemed.values()) - unredeemed)
    st.end_round()
