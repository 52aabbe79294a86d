"""Who may act now, and the application of one (shape-checked) action to the state.

The state passed in is a scratch copy: a handler may raise half-way, the caller then drops it.
With ``check=False`` (trusted logs only: actions that were accepted once) the costly legality
checks of construction and runs are skipped; the effects are the same.
"""

from __future__ import annotations

from typing import Any

from india1853.errors import InputError, RuleError
from india1853.rules.game import (
    bids,
    board_port,
    kit,
    operating_round,
    secret_bids,
    sequence,
    stock_round,
    trains,
)
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.shares import controller
from india1853.rules.game.state import CompanyState, GameState, Pending, PlayerState

PENDING_ACTIONS: dict[str, tuple[str, ...]] = {
    "elephant_sale": ("offer_elephant", "pass"),
    "elephant_offer": ("accept_offer", "reject_offer"),
    "extra_or": ("call_extra_or", "pass"),
    "discard_train": ("discard_train",),
    "credit_train": ("repay_credit", "return_credit_train"),
    "train_sale": ("accept_offer", "reject_offer"),
    "kit_draw": ("draw_card", "pass"),
    "kit_action": ("play_card", "reject_cards", "pass"),
}

STEP_ACTIONS: dict[str, tuple[str, ...]] = {
    "lay_option": ("choose_lay_option",),
    "track": ("lay_tile", "promote_tile", "sell_train", "pass"),
    "base": ("place_base", "pass"),
    "run": ("run_routes", "pass"),
    "dividend": ("dividend",),
    "trains": ("buy_train", "repay_credit", "pass"),
}


def expected_entities(rules: GameRules, st: GameState) -> list[tuple[str, str]]:
    """The entities that may act now, as (entity, entity_type)."""
    if st.round == "finished":
        return []
    if st.pending:
        p = st.pending[0]
        return [(p.entity, p.entity_type)]
    if st.round in ("bonds", "bids"):
        return [(p.name, "player") for p in st.players if p.bond is None]
    if st.round in ("claims", "stock"):
        return [(st.players[st.stock.current].name, "player")]
    if st.round == "operating":
        return [(operating_round.current_company(st).initials, "company")]
    return []


def _player(st: GameState, name: str) -> PlayerState:
    try:
        return st.player(name)
    except KeyError:
        raise InputError(f"unknown player {name!r}") from None


def _company(st: GameState, initials: str) -> CompanyState:
    if initials not in st.companies:
        raise InputError(f"unknown company {initials!r}")
    return st.companies[initials]


def apply_action(rules: GameRules, st: GameState, action: dict[str, Any], *,
                 check: bool = True) -> None:
    kind: str = action["type"]
    entity: str = action["entity"]
    active = expected_entities(rules, st)
    if (entity, action["entity_type"]) not in active:
        who = ", ".join(e for e, _ in active) or "nobody"
        raise RuleError("turn", f"it is not {entity}'s turn to act (waiting for {who})")
    if st.pending:
        _apply_pending(rules, st, st.pending[0], action)
    elif st.round == "bonds":
        _only(kind, ("place_bond",), "2.5.2")
        bids.place_bond(rules, st, _player(st, entity), action["amount"])
    elif st.round == "bids":
        _only(kind, ("submit_bid",), "14")
        secret_bids.submit_bid(rules, st, _player(st, entity),
                               secret_bids.parse_claims(action["claims"]))
    elif st.round == "claims":
        _only(kind, ("claim_city", "pass"), "2.5.4")
        player = _player(st, entity)
        if kind == "pass":
            bids.end_bid(rules, st, player)
        else:
            bids.claim_city(rules, st, player, _city_name(rules, action["city"]),
                            _initials(st, action["company"]))
    elif st.round == "stock":
        _apply_stock(rules, st, _player(st, entity), action)
    elif st.round == "operating":
        _apply_operating(rules, st, _company(st, entity), action, check)
    else:
        raise RuleError("turn", f"no action is possible in round {st.round}")


def _only(kind: str, allowed: tuple[str, ...], rule: str) -> None:
    if kind not in allowed:
        raise RuleError(rule, f"{kind} is not possible now; expected {' or '.join(allowed)}")


def _initials(st: GameState, text: str) -> str:
    key = text.upper()
    if key not in st.companies:
        raise InputError(f"company: unknown company {text!r}")
    return key


def _city_name(rules: GameRules, text: str) -> str:
    try:
        return rules.city(text).name
    except Exception:
        raise RuleError("2.5.8", f"{text!r} is not a city that a bid may name") from None


def _apply_stock(rules: GameRules, st: GameState, player: PlayerState,
                 action: dict[str, Any]) -> None:
    kind = action["type"]
    _only(kind, ("buy_share", "sell_shares", "redeem_share", "pass"), "3")
    if kind == "pass":
        stock_round.decline(rules, st, player)
        return
    initials = _initials(st, action["company"])
    if kind == "buy_share":
        stock_round.buy_share(rules, st, player, initials, action["source"])
    elif kind == "sell_shares":
        stock_round.sell_shares(rules, st, player, initials, action["count"])
    else:
        stock_round.redeem_share(rules, st, player, initials)


def _apply_pending(rules: GameRules, st: GameState, p: Pending, action: dict[str, Any]) -> None:
    kind = action["type"]
    _only(kind, PENDING_ACTIONS[p.kind], {
        "elephant_sale": "3.1.11", "elephant_offer": "3.1.11", "extra_or": "4.9",
        "discard_train": "4.8.6", "credit_train": "4.8.10", "train_sale": "4.8.9",
        "kit_draw": kit.METHOD, "kit_action": kit.ACTIONING,
    }[p.kind])
    if p.kind == "elephant_sale":
        _elephant_sale(rules, st, action)
    elif p.kind == "elephant_offer":
        _elephant_answer(rules, st, p, accepted=kind == "accept_offer")
    elif p.kind == "extra_or":
        st.pending.pop(0)
        sequence.call_extra_or(rules, st, called=kind == "call_extra_or")
    elif p.kind == "discard_train":
        co = _company(st, p.entity)
        trains.discard_train(rules, st, co, action["train"])
        p.data["count"] -= 1
        if p.data["count"] == 0:
            st.pending.pop(0)
    elif p.kind == "credit_train":
        co = _company(st, p.entity)
        if kind == "repay_credit":
            trains.repay_credit(rules, st, co, action.get("contribution", 0))
        else:
            trains.return_credit_train(rules, st, co)
        st.pending.pop(0)
    elif p.kind == "kit_draw":
        kit.draw_card(rules, st, p, draw=kind == "draw_card")
    elif p.kind == "kit_action":
        player = _player(st, p.entity)
        if kind == "play_card":
            kit.play_card(rules, st, player, action["card"], hex=action.get("hex"),
                          city=action.get("city"))
        elif kind == "reject_cards":
            kit.reject_cards(rules, st, player, list(action["cards"]))
        else:
            kit.pass_actions(rules, st, player)
    elif p.kind == "train_sale":
        st.pending.pop(0)
        if kind == "accept_offer":
            buyer = _company(st, p.data["buyer"])
            seller = _company(st, p.entity)
            card = trains.check_company_sale(rules, st, buyer, seller, p.data["train"],
                                             p.data["price"])
            trains.transfer(st, buyer, seller, card, p.data["price"])


def _elephant_sale(rules: GameRules, st: GameState, action: dict[str, Any]) -> None:
    """3.1.11: at the end of a stock round the Elephant's holder may sell it to another player
    for an agreed price (an offer, then an acceptance).  Each player may be offered it once."""
    holder = st.player(st.elephant or "")
    if action["type"] == "pass":
        st.pending.pop(0)
        _after_stock_round(rules, st)
        return
    buyer = _player(st, action["buyer"])
    price: int = action["price"]
    if buyer.name == holder.name:
        raise RuleError("3.1.11", "the Elephant's holder cannot sell it to himself")
    if buyer.name in st.elephant_offers:
        raise RuleError("3.1.11", f"{buyer.name} has already been offered the Elephant")
    if buyer.cash < price:
        raise RuleError("3.1.11", f"{buyer.name} has only £{buyer.cash}")
    st.elephant_offers.append(buyer.name)
    st.pending[0] = Pending("elephant_offer", buyer.name, "player",
                            {"seller": holder.name, "price": price})


def _elephant_answer(rules: GameRules, st: GameState, p: Pending, *, accepted: bool) -> None:
    st.pending.pop(0)
    if not accepted:
        st.pending.insert(0, Pending("elephant_sale", p.data["seller"], "player"))
        return
    buyer, seller = st.player(p.entity), st.player(p.data["seller"])
    buyer.cash -= p.data["price"]
    seller.cash += p.data["price"]
    st.elephant = buyer.name
    _after_stock_round(rules, st)


def _after_stock_round(rules: GameRules, st: GameState) -> None:
    if st.round == "stock_end" and not st.pending:
        st.end_round()


def _apply_operating(rules: GameRules, st: GameState, co: CompanyState,
                     action: dict[str, Any], check: bool) -> None:
    kind = action["type"]
    step = st.turn.step
    if kind == "dividend" and action.get("kind") == "payout" and step == "trains":
        _explain_withheld(st, co)
    _only(kind, STEP_ACTIONS[step], {
        "lay_option": "4.1.3", "track": "4.1", "base": "4.4", "run": "4.5",
        "dividend": "4.6", "trains": "4.8",
    }[step])
    if kind == "choose_lay_option":
        operating_round.choose_lay_option(rules, st, co, action["option"])
    elif kind == "pass":
        if step == "trains":
            operating_round.end_company_turn(rules, st)
        else:
            if step == "run":
                if check and st.turn.duties and board_port.best_routes(rules, st, co) is not None:
                    raise RuleError("4.2.3 / 4.4.2", "a tile promoted or given a base outside the "
                                    "company's area this turn must be on one of its runs")
                st.turn.revenue = 0
            operating_round.advance(rules, st)
    elif kind == "lay_tile":
        board_port.lay_tile(rules, st, co, action["hex"], action["tile"], action["rotation"],
                            check=check)
        if board_port.lays_left(rules, st, co) == 0:
            operating_round.advance(rules, st)
    elif kind == "sell_train":
        trains.sell_to_bank(rules, st, co, action["train"])
    elif kind == "promote_tile":
        board_port.promote_tile(rules, st, co, action["hex"], action["tile"],
                                action["rotation"], check=check)
        operating_round.advance(rules, st)
    elif kind == "place_base":
        board_port.place_base(rules, st, co, action["hex"], action.get("station"), check=check)
    elif kind == "run_routes":
        board_port.run_routes(rules, st, co, action["routes"], check=check)
        operating_round.advance(rules, st)
    elif kind == "dividend":
        operating_round.settle_dividend(rules, st, co, payout=action["kind"] == "payout")
        if st.round != "finished":
            operating_round.advance(rules, st)
    elif kind == "buy_train":
        _buy_train(rules, st, co, action)
    elif kind == "repay_credit":
        trains.repay_credit(rules, st, co, action.get("contribution", 0))


def _explain_withheld(st: GameState, co: CompanyState) -> None:
    """A payout asked for after the dividend step was settled without a choice: name the
    rule that withheld it (3.4.2: a manager must not pay; 4.6.4: nothing was earned)."""
    if co.director is None:
        raise RuleError("3.4.2", f"{co.initials} is run by a manager, who must not declare a "
                        "dividend; its run was withheld")
    if st.turn.revenue == 0:
        raise RuleError("4.6.4", f"{co.initials} earned nothing this turn: there is no "
                        "dividend to pay")


def _buy_train(rules: GameRules, st: GameState, co: CompanyState, action: dict[str, Any]) -> None:
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
    seller = _company(st, _initials(st, source))
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
