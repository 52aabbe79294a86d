"""Operating rounds (4.1-4.10) and the end of the game (5.1).

A company's operating turn walks through the steps of section 4 in order:

``lay_option`` (a major's first turn, 4.1.3) -> ``track`` (lays or one promotion, 4.1-4.2;
contracts checked after each tile, 4.3; frontier bonuses after the last lay, 4.1.14) ->
``base`` (4.4) -> ``run`` (4.5) -> ``dividend`` (4.6-4.7) -> ``trains`` (4.8) -> next company.
After the last company the round is over; what follows it (4.9, 4.10, 5.1.2) the sequencer
decides (``sequence``).

Steps with nothing to decide are skipped (a company without trains does not run; a manager,
or a run earning nothing, withholds).  The board work is delegated to ``board_port``, which
calls the construction and router modules.
"""

from __future__ import annotations

from india1853.errors import RuleError
from india1853.rules.game import board_port, events
from india1853.rules.game.money import bank_breaks, company_receives
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import CompanyState, GameState, OperatingTurn

STEPS: tuple[str, ...] = ("lay_option", "track", "base", "run", "dividend", "trains")


def start_operating_round(rules: GameRules, st: GameState) -> None:
    """Companies operate in TABLE 1 order; those not formed are left out (section 4).  The
    first of them begins with :func:`first_company`."""
    st.round = "operating"
    st.operating_round += 1
    st.or_in_set += 1
    order = [c.initials for c in rules.companies if st.companies[c.initials].formed]
    st.turn = OperatingTurn(order=order, index=-1)


def first_company(rules: GameRules, st: GameState) -> None:
    """The round's first company begins its turn."""
    st.round = "operating"
    next_company(rules, st)


def current_company(st: GameState) -> CompanyState:
    return st.companies[st.turn.order[st.turn.index]]


def next_company(rules: GameRules, st: GameState) -> None:
    if st.round == "finished":
        return
    st.turn.index += 1
    if st.turn.index >= len(st.turn.order):
        st.end_round()
        return
    order, index = st.turn.order, st.turn.index
    st.turn = OperatingTurn(order=order, index=index)
    co = current_company(st)
    choice = board_port.lay_option_offered(rules)
    st.turn.step = "lay_option" if choice and co.kind == "major" and co.lay_option is None \
        else "track"


def advance(rules: GameRules, st: GameState) -> None:
    """Leave the current step for the next one that needs a decision."""
    co = current_company(st)
    step = st.turn.step
    if step == "track":
        board_port.pay_frontier_bonuses(rules, st, co)
    i = STEPS.index(step) + 1
    while i < len(STEPS):
        st.turn.step = STEPS[i]
        if STEPS[i] == "run" and not st.company_trains(co.initials):
            i += 1
            continue
        if STEPS[i] == "dividend" and (st.turn.revenue == 0 or co.director is None):
            # 3.4.2: a manager must not declare a dividend; nothing earned, nothing to pay.
            settle_dividend(rules, st, co, payout=False)
            if st.round == "finished":
                return
            i += 1
            continue
        return
    end_company_turn(rules, st)


def end_company_turn(rules: GameRules, st: GameState) -> None:
    co = current_company(st)
    co.operated += 1
    next_company(rules, st)


def choose_lay_option(rules: GameRules, st: GameState, co: CompanyState, option: int) -> None:
    """4.1.3: a major's director chooses when and at what cost it may lay two tiles."""
    if option not in (1, 2):
        raise RuleError("4.1.3", "the option must be 1 (two lays from the later phase) or 2 "
                        "(two lays now, paying each time)")
    co.lay_option = option
    st.turn.step = "track"


def settle_dividend(rules: GameRules, st: GameState, co: CompanyState, *, payout: bool) -> None:
    """4.6.4-4.6.5: pay the run in full to the shareholders (10% of it per share held;
    un-redeemed, pool and unissued shares get nothing) or withhold it; then 4.7.1."""
    revenue = st.turn.revenue
    price_before = rules.market[co.price_index or 0]
    if payout:
        if co.director is None:
            raise RuleError("3.4.2", f"{co.initials} is run by a manager, who must not pay")
        if revenue <= 0:
            raise RuleError("4.6.4", "there is no revenue to pay out")
        per_share = revenue // rules.shares_per_company
        for p in st.players:
            paid = p.shares.get(co.initials, 0) - p.unredeemed.get(co.initials, 0)
            if paid > 0:
                p.cash += per_share * paid
                st.bank -= per_share * paid
                events.paid(st, "bank", p.name, per_share * paid, "4.6.4", company=co.initials)
    else:
        company_receives(rules, st, co, revenue, "4.6.5")
    bank_breaks(st)
    events.emit(st, "dividend", co.initials, "4.6.4" if payout else "4.6.5",
                kind="payout" if payout else "withhold", revenue=revenue)
    move_price(rules, co, payout=payout, dividend=revenue, price=price_before)
    events.change(st, "price", co.initials, "4.7.1", price_before,
                  rules.market[co.price_index or 0])
    if rules.market[co.price_index or 0] >= rules.game_end_price:
        # 5.1.3: the game stops at once, after this dividend.
        finish(st, "share_price")


def move_price(rules: GameRules, co: CompanyState, *, payout: bool, dividend: int,
               price: int) -> None:
    """4.7.1: move the company's marker after its dividend decision (see
    :func:`price_after_dividend`)."""
    co.price_index = _moved_index(rules, co, payout=payout, dividend=dividend, price=price)


def price_after_dividend(rules: GameRules, co: CompanyState, *, payout: bool,
                         dividend: int) -> int:
    """The market index the company's marker would reach if its run of ``dividend`` were
    paid out or withheld now (4.7.1, 4.7.3)."""
    price = rules.market[co.price_index or 0]
    return _moved_index(rules, co, payout=payout, dividend=dividend, price=price)


def _moved_index(rules: GameRules, co: CompanyState, *, payout: bool, dividend: int,
                 price: int) -> int:
    """4.7.1 (second edition's scale): withheld, down one if the pool holds shares; paid,
    up one to five spaces by multiples of the price; 4.7.3: never below the bottom.  34.7
    (first edition): up one on any dividend; Alternative Rules 2.0: by the dividend's size."""
    movement = rules.price_movement
    if payout:
        steps = movement.dividend_move(dividend, price)
    elif co.pool > 0:
        steps = movement.no_dividend_with_pool_shares
    else:
        steps = movement.no_dividend_without_pool_shares
    return rules.market.index(rules.ed.market.move(price, steps))


def finish(st: GameState, reason: str) -> None:
    """5.1: the game is over."""
    st.round = "finished"
    st.end_reason = reason
    st.pending = []
