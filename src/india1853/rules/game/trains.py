"""Trains and phases (2.8.4, 3.4.3-3.4.6, 4.8, 4.10).

Each train card is a :class:`TrainState`.  A dual-option card (the 2009 '2/1M', 4.8.16) is one
card that a buyer takes as either type; ``runs_as`` records the choice.  Which cards the bank
offers a company follows 4.8.3 (broad types in order, the '6' beside the '5'), 4.8.6 (returned
trains at full price), 4.8.12-4.8.13 and 4.8.15 (metre trains of the phase and earlier phases),
4.8.16-4.8.18 (the dual cards and the first operating round's extra cards) and 4.8.19 (the
minors' special token).  The phase changes when the first card of a phase's trigger type is
bought (4.10.1); obsolete trains leave the game (4.8.4) and excess trains go back to the bank
(4.8.6) on their director's choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from india1853.data.model import TrainSpec
from india1853.errors import RuleError
from india1853.rules.game.events import change, emit, paid
from india1853.rules.game.money import company_pays, company_receives
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.shares import controller
from india1853.rules.game.state import CompanyState, GameState, Pending, TrainState


@dataclass(frozen=True)
class Offer:
    """A train the bank offers: the type the buyer gets, the card, the price, how."""

    train: str
    card: str | None  # None: a new extra '2/1M' card (4.8.17)
    price: int
    token: bool = False
    returned: bool = False  # a train returned as excess (4.8.6), not a new one


def initial_trains(rules: GameRules) -> list[TrainState]:
    """The cards of TABLE 5 that are in every game (extras come with 2.8.4)."""
    out: list[TrainState] = []
    for spec in rules.ed.trains:
        for i in range(spec.count):
            out.append(TrainState(f"{spec.name}-{i + 1}", spec.name, spec.name, "bank"))
    return out


def _dual_second(rules: GameRules) -> set[str]:
    return {d.trains[1] for d in rules.ed.trains.dual_options}


def add_minor_trains(rules: GameRules, st: GameState) -> None:
    """2.8.4 / 4.8.16: a minor formed in the first stock round adds the extra trains and makes
    the '2' cards dual-option ('2/1M')."""
    if st.minor_trains_added:
        return
    st.minor_trains_added = True
    duals = _dual_second(rules)
    for spec in rules.ed.trains:
        if spec.name in duals:
            continue
        have = len([t for t in st.trains if t.name == spec.name])
        for i in range(spec.extra_count):
            st.trains.append(TrainState(f"{spec.name}-{have + i + 1}", spec.name, spec.name,
                                        "bank", extra=True))
    for dual in rules.ed.trains.dual_options:
        for t in st.trains:
            if t.name == dual.trains[0]:
                t.name = dual.card


def phase_limit(rules: GameRules, st: GameState) -> int | None:
    return rules.phase(st.phase).train_limit


def _broad_types(rules: GameRules) -> list[TrainSpec]:
    return [t for t in rules.ed.trains if t.gauge == "broad"]


def _card_types(rules: GameRules, card: TrainState) -> tuple[str, ...]:
    for dual in rules.ed.trains.dual_options:
        if card.name == dual.card:
            return dual.trains
    return (card.name,)


def _in_bank(rules: GameRules, st: GameState, train: str) -> list[TrainState]:
    return [t for t in st.trains if t.where == "bank" and train in _card_types(rules, t)]


def _buyer_kind_ok(spec: TrainSpec, co: CompanyState) -> bool:
    return spec.buyers == "any" or spec.buyers == co.kind


def _sold(rules: GameRules, st: GameState, train: str) -> bool:
    return any(t.where != "bank" and train in _card_types(rules, t) for t in st.trains)


def _metre_open_to_majors(rules: GameRules, st: GameState) -> bool:
    """4.8.15: majors buy metre trains only once the phase offers one to any company."""
    phase = rules.phase(st.phase)
    return any(
        rules.train_type(n).gauge == "metre" and rules.train_type(n).buyers == "any"
        for n in phase.trains_available
    )


def may_own(rules: GameRules, st: GameState, co: CompanyState, train: str) -> bool:
    spec = rules.train_type(train)
    if not _buyer_kind_ok(spec, co):
        return False
    return not (spec.gauge == "metre" and co.kind == "major"
                and not _metre_open_to_majors(rules, st))


def new_offers(rules: GameRules, st: GameState, co: CompanyState) -> list[Offer]:
    """New cards the bank offers this company, ignoring money and the train limit."""
    phase = rules.phase(st.phase)
    offers: list[Offer] = []
    lowest = _lowest_broad(rules, st)
    for spec in rules.ed.trains:
        cards = _in_bank(rules, st, spec.name)
        if not cards or not may_own(rules, st, co, spec.name):
            continue
        if spec.gauge == "broad":
            if spec.name != lowest and not _broad_beside_lowest(rules, st, spec.name):
                continue
        else:
            dual_of = _dual_broad(rules, spec.name)
            # The metre side of a dual card is on sale when its broad side is.
            if (dual_of is not None and dual_of != lowest
                    and dual_of not in phase.trains_available):
                continue
            if spec.name not in phase.trains_available:
                continue
        offers.append(Offer(spec.name, cards[0].id, spec.price))
    offers.extend(_first_round_extras(rules, st, co))
    return offers


def _broad_beside_lowest(rules: GameRules, st: GameState, train: str) -> bool:
    """A broad type on offer beside the lowest: one the phase lists (4.8.3, the '6' beside the
    '5').  35.2 (first edition): all of one type are bought before the next is available, so
    only a card of a type already bought out (back in the bank) is offered beside it."""
    if train not in rules.phase(st.phase).trains_available:
        return False
    return not rules.policy.strict_broad_order or train in st.broad_sold_out


def _lowest_broad(rules: GameRules, st: GameState) -> str | None:
    """4.8.3: the broad type all of whose cards must be bought before the next type is sold:
    the lowest type with a card in the bank that has not yet been bought out.  A card of a type
    once bought out is back in the bank only because a credit train was returned (4.8.10);
    like a train returned as excess (4.8.6) it is an alternative on offer, not a bar to the
    next type (docs/rulings.md, "A returned train does not hold back the next type")."""
    return next((b.name for b in _broad_types(rules)
                 if b.name not in st.broad_sold_out and _in_bank(rules, st, b.name)), None)


def _record_sold_out(rules: GameRules, st: GameState, card: TrainState) -> None:
    """After a purchase from the bank: the broad types of the card now bought out (4.8.3)."""
    for name in _card_types(rules, card):
        if (rules.train_type(name).gauge == "broad" and name not in st.broad_sold_out
                and not _in_bank(rules, st, name)):
            st.broad_sold_out.append(name)


def _dual_broad(rules: GameRules, train: str) -> str | None:
    for dual in rules.ed.trains.dual_options:
        if dual.trains[1] == train:
            return dual.trains[0]
    return None


def _first_round_extras(rules: GameRules, st: GameState, co: CompanyState) -> list[Offer]:
    """4.8.17: in the first operating round, once every '2/1M' card is sold and before the
    first '3', further '2/1M' cards are made as needed."""
    out: list[Offer] = []
    if st.operating_round != 1 or not st.minor_trains_added:
        return out
    broad = [b.name for b in _broad_types(rules)]
    for dual in rules.ed.trains.dual_options:
        if not dual.first_or_unlimited:
            continue
        if any(t.where == "bank" and t.name == dual.card for t in st.trains):
            continue
        nxt = broad.index(dual.trains[0]) + 1
        if nxt < len(broad) and _sold(rules, st, broad[nxt]):
            continue
        for train in dual.trains:
            if may_own(rules, st, co, train):
                out.append(Offer(train, None, rules.train_type(train).price))
    return out


def introduced_metre(rules: GameRules, number: int) -> set[str]:
    """The metre types that phase ``number`` introduces (TABLE 6: its metre trains that the
    phase before it did not offer) - the "current Phase metre gauge trains" of 4.8.19."""
    phases = {p.number: p for p in rules.ed.phases}
    if number not in phases:
        return set()
    before = set(phases[number - 1].trains_available) if number - 1 in phases else set()
    return {n for n in phases[number].trains_available
            if rules.train_type(n).gauge == "metre" and n not in before}


def token_offers(rules: GameRules, st: GameState, co: CompanyState,
                 current: list[Offer]) -> list[Offer]:
    """4.8.19: after the first operating round, a minor to which the bank offers no metre
    train of the type the current phase introduced may hand in its special token for a metre
    train of the next phase (no phase change).  Metre trains of an earlier phase still unsold
    (4.8.12) do not stop it: the players' guide, "This power can be exercised even if metre
    gauge Trains from the previous Phase are still unsold" (docs/rulings.md)."""
    if not (rules.ed.rules.minor_special_token and co.token and co.kind == "minor"):
        return []
    if st.operating_round <= 1:
        return []
    if any(o.train in introduced_metre(rules, st.phase) for o in current):
        return []
    out: list[Offer] = []
    for name in sorted(introduced_metre(rules, st.phase + 1)):
        spec = rules.train_type(name)
        if not _buyer_kind_ok(spec, co):
            continue
        cards = _in_bank(rules, st, name)
        if cards:
            out.append(Offer(name, cards[0].id, spec.price, token=True))
    return out


def pool_offers(rules: GameRules, st: GameState, co: CompanyState) -> list[Offer]:
    """4.8.6: trains returned as excess are sold again at full price."""
    out: list[Offer] = []
    seen: set[str] = set()
    for t in st.trains:
        if t.where == "pool" and t.runs_as not in seen and may_own(rules, st, co, t.runs_as):
            seen.add(t.runs_as)
            out.append(Offer(t.runs_as, t.id, rules.train_type(t.runs_as).price,
                             returned=True))
    return out


def offers_beyond_limit(rules: GameRules, st: GameState, co: CompanyState) -> list[Offer]:
    """Everything the bank offers the company now, its train limit and its money aside: new
    cards (4.8.3, 4.8.11-4.8.18), trains returned as excess (4.8.6), the minors' token
    (4.8.19)."""
    offers = new_offers(rules, st, co) + pool_offers(rules, st, co)
    return offers + token_offers(rules, st, co, offers)


def bank_offers(rules: GameRules, st: GameState, co: CompanyState) -> list[Offer]:
    """Everything the bank offers the company now, within its train limit (4.8.5)."""
    limit = phase_limit(rules, st)
    if limit is not None and len(st.company_trains(co.initials)) >= limit:
        return []
    return offers_beyond_limit(rules, st, co)


def buy_from_bank(
    rules: GameRules, st: GameState, co: CompanyState, train: str, *, contribution: int,
    credit: bool, token: bool,
) -> None:
    """4.8.2, 4.8.8 (director's contribution), 3.4.3 (manager's credit), 4.8.19 (token)."""
    if co.credit_train is not None:
        raise RuleError("3.4.6 / 24.3", f"{co.initials} must first pay for its train bought "
                        "on credit")
    offers = [o for o in bank_offers(rules, st, co) if o.train == train and o.token == token]
    if not offers:
        raise _not_offered(rules, st, co, train, token=token)
    offer = offers[0]
    if credit:
        _check_credit(st, co, offer)
        offer = _credit_offers(offers, train)[0]
        contribution = 0
    elif co.cash < offer.price:
        _check_contribution(st, co, offer, contribution)
    elif contribution:
        raise RuleError("4.8.8", "a director contributes only the shortfall of a purchase")
    card = _card_for(rules, st, offer)
    if credit:
        co.credit_train = card.id
    else:
        company_pays(rules, st, co, offer.price - contribution)
        if contribution:
            director = st.player(co.director or "")
            director.cash -= contribution
            st.bank += contribution
            paid(st, director.name, "bank", contribution, "4.8.8")
    if token:
        co.token = False
    _deliver(rules, st, co, card, train, token=token)
    _record_sold_out(rules, st, card)


def _not_offered(rules: GameRules, st: GameState, co: CompanyState, train: str, *,
                 token: bool) -> RuleError:
    """The rule that keeps the bank from offering this train to this company now."""
    limit = phase_limit(rules, st)
    if limit is not None and len(st.company_trains(co.initials)) >= limit:
        return RuleError("4.8.5", f"{co.initials} already owns {limit} trains, the limit")
    spec = rules.train_type(train)
    if not _buyer_kind_ok(spec, co):
        return RuleError("4.8.18", f"{co.initials}, a {co.kind}, may not buy a '{train}' train")
    if not may_own(rules, st, co, train):
        return RuleError("4.8.15", f"a major company may not buy a metre train ('{train}') "
                         f"before the phase offers one to every company (Phase {st.phase} "
                         "does not)")
    if token:
        return RuleError("4.8.19", f"{co.initials} may not use a special token for a "
                         f"'{train}' train now")
    first = min((p.number for p in rules.ed.phases if train in p.trains_available),
                default=st.phase)
    if spec.gauge == "metre" and first > st.phase:
        return RuleError("4.8.13", f"'{train}' trains are not sold before Phase {first}; the "
                         f"bank offers {co.initials} {_offered_types(rules, st, co)}")
    return RuleError("4.8.3", f"the bank offers no '{train}' train to {co.initials}; it offers "
                     f"{_offered_types(rules, st, co)}")


def _offered_types(rules: GameRules, st: GameState, co: CompanyState) -> str:
    names = sorted({o.train for o in bank_offers(rules, st, co) if not o.token},
                   key=lambda n: [t.name for t in rules.ed.trains].index(n))
    return ", ".join(f"'{n}'" for n in names) or "nothing"


def _credit_offers(offers: list[Offer], train: str) -> list[Offer]:
    """3.4.3: credit buys "a new train, from the bank", not one returned as excess (4.8.6)."""
    new = [o for o in offers if not o.returned]
    if not new:
        raise RuleError("3.4.3", f"credit is only for a new train; the bank's '{train}' was "
                        "returned by a company")
    return new


def _check_credit(st: GameState, co: CompanyState, offer: Offer) -> None:
    if co.director is not None:
        raise RuleError("4.8.10", "only a company run by a manager buys a train on credit")
    if st.company_trains(co.initials):
        raise RuleError("3.4.3", "credit is only for a company without a train")
    if co.cash >= offer.price:
        raise RuleError("3.4.3", f"{co.initials} can afford the train; credit is not needed")


def unaffordable(st: GameState, co: CompanyState, offer: Offer) -> RuleError | None:
    """Why the company cannot pay for a train the bank offers it, with the numbers (4.8.8: its
    director adds the shortfall; 3.4.3: a manager buys on credit only a new train, and only
    while the company has none), or None."""
    if co.cash >= offer.price:
        return None
    short = offer.price - co.cash
    costs = f"the '{offer.train}' train costs £{offer.price}, {co.initials} has £{co.cash}"
    if co.director is not None:
        director = st.player(co.director)
        if director.cash >= short:
            return None
        return RuleError("4.8.8", f"{costs} and its director {director.name} £{director.cash} "
                         f"(£{short} short)")
    if st.company_trains(co.initials):
        return RuleError("3.4.3", f"{costs}; run by a manager, it buys on credit only while it "
                         "has no train")
    if offer.returned:
        return RuleError("3.4.3", f"{costs}; credit is only for a new train, and this one was "
                         "returned by a company")
    return None


def _check_contribution(st: GameState, co: CompanyState, offer: Offer,
                        contribution: int) -> None:
    short = offer.price - co.cash
    if co.director is None:
        raise RuleError("4.8.8", f"{co.initials} has £{co.cash}; a manager cannot contribute")
    reason = unaffordable(st, co, offer)
    if reason is not None:
        raise reason
    if contribution != short:
        raise RuleError("4.8.8", f"the director must contribute exactly the shortfall £{short}")


def _card_for(rules: GameRules, st: GameState, offer: Offer) -> TrainState:
    if offer.card is not None:
        return next(t for t in st.trains if t.id == offer.card)
    dual = next(d for d in rules.ed.trains.dual_options if offer.train in d.trains)
    n = len([t for t in st.trains if t.name == dual.card]) + 1
    card = TrainState(f"{dual.trains[0]}-{n}", dual.card, offer.train, "bank", extra=True)
    st.trains.append(card)
    return card


def _deliver(rules: GameRules, st: GameState, co: CompanyState, card: TrainState,
             train: str, *, token: bool) -> None:
    card.where = "company"
    card.owner = co.initials
    card.runs_as = train
    emit(st, "train_bought", co.initials, "4.8", train=card.id, runs_as=train, source="bank",
         token=token)
    st.turn.bought_trains += 1
    trigger = next(
        (p for p in rules.ed.phases if p.train == train and p.number > st.phase), None
    )
    if trigger is not None and not token:
        # 4.8.19: a train bought with the minor's token never starts a phase.
        enter_phase(rules, st, trigger.number)


def enter_phase(rules: GameRules, st: GameState, number: int) -> None:
    """4.10.1, 4.8.4, 4.8.6: the new phase; obsolete trains leave; excess trains return."""
    change(st, "phase", "", "4.10.1", st.phase, number)
    st.phase = number
    obsolete = set(rules.phase(number).trains_obsolete)
    for t in st.trains:
        if t.where in ("bank", "company", "pool") and t.runs_as in obsolete:
            if t.where == "company":
                owner = st.companies[t.owner or ""]
                if owner.credit_train == t.id:
                    owner.credit_train = None
            emit(st, "train_rusted", t.owner or "", "4.8.4", train=t.id, runs_as=t.runs_as,
                 where=t.where)
            t.where = "removed"
            t.owner = None
    limit = phase_limit(rules, st)
    if limit is None:
        return
    for spec in rules.companies:
        co = st.companies[spec.initials]
        excess = len(st.company_trains(co.initials)) - limit
        if excess > 0:
            st.pending.append(Pending("discard_train", co.initials, "company",
                                      {"count": excess}))


def discard_train(rules: GameRules, st: GameState, co: CompanyState, train_id: str) -> None:
    """4.8.6: the director returns an excess train to the bank, which offers it again."""
    card = next((t for t in st.company_trains(co.initials) if t.id == train_id), None)
    if card is None:
        raise RuleError("4.8.6", f"{co.initials} owns no train {train_id!r}")
    emit(st, "train_discarded", co.initials, "4.8.6", train=card.id,
         name=card.runs_as or card.name)
    card.where = "pool"
    card.owner = None
    if co.credit_train == card.id:
        co.credit_train = None


def company_sales(
    rules: GameRules, st: GameState, buyer: CompanyState, *, same_controller: bool
) -> list[tuple[str, str]]:
    """(seller, train) pairs ``buyer`` may buy from another company at the minimum price
    (4.8.9): from companies of the same controller, or from those of other controllers."""
    out: list[tuple[str, str]] = []
    own = controller(st, buyer)
    for seller in st.companies.values():
        if not seller.formed or seller.initials == buyer.initials:
            continue
        if (controller(st, seller) == own) != same_controller:
            continue
        for name in sorted({t.runs_as for t in st.company_trains(seller.initials)}):
            try:
                check_company_sale(rules, st, buyer, seller, name, rules.train_sale_minimum)
            except RuleError:
                continue
            out.append((seller.initials, name))
    return out


def check_company_sale(
    rules: GameRules, st: GameState, buyer: CompanyState, seller: CompanyState, train: str,
    price: int,
) -> TrainState:
    """4.8.9, 4.8.15, 4.8.18 d, 3.4.5: trains between companies, at least the minimum
    price."""
    if seller.initials == buyer.initials:
        raise RuleError("4.8.9", "a company cannot buy its own train")
    if price < rules.train_sale_minimum:
        raise RuleError("4.8.9", f"the price must be at least £{rules.train_sale_minimum}")
    if not _buyer_kind_ok(rules.train_type(train), buyer):
        raise RuleError("4.8.18", f"{buyer.initials}, a {buyer.kind}, may not own a "
                        f"'{train}' train")
    if not may_own(rules, st, buyer, train):
        raise RuleError("4.8.15", f"a major company may not own a metre train ('{train}') "
                        f"before the phase offers one to every company (Phase {st.phase} does "
                        "not)")
    limit = phase_limit(rules, st)
    if limit is not None and len(st.company_trains(buyer.initials)) >= limit:
        raise RuleError("4.8.5", f"{buyer.initials} already owns {limit} trains, the limit")
    if buyer.credit_train is not None:
        raise RuleError("3.4.6 / 24.3", f"{buyer.initials} must first pay for its train "
                        "bought on credit")
    cards = [t for t in st.company_trains(seller.initials)
             if t.runs_as == train and t.id != seller.credit_train]
    if not cards:
        raise RuleError("3.4.5", f"{seller.initials} has no paid-for '{train}' train to sell")
    if buyer.cash < price:
        raise RuleError("4.8.9", f"{buyer.initials} has only £{buyer.cash}")
    return cards[0]


def transfer(st: GameState, buyer: CompanyState, seller: CompanyState, card: TrainState,
             price: int) -> None:
    buyer.cash -= price
    seller.cash += price
    paid(st, buyer.initials, seller.initials, price, "4.8.9", train=card.id)
    emit(st, "train_bought", buyer.initials, "4.8.9", train=card.id, runs_as=card.runs_as,
         source=seller.initials, price=price)
    card.owner = buyer.initials
    st.turn.bought_trains += 1


def same_controller(st: GameState, a: CompanyState, b: CompanyState) -> bool:
    return controller(st, a) == controller(st, b)


def repay_credit(rules: GameRules, st: GameState, co: CompanyState, contribution: int) -> None:
    """3.4.3, 4.8.10: the credit train is paid for in full, at once."""
    if co.credit_train is None:
        raise RuleError("3.4.3", f"{co.initials} owes nothing for a train")
    card = next(t for t in st.trains if t.id == co.credit_train)
    price = rules.train_type(card.runs_as).price
    if co.cash >= price:
        if contribution:
            raise RuleError("4.8.8", "a director contributes only the shortfall of a purchase")
    else:
        _check_contribution(st, co, Offer(card.runs_as, card.id, price), contribution)
        st.player(co.director or "").cash -= contribution
        st.bank += contribution
        paid(st, co.director or "", "bank", contribution, "4.8.8")
    company_pays(rules, st, co, price - contribution, "4.8.10")
    co.credit_train = None
    emit(st, "credit_repaid", co.initials, "3.4.3 / 4.8.10", train=card.id, price=price)


def return_credit_train(rules: GameRules, st: GameState, co: CompanyState) -> None:
    """4.8.10: a new director may return the unpaid train to the bank instead."""
    if co.credit_train is None:
        raise RuleError("4.8.10", f"{co.initials} holds no train on credit")
    card = next(t for t in st.trains if t.id == co.credit_train)
    card.where = "bank"
    card.owner = None
    card.runs_as = _card_types(rules, card)[0]
    co.credit_train = None


def check_sale_to_bank(rules: GameRules, st: GameState, co: CompanyState,
                       train_id: str) -> TrainState:
    """Alternative Rules 4.0: "During Phase Four of the game Companies may sell trains back to
    the Bank, at full price, at the beginning of an Operating Turn" (otherwise 35.6: never)."""
    phase = rules.train_sales_phase
    if phase is None:
        raise RuleError("35.6", "trains may not be sold back to the bank")
    if st.phase < phase:
        raise RuleError("Alternative Rules 4.0", f"trains are sold to the bank from Phase "
                        f"{phase} on; this is Phase {st.phase}")
    if st.turn.lays_done or st.turn.promoted:
        raise RuleError("Alternative Rules 4.0", "a train is sold to the bank at the beginning "
                        "of the operating turn, before any track")
    card = next((t for t in st.company_trains(co.initials) if t.id == train_id), None)
    if card is None:
        raise RuleError("Alternative Rules 4.0", f"{co.initials} owns no train {train_id!r}")
    if co.credit_train == card.id:
        raise RuleError("24.5", "a train bought on credit must be paid for before it is sold")
    return card


def sell_to_bank(rules: GameRules, st: GameState, co: CompanyState, train_id: str) -> None:
    """Alternative Rules 4.0: the bank pays the full price (in credits, 23.1) and offers the
    train again "as an alternative to other new trains" (as a returned train, 35.5)."""
    card = check_sale_to_bank(rules, st, co, train_id)
    card.where = "pool"
    card.owner = None
    company_receives(rules, st, co, rules.train_type(card.runs_as).price)
