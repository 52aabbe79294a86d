"""Stock rounds (3.1-3.4) and the first stock round's special rules (2.8, 2.9).

A turn: any number of sales and redemptions, then either one purchase or a pass (declining to
buy).  A purchase ends the turn.  The round ends when every player in a row has declined.
"""

from __future__ import annotations

from india1853.errors import RuleError
from india1853.rules.game import alt_start
from india1853.rules.game.bids import table
from india1853.rules.game.events import change, emit, paid
from india1853.rules.game.money import bank_breaks
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.shares import (
    add_shares,
    certificates,
    directors_sold,
    exempt,
    form,
    held_cards,
    ipo_available,
    issued,
    par,
    price,
    sell_directors_shares,
    update_control,
)
from india1853.rules.game.state import CompanyState, GameState, Pending, PlayerState, StockTurn
from india1853.rules.game.trains import add_minor_trains

# Stock rounds are numbered from 1; the first has the special rules of 2.8 and 2.9.
FIRST_STOCK_ROUND = 1


def first_round(st: GameState) -> bool:
    return st.stock_round == FIRST_STOCK_ROUND


def current_player(st: GameState) -> PlayerState:
    return st.players[st.stock.current]


def start_stock_round(rules: GameRules, st: GameState) -> None:
    """A stock round begins with the Elephant's holder (3.1.1)."""
    st.round = "stock"
    st.stock_round += 1
    names = st.player_names()
    st.stock = StockTurn(current=names.index(st.elephant) if st.elephant else 0)
    if first_round(st):
        if rules.first_stock_round_phase is not None:
            change(st, "phase", "", "2.8", st.phase, rules.first_stock_round_phase)
            st.phase = rules.first_stock_round_phase
        for co in st.companies.values():
            check_float(rules, st, co)
        # Companies floated by the bids: the first opportunity is each holder's first turn.
        st.stock.floated_this_turn = []


def contract_companies_open(rules: GameRules, st: GameState) -> bool:
    """Whether every new share of the contract companies has been issued (3.1.3)."""
    return all(ipo_available(rules, co) == 0 for co in st.companies.values() if co.contract)


def next_in_table1(rules: GameRules, st: GameState) -> str | None:
    """21.3 (first edition): once the contract companies' shares are all issued, the one
    company whose new shares are on offer - the first in TABLE 1 order not fully issued.
    None where the edition opens the others together (3.1.3)."""
    if not rules.policy.table1_order_after_contracts:
        return None
    for spec in rules.companies:
        co = st.companies[spec.initials]
        if not co.contract and ipo_available(rules, co) > 0:
            return co.initials
    return None


def bought_in_first_round(rules: GameRules, st: GameState, co: CompanyState) -> None:
    """Alternative Rules 3.0: "If shares in this Company are bought during the first Dealing
    Round it will start with TWO bases, the second one being at Bombay (NE). It will then run in
    the same manner as Companies 1 to 4" - the company of the variant's conditional home, with
    a share issued by the end of the first dealing round (the contract bids' shares included,
    docs/rulings.md), becomes one that lays two tiles, and forms with both homes."""
    variant = rules.second_home_variant
    if variant is None or co.formed or st.stock_round > FIRST_STOCK_ROUND or issued(rules, co) == 0:
        return
    if any(h.variant == variant for h in rules.company(co.initials).homes):
        co.kind = "major"


def check_float(rules: GameRules, st: GameState, co: CompanyState) -> None:
    """A company floats once the qualifying number of its shares is issued (2.7.5, 2.9.1;
    16.7, 17.1, 22.1); under Alternative Rules 1.0 only once someone holds two shares to
    exchange for the director's certificate.

    Second edition: in the first stock round its director is appointed only at the round's
    end (2.9.1); afterwards at once, and the company forms (3.2.1, 3.3.1).  First edition:
    always at once (17.1, 22.1, 23.1)."""
    bought_in_first_round(rules, st, co)
    if co.floated or issued(rules, co) < table(rules, st).qualifying_shares:
        return
    if alt_start.director_waits(rules, st, co):
        return
    co.floated = True
    emit(st, "floated", co.initials, "3.2.1")
    if (rules.policy.directors_at_first_round_end and first_round(st)
            and st.round in ("stock", "claims")):
        for p in st.players:
            if p.contracted.get(co.initials, 0) > 0:
                st.stock.first_sale_window.setdefault(p.name, []).append(co.initials)
        st.stock.floated_this_turn.append(co.initials)
        return
    update_control(rules, st, co)
    form(rules, st, co)


def sale_price(rules: GameRules, st: GameState, co: CompanyState) -> int:
    """Market price, or par; in the first stock round par less the discount (2.8.3, 3.1.7)."""
    if first_round(st):
        return par(rules, co) - rules.first_stock_round_sale_discount
    return price(rules, co)


def in_first_sale_window(st: GameState, player: PlayerState, co: CompanyState) -> bool:
    """Whether a sale of this company goes through 2.8.3's exception: the first stock round,
    the company floated, and this is the player's first opportunity after its flotation."""
    return (first_round(st) and co.floated
            and co.initials in st.stock.first_sale_window.get(player.name, []))


def _window_round(rules: GameRules, st: GameState, co: CompanyState) -> bool:
    """2.8.3 governs this sale: the second edition's first stock round, a floated company."""
    return rules.policy.directors_at_first_round_end and first_round(st) and co.floated


def sellable(rules: GameRules, st: GameState, player: PlayerState, co: CompanyState) -> int:
    """How many shares of the company the player may sell now (2.7.4, 2.8.3, 3.1.8, 3.1.9).

    2.8.3: in the first stock round a floated company's shares may be sold only through the
    window, and only the contracted (paid) shares not yet sold through it.  3.1.8: none in the
    round in which the company floated and formed, under a director or, when nobody held two
    shares, under a manager appointed in his place (3.2.2); a director appointed later, in a
    company already running, brings no new ban (docs/rulings.md)."""
    held = player.shares.get(co.initials, 0)
    free = held - player.unredeemed.get(co.initials, 0)
    if free <= 0:
        return 0
    if _window_round(rules, st, co):
        if not in_first_sale_window(st, player, co):
            return 0
        return max(0, min(free, player.contracted.get(co.initials, 0)
                          - player.unredeemed.get(co.initials, 0)))
    if no_sale_round(rules, st, co):
        return 0
    return free


def _shares(n: int) -> str:
    return f"{n} share{'' if n == 1 else 's'}"


def no_sale_round(rules: GameRules, st: GameState, co: CompanyState) -> bool:
    """3.1.8: this stock round floated and formed the company, so its shares may not be sold
    until the next one (the players' guide: "When a Company floats, you may not sell shares
    in it during the same SDR").  First edition, 18.1 and 21.8: none in the dealing round in
    which its director was first appointed (the first dealing round for the companies whose
    directors the contract bids appointed)."""
    if not rules.policy.directors_at_first_round_end:
        return co.had_director and co.first_director_round == st.stock_round
    return co.formed and co.formed_in_round == st.stock_round


def check_sell(
    rules: GameRules, st: GameState, player: PlayerState, initials: str, count: int
) -> None:
    """Why the player may not sell ``count`` shares of the company now (2.7.4, 2.8.3, 3.1.5,
    3.1.8), raised as the rule's error; nothing when he may."""
    co = st.companies[initials]
    held = player.shares.get(initials, 0)
    if held == 0:
        raise RuleError("3.1.5", f"{player.name} holds no {initials} share")
    if held < count:
        raise RuleError("3.1.5", f"{player.name} holds {_shares(held)} of {initials}, not "
                        f"{count}")
    unredeemed = player.unredeemed.get(initials, 0)
    if held - unredeemed < count:
        raise RuleError("2.7.4", f"{player.name} holds {_shares(held)} of {initials}, "
                        f"{unredeemed} of them un-redeemed, and un-redeemed shares may not be "
                        f"sold: at most {held - unredeemed} may be sold")
    allowed = sellable(rules, st, player, co)
    if count > allowed:
        if _window_round(rules, st, co):
            raise RuleError("2.8.3", f"{initials} floated: only contracted shares, at the first "
                            "opportunity after flotation, may be sold this round")
        if rules.policy.directors_at_first_round_end:
            raise RuleError("3.1.8", f"{initials} floated and formed this round; its shares "
                            "may not be sold until the next stock round")
        raise RuleError(rules.policy.no_sale_rule, f"{initials}'s director was appointed "
                        "this round; its shares may not be sold until the next dealing round")


def sell_shares(
    rules: GameRules, st: GameState, player: PlayerState, initials: str, count: int
) -> None:
    check_sell(rules, st, player, initials, count)
    co = st.companies[initials]
    window = in_first_sale_window(st, player, co)
    directors = directors_sold(rules, st, player, initials, count)
    amount = count * sale_price(rules, st, co)
    player.cash += amount
    st.bank -= amount
    paid(st, "bank", player.name, amount, "3.1.5", company=initials)
    emit(st, "shares_sold", player.name, "3.1.5", company=initials, count=count,
         proceeds=amount)
    bank_breaks(st)
    add_shares(st, player, initials, -count)
    if window:
        # 2.8.3: these were contracted shares; the allowance is used up by each sale, so a
        # second sale in the same window cannot reach the shares bought in this round.
        player.contracted[initials] -= count
    else:
        player.contracted[initials] = min(
            player.contracted.get(initials, 0), player.shares.get(initials, 0)
        )
    # MIK 2, GENERAL: a Director's Share sold goes to the discard stack, not the pool.
    co.pool += count - rules.director_shares * directors
    if directors:
        sell_directors_shares(rules, st, player, initials, directors)
    sold = st.stock.sold_this_round.setdefault(player.name, [])
    if initials not in sold:
        sold.append(initials)
    st.stock.sold_this_turn.append(initials)
    if co.formed:
        update_control(rules, st, co)


def check_redeem(rules: GameRules, player: PlayerState, initials: str) -> int:
    """The price of redeeming one of the player's un-redeemed shares: its par (2.7.4); a
    RuleError naming the money when he cannot pay it, or when he holds no such share."""
    if player.unredeemed.get(initials, 0) == 0:
        raise RuleError("2.7.4", f"{player.name} has no un-redeemed {initials} share")
    cost = rules.company(initials).par
    if player.cash < cost:
        raise RuleError("2.7.4", f"redeeming one {initials} share costs £{cost} (its par); "
                        f"{player.name} has £{player.cash}")
    return cost


def redeem_share(rules: GameRules, st: GameState, player: PlayerState, initials: str) -> None:
    """Redeeming pays par for one un-redeemed share; it is not a purchase (2.7.4)."""
    cost = check_redeem(rules, player, initials)
    player.cash -= cost
    st.bank += cost
    paid(st, player.name, "bank", cost, "2.7.4", company=initials)
    emit(st, "share_redeemed", player.name, "2.7.4", company=initials, price=cost)
    player.unredeemed[initials] -= 1
    if player.unredeemed[initials] == 0:
        del player.unredeemed[initials]


def buy_cost(rules: GameRules, co: CompanyState, source: str) -> int:
    """New shares at par (3.1.4), pool shares at the market price (3.1.7)."""
    return par(rules, co) if source == "ipo" else price(rules, co)


def share_limit_reason(rules: GameRules, limit: int, player: PlayerState,
                       initials: str) -> str:
    """3.1.2 / TABLE 3 in words with the numbers: "at most 6 shares (60%) of one company; Ann
    holds 6 EIR shares"."""
    percent = 100 * limit // rules.shares_per_company
    held = player.shares.get(initials, 0)
    return (f"at most {limit} shares ({percent}%) of one company; {player.name} holds "
            f"{_shares(held)} of {initials}")


def check_buy(
    rules: GameRules, st: GameState, player: PlayerState, initials: str, source: str
) -> int:
    co = st.companies[initials]
    if any(player.unredeemed.values()):
        raise RuleError("2.7.4", "un-redeemed shares must be redeemed before buying")
    if initials in st.stock.sold_this_round.get(player.name, []):
        raise RuleError("3.1.9", f"{player.name} sold {initials} this round")
    if source == "ipo":
        if ipo_available(rules, co) == 0:
            raise RuleError("3.1.4", f"no new {initials} share is on sale")
        if rules.share_by_share_start:
            # Alternative Rules 1.0 replaces the contract companies' precedence and 21.3.
            alt_start.check_offer(rules, st, initials)
        elif not co.contract and not contract_companies_open(rules, st):
            raise RuleError("3.1.3", "the contract companies' shares must all be issued first")
        nxt = None if rules.share_by_share_start else next_in_table1(rules, st)
        if not co.contract and nxt is not None and nxt != initials:
            raise RuleError("21.3", f"new shares are sold in TABLE 1 order, each company's "
                            f"fully issued first: {nxt}'s are on offer, not {initials}'s")
    elif co.pool == 0:
        raise RuleError("3.1.7", f"the bank pool holds no {initials} share")
    elif first_round(st) and rules.first_round_pool_closed:
        # 2.8.1 (first edition 17): "once sold they may not be bought from the Pool until the
        # NEXT Stock Round" - the shares, by anyone (the seller is barred anyway, 3.1.9).  The
        # pool is empty when the first stock round begins, so every share in it was sold in
        # this round (docs/rulings.md).
        raise RuleError("2.8.1", f"the {initials} shares in the bank pool were sold in this "
                        "first stock round; nobody may buy them until the next stock round")
    t = table(rules, st)
    if not exempt(rules, co):
        if t.share_limit is not None and player.shares.get(initials, 0) + 1 > t.share_limit:
            raise RuleError("3.1.2", share_limit_reason(rules, t.share_limit, player, initials))
        held = certificates(rules, st, player) + held_cards(st, player)
        if held + 1 > t.certificate_limit:
            raise RuleError("3.1.2", f"at most {t.certificate_limit} certificates "
                            f"({player.name} holds {held})")
    cost = buy_cost(rules, co, source)
    if player.cash < cost:
        raise RuleError("3.1.4", f"the share costs £{cost}; {player.name} has £{player.cash}")
    return cost


def buy_share(
    rules: GameRules, st: GameState, player: PlayerState, initials: str, source: str
) -> None:
    cost = check_buy(rules, st, player, initials, source)
    co = st.companies[initials]
    player.cash -= cost
    st.bank += cost
    paid(st, player.name, "bank", cost, "3.1.4", company=initials)
    emit(st, "share_bought", player.name, "3.1.4", company=initials, source=source,
         price=cost)
    add_shares(st, player, initials, 1)
    if source == "ipo":
        co.ipo -= 1
    else:
        co.pool -= 1
    st.stock.last_buyer = player.name
    st.stock.passes_in_row = 0
    check_float(rules, st, co)
    if co.formed:
        update_control(rules, st, co)
    end_turn(rules, st)


def over_limit(rules: GameRules, st: GameState, player: PlayerState) -> bool:
    """A player left above the certificate limit (e.g. by losing a directorship) must sell
    down in the next turn (3.2.3), as far as sales are allowed."""
    if certificates(rules, st, player) <= table(rules, st).certificate_limit:
        return False
    return any(
        sellable(rules, st, player, co) > 0 and not exempt(rules, co)
        for co in st.companies.values()
    )


def decline(rules: GameRules, st: GameState, player: PlayerState) -> None:
    if over_limit(rules, st, player):
        raise RuleError("3.2.3", f"{player.name} must first sell down to the certificate limit")
    st.stock.passes_in_row += 1
    end_turn(rules, st)


def end_turn(rules: GameRules, st: GameState) -> None:
    player = current_player(st)
    window = st.stock.first_sale_window.get(player.name, [])
    # 2.8.3: the first opportunity after flotation is this turn, unless the company floated
    # during it, when the player may not sell it anyway (3.1.9) and the next turn is the one.
    st.stock.first_sale_window[player.name] = [
        c for c in window if c in st.stock.floated_this_turn
    ]
    st.stock.floated_this_turn = []
    st.stock.sold_this_turn = []
    if st.stock.passes_in_row >= len(st.players):
        end_stock_round(rules, st)
        return
    st.stock.current = (st.stock.current + 1) % len(st.players)


def end_stock_round(rules: GameRules, st: GameState) -> None:
    """3.1.11: the Elephant goes to the left of the last buyer; its holder may sell it (the
    round is over once the sale is settled: ``sequence``).
    At the end of the first stock round directors are appointed (2.9), companies form, the
    BBCI's type is settled (2.6) and the extra trains are added (2.8.4)."""
    if first_round(st) and rules.policy.directors_at_first_round_end:
        finish_first_stock_round(rules, st)
    if first_round(st):
        for co in st.companies.values():
            bought_in_first_round(rules, st, co)
    if first_round(st) and rules.minimum_companies:
        appoint_minimum_companies(rules, st)
    names = st.player_names()
    if st.stock.last_buyer is not None:
        holder = names[(names.index(st.stock.last_buyer) + 1) % len(names)]
        change(st, "elephant", "", "3.1.11", st.elephant, holder)
        st.elephant = holder
    st.elephant_offers = []
    assert st.elephant is not None
    st.pending.append(Pending("elephant_sale", st.elephant, "player"))
    st.round = "stock_end"


def appoint_minimum_companies(rules: GameRules, st: GameState) -> None:
    """19, MINIMUM NUMBER OF COMPANIES: at the end of the first dealing round, directors are
    appointed below the qualifying number until the minimum runs - the companies with more
    shares issued first, then the higher par; never where nobody holds two shares, so the
    option may have to be waived in part."""
    running = sum(1 for co in st.companies.values() if co.formed)
    candidates = sorted(
        (co for co in st.companies.values() if not co.floated and any(
            p.shares.get(co.initials, 0) >= rules.director_shares for p in st.players)),
        key=lambda co: (-issued(rules, co), -par(rules, co)))
    for co in candidates[:max(0, rules.minimum_companies - running)]:
        co.floated = True
        emit(st, "floated", co.initials, "19")
        update_control(rules, st, co)
        form(rules, st, co)


def finish_first_stock_round(rules: GameRules, st: GameState) -> None:
    for co in st.companies.values():
        if not co.floated:
            continue
        update_control(rules, st, co)
        settle_bbci(rules, st, co)
        form(rules, st, co)
    if any(co.formed and co.kind == "minor" for co in st.companies.values()):
        add_minor_trains(rules, st)


def settle_bbci(rules: GameRules, st: GameState, co: CompanyState) -> None:
    """2.6.2-2.6.3: the BBCI is a major if its director's bid names both required cities."""
    if rules.bbci is None or co.initials != rules.bbci.initials:
        return
    director = st.player(co.director) if co.director else None
    needed = rules.bbci_major_cities()
    if director is not None and all(c in director.cities for c in needed):
        co.kind = "major"
    else:
        co.kind = "minor"

