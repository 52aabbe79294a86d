"""The last step of a company's turn: buy trains, or end the turn (4.8)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from india1853.errors import InputError, RuleError
from india1853.rules.game import operating_round, trains
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.shares import controller
from india1853.rules.game.state import CompanyState, GameState, Pending
from india1853.rules.game.steps.step import (
    TRACK_MOVES,
    Action,
    Disabled,
    PassOption,
    Step,
    act,
    company_of,
    initials_of,
)


def credit_payment(rules: GameRules, st: GameState, co: CompanyState) -> dict[str, Any] | None:
    """How the company pays for its train bought on credit now (4.8.8, 4.8.10): from its
    treasury ({}), with its director's contribution, or not at all (None)."""
    if co.credit_train is None:
        return None
    card = next(t for t in st.trains if t.id == co.credit_train)
    price = rules.train_type(card.runs_as).price
    if co.cash >= price:
        return {}
    if co.director is not None and st.player(co.director).cash >= price - co.cash:
        return {"contribution": price - co.cash}
    return None


def _explain_withheld(st: GameState, co: CompanyState) -> None:
    """A payout asked for after the dividend step was settled without a choice: name the
    rule that withheld it (3.4.2: a manager must not pay; 4.6.4: nothing was earned)."""
    if co.director is None:
        raise RuleError("3.4.2", f"{co.initials} is run by a manager, who must not declare a "
                        "dividend; its run was withheld")
    if st.turn.revenue == 0:
        raise RuleError("4.6.4", f"{co.initials} earned nothing this turn: there is no "
                        "dividend to pay")


class Trains(Step):
    """4.8: trains bought from the bank (4.8.2-4.8.19, a director's contribution 4.8.8, a
    manager's credit 3.4.3, a minor's token 4.8.19) or from another company (4.8.9); a
    credit train paid for first (3.4.6); a pass ends the company's turn."""

    kind = "trains"
    rule = "4.8"
    actions = ("buy_train", "repay_credit", "pass")
    what = "buy trains, or end its turn"
    name = "buying trains"
    pass_option = PassOption("Pass", "Buy no (more) trains: the company's turn ends", "4.8")

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        co = st.companies[entity]
        e = co.initials
        out: list[Action] = []
        if co.credit_train is not None:
            fields = credit_payment(rules, st, co)
            if fields is not None:
                out.append(act("repay_credit", e, "company", **fields))
            return [*out, act("pass", e, "company")]
        seen: set[tuple[str, bool]] = set()
        for offer in trains.bank_offers(rules, st, co):
            key = (offer.train, offer.token)
            if key in seen:
                continue
            seen.add(key)
            extra: dict[str, Any] = {"token": True} if offer.token else {}
            if co.cash >= offer.price:
                out.append(act("buy_train", e, "company", train=offer.train, **extra))
            elif co.director is not None:
                short = offer.price - co.cash
                if st.player(co.director).cash >= short:
                    out.append(act("buy_train", e, "company", train=offer.train,
                                   contribution=short, **extra))
            elif not st.company_trains(e) and not offer.returned:
                # 3.4.3 credit; with the minor's token (4.8.19) too: a new train from the bank.
                out.append(act("buy_train", e, "company", train=offer.train, credit=True,
                               **extra))
        for seller, name in trains.company_sales(rules, st, co, same_controller=True):
            out.append(act("buy_train", e, "company", train=name, source=seller,
                           price=rules.train_sale_minimum))
        return [*out, act("pass", e, "company")]

    def disabled(self, rules: GameRules, st: GameState, entity: str) -> list[Disabled]:
        """Each train the bank offers the company that it cannot buy now: one it cannot pay
        for (4.8.8, 3.4.3), any while its credit train is unpaid (3.4.6), any beyond its
        train limit (4.8.5)."""
        co = st.companies[entity]
        out: list[Disabled] = []
        limit = trains.phase_limit(rules, st)
        at_limit = limit is not None and len(st.company_trains(entity)) >= limit
        offers = (trains.new_offers(rules, st, co) + trains.pool_offers(rules, st, co)
                  if at_limit else trains.bank_offers(rules, st, co))
        seen: set[tuple[str, bool]] = set()
        for offer in offers:
            key = (offer.train, offer.token)
            if key in seen:
                continue
            seen.add(key)
            extra: dict[str, Any] = {"token": True} if offer.token else {}
            buy = act("buy_train", entity, "company", train=offer.train, **extra)
            if co.credit_train is not None:
                reason: RuleError | None = RuleError(
                    "3.4.6 / 24.3", f"{entity} must first pay for its train bought on credit")
            elif at_limit:
                reason = RuleError("4.8.5", f"{entity} already owns {limit} trains, the limit")
            else:
                reason = trains.unaffordable(st, co, offer)
            if reason is not None:
                out.append(Disabled(buy, reason))
        return out

    def check_type(self, st: GameState, action: Action) -> None:
        if action["type"] == "dividend" and action.get("kind") == "payout":
            _explain_withheld(st, st.companies[action["entity"]])
        super().check_type(st, action)

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        co = company_of(st, action["entity"])
        kind = action["type"]
        if kind == "pass":
            operating_round.end_company_turn(rules, st)
        elif kind == "buy_train":
            _buy_train(rules, st, co, action)
        else:
            trains.repay_credit(rules, st, co, action.get("contribution", 0))


def _buy_train(rules: GameRules, st: GameState, co: CompanyState, action: Action) -> None:
    source = action.get("source", "bank")
    train = action["train"]
    names = [t.name for t in rules.ed.trains]
    if train not in names:
        raise InputError(f"action buy_train.train: unknown train {train!r}; expected one of "
                         f"{', '.join(names)}")
    if source == "bank":
        if "price" in action:
            raise InputError("action buy_train.price: only for a train from another company")
        trains.buy_from_bank(
            rules, st, co, train,
            contribution=action.get("contribution", 0),
            credit=action.get("credit", False),
            token=action.get("token", False),
        )
        return
    seller = company_of(st, initials_of(st, source))
    if "price" not in action:
        raise InputError("action buy_train.price: missing (the agreed price)")
    if action.get("credit") or action.get("token") or action.get("contribution"):
        raise RuleError("4.8.9", "credit, token and contribution apply to bank purchases only")
    price: int = action["price"]
    if not seller.formed:
        raise RuleError("4.8.9", f"{seller.initials} is not operating")
    card = trains.check_company_sale(rules, st, co, seller, train, price)
    if controller(st, seller) == controller(st, co):
        trains.transfer(st, co, seller, card, price)
        return
    st.pending.insert(0, Pending("train_sale", seller.initials, "company",
                                 {"buyer": co.initials, "train": train, "price": price}))
