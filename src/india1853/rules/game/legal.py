"""Enumeration of the actions an entity may take now (for interfaces and bots).

Each item is an action without ``id`` and ``created_at``.  Open-ended amounts are offered in
steps: bonds in £10 steps from the minimum (any whole number is accepted by ``process``); the
Elephant for £0 and in £10 steps up to £50 (any price is accepted); trains between companies of
the same controller at the minimum price only (any price is accepted).  Tile lays and bases come
from the construction module; the router's optimal run comes first.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from india1853.errors import India1853Error
from india1853.rules.game import bids, board_port, kit, secret_bids, stock_round, trains
from india1853.rules.game.dispatch import expected_entities
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.shares import directors_sold
from india1853.rules.game.state import CompanyState, GameState, Pending, PlayerState

BOND_STEP = 10
TRACK_MOVES = ("lay_tile", "promote_tile")
ELEPHANT_PRICES = (0, 10, 20, 30, 40, 50)


def _act(type_: str, entity: str, entity_type: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "entity": entity, "entity_type": entity_type, **fields}


def legal_actions(rules: GameRules, st: GameState, entity: str, *,
                  track: Collection[str] = TRACK_MOVES) -> list[dict[str, Any]]:
    """Every action the entity may take now.  ``track`` narrows the track step's list to
    some kinds of move (enumerating every promotion is costly; the random player asks for
    the kind it has chosen)."""
    active = dict(expected_entities(rules, st))
    if entity not in active:
        return []
    if st.pending:
        return _pending(rules, st, st.pending[0])
    if st.round == "bonds":
        return _bonds(rules, st, st.player(entity))
    if st.round == "claims":
        return _claims(rules, st, st.player(entity))
    if st.round == "bids":
        return [_act("submit_bid", entity, "player",
                     claims=[{"city": c, "company": i} for c, i in bid])
                for bid in secret_bids.sample_bids(rules, st, st.player(entity))]
    if st.round == "stock":
        return _stock(rules, st, st.player(entity))
    if st.round == "operating":
        return _operating(rules, st, st.companies[entity], track)
    return []


def _bonds(rules: GameRules, st: GameState, p: PlayerState) -> list[dict[str, Any]]:
    out = []
    amount = rules.table.minimum_bond or 0
    while amount <= p.cash:
        if bids.completable(rules, st, [], amount):
            out.append(_act("place_bond", p.name, "player", amount=amount))
        amount += BOND_STEP
    return out


def _claims(rules: GameRules, st: GameState, p: PlayerState) -> list[dict[str, Any]]:
    claims = bids.legal_claims(rules, st, p)
    out = [_act("claim_city", p.name, "player", city=c, company=i) for c, i in claims]
    if not claims or bids.may_end_bid(rules, st, p.cities, bids.unaccounted(rules, p)) is None:
        out.append(_act("pass", p.name, "player"))
    return out


def _stock(rules: GameRules, st: GameState, p: PlayerState) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for co in st.companies.values():
        for n in range(1, stock_round.sellable(rules, st, p, co) + 1):
            try:
                directors_sold(rules, st, p, co.initials, n)
            except India1853Error:
                continue  # MIK 2: a Director's Share is sold whole
            out.append(_act("sell_shares", p.name, "player", company=co.initials, count=n))
        if p.unredeemed.get(co.initials, 0) and p.cash >= rules.company(co.initials).par:
            out.append(_act("redeem_share", p.name, "player", company=co.initials))
        if stock_round.over_limit(rules, st, p):
            continue
        for source in ("ipo", "pool"):
            try:
                stock_round.check_buy(rules, st, p, co.initials, source)
            except India1853Error:
                continue
            out.append(_act("buy_share", p.name, "player", company=co.initials, source=source))
    if not stock_round.over_limit(rules, st, p):
        out.append(_act("pass", p.name, "player"))
    return out


def _pending(rules: GameRules, st: GameState, pending: Pending) -> list[dict[str, Any]]:
    e, et = pending.entity, pending.entity_type
    if pending.kind == "elephant_sale":
        out = [_act("pass", e, et)]
        for other in st.players:
            if other.name == e or other.name in st.elephant_offers:
                continue
            for price in ELEPHANT_PRICES:
                if price <= other.cash:
                    out.append(_act("offer_elephant", e, et, buyer=other.name, price=price))
        return out
    if pending.kind in ("elephant_offer", "train_sale"):
        return [_act("accept_offer", e, et), _act("reject_offer", e, et)]
    if pending.kind == "extra_or":
        return [_act("call_extra_or", e, et), _act("pass", e, et)]
    if pending.kind == "discard_train":
        return [_act("discard_train", e, et, train=t.id) for t in st.company_trains(e)]
    if pending.kind == "kit_draw":
        why = kit.may_draw(rules, st, st.player(e))
        return [*([_act("draw_card", e, et)] if why is None else []), _act("pass", e, et)]
    if pending.kind == "kit_action":
        return _kit_actions(rules, st, st.player(e))
    if pending.kind == "credit_train":
        co = st.companies[e]
        out = [_act("return_credit_train", e, et)]
        fields = _credit_payment(rules, st, co)
        if fields is not None:
            out.insert(0, _act("repay_credit", e, et, **fields))
        return out
    return []


def _kit_actions(rules: GameRules, st: GameState, p: PlayerState) -> list[dict[str, Any]]:
    """MIK 2, ACTIONING CARDS: each Director's Share the player may play, the rejection of
    each card and of the whole hand, or a pass (the cards retained)."""
    assert rules.kit is not None
    cards = kit.hand(st, p.name)
    out: list[dict[str, Any]] = []
    for card in cards:
        spec = rules.kit.card(card)
        if spec.kind == "commodity":
            assert spec.commodity is not None
            out.extend(_act("play_card", p.name, "player", card=card, hex=h)
                       for h in _commodity_hexes(rules, st, spec.commodity))
            continue
        if spec.kind == "disturbances":
            disturbed = st.kit.disturbed if st.kit is not None else []
            out.extend(_act("play_card", p.name, "player", card=card, city=c.name)
                       for c in rules.cities if c.name not in disturbed)
            continue
        assert spec.company is not None
        try:
            kit.check_directors_share(rules, st, p, spec.company)
        except India1853Error:
            continue
        out.append(_act("play_card", p.name, "player", card=card))
    out.extend(_act("reject_cards", p.name, "player", cards=[c]) for c in cards)
    if len(cards) > 1:
        out.append(_act("reject_cards", p.name, "player", cards=cards))
    return [*out, _act("pass", p.name, "player")]


def _commodity_hexes(rules: GameRules, st: GameState, commodity: str) -> list[str]:
    """MIK 2, COMMODITY CARDS: the hexes whose tile the card may replace now."""
    out = []
    for coord, _, _ in st.board.tiles_on_board():
        try:
            kit.commodity_tile(rules, st, commodity, coord)
        except India1853Error:
            continue
        out.append(coord)
    return out


def _credit_payment(rules: GameRules, st: GameState, co: CompanyState) -> dict[str, Any] | None:
    if co.credit_train is None:
        return None
    card = next(t for t in st.trains if t.id == co.credit_train)
    price = rules.train_type(card.runs_as).price
    if co.cash >= price:
        return {}
    if co.director is not None and st.player(co.director).cash >= price - co.cash:
        return {"contribution": price - co.cash}
    return None


def _operating(rules: GameRules, st: GameState, co: CompanyState,
               track: Collection[str]) -> list[dict[str, Any]]:
    e = co.initials
    step = st.turn.step
    if step == "lay_option":
        return [_act("choose_lay_option", e, "company", option=o) for o in (1, 2)]
    if step == "track":
        out = [_act(kind, e, "company", **f)
               for kind in TRACK_MOVES if kind in track
               for f in board_port.legal_moves(rules, st, co, kind)]
        return [*out, *_sales_to_bank(rules, st, co), _act("pass", e, "company")]
    if step == "base":
        out = [_act("place_base", e, "company", **f)
               for f in board_port.legal_moves(rules, st, co, "place_base")]
        return [*out, _act("pass", e, "company")]
    if step == "run":
        best = board_port.best_routes(rules, st, co)
        if not best:
            # No legal run at all (or none covering the duties): the company passes its run.
            return [_act("pass", e, "company")]
        out = [_act("run_routes", e, "company", routes=best)]
        if st.turn.duties:
            return out  # 4.2.3 / 4.4.2: the run must cover this turn's duty hexes
        return [*out, _act("pass", e, "company")]
    if step == "dividend":
        return [_act("dividend", e, "company", kind=k) for k in ("payout", "withhold")]
    return _train_actions(rules, st, co)


def _sales_to_bank(rules: GameRules, st: GameState,
                   co: CompanyState) -> list[dict[str, Any]]:
    """Alternative Rules 4.0: each train the company may sell to the bank now."""
    if rules.train_sales_phase is None:
        return []
    out = []
    for t in st.company_trains(co.initials):
        try:
            trains.check_sale_to_bank(rules, st, co, t.id)
        except India1853Error:
            continue
        out.append(_act("sell_train", co.initials, "company", train=t.id))
    return out


def _train_actions(rules: GameRules, st: GameState, co: CompanyState) -> list[dict[str, Any]]:
    e = co.initials
    out: list[dict[str, Any]] = []
    if co.credit_train is not None:
        fields = _credit_payment(rules, st, co)
        if fields is not None:
            out.append(_act("repay_credit", e, "company", **fields))
        return [*out, _act("pass", e, "company")]
    seen: set[tuple[str, bool]] = set()
    for offer in trains.bank_offers(rules, st, co):
        key = (offer.train, offer.token)
        if key in seen:
            continue
        seen.add(key)
        extra: dict[str, Any] = {"token": True} if offer.token else {}
        if co.cash >= offer.price:
            out.append(_act("buy_train", e, "company", train=offer.train, **extra))
        elif co.director is not None:
            short = offer.price - co.cash
            if st.player(co.director).cash >= short:
                out.append(_act("buy_train", e, "company", train=offer.train,
                                contribution=short, **extra))
        elif not st.company_trains(e) and not offer.returned:
            # 3.4.3 credit; with the minor's token (4.8.19) too: it is a new train from the bank.
            out.append(_act("buy_train", e, "company", train=offer.train, credit=True, **extra))
    for seller, name in trains.company_sales(rules, st, co, same_controller=True):
        out.append(_act("buy_train", e, "company", train=name, source=seller,
                        price=rules.train_sale_minimum))
    return [*out, _act("pass", e, "company")]
