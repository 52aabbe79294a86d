"""The turn model's options: each legal action of a deciding entity priced as the engine applies
it (its cost, effect, note, rule and the data a board picture needs), the options that exist
but are not possible now with the engine's reasons, and the lines naming what is missing."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from india1853.board import tiles as tile_geometry
from india1853.board.graph import TrackGraph
from india1853.data.summaries import rule_summary
from india1853.rules import construction as con
from india1853.rules.construction.common import hex_spec
from india1853.rules.construction.promotions import promotion_cost
from india1853.rules.game import board_port, directing, steps, stock_round
from india1853.rules.game.game import Game
from india1853.rules.game.legal import disabled_options
from india1853.rules.game.operating_round import price_after_dividend
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState
from india1853.rules.game.steps import Disabled
from india1853.rules.routes import parse_route_file, route_value

Action = dict[str, Any]
Json = dict[str, Any]




@dataclass
class _Context:
    """What the pricing of one entity's options needs, computed once per call."""

    game: Game
    entity: str
    view: Mapping[str, Any]
    construction: con.CompanyContext | None = None
    graph: TrackGraph | None = None

    @property
    def rules(self) -> GameRules:
        return self.game.rules

    @property
    def st(self) -> GameState:
        return self.game.state

    def company_context(self) -> con.CompanyContext:
        if self.construction is None:
            st = self.st
            self.construction = board_port.context(self.rules, st, st.companies[self.entity])
        return self.construction


def _option(action: Action, label: str, cost: int | None, effect: str, rule: str, *,
            note: str = "", ui: Json | None = None) -> Json:
    return {"action": action, "type": action["type"], "label": label, "cost": cost,
            "effect": effect, "note": note, "rule": rule, "ui": ui or {}}


def _place(ctx: _Context, hex_: str) -> str:
    for city in ctx.rules.cities:
        if city.hex == hex_:
            return f"{hex_} ({city.name})"
    return hex_


def _player_bond_left(ctx: _Context) -> int | None:
    p = ctx.st.player(ctx.entity)
    if p.bond is None:
        return None
    return p.bond - sum(ctx.rules.city(c).bond_value for c in p.cities)


def _bond(ctx: _Context, a: Action) -> Json:
    amount = int(a["amount"])
    return _option(a, f"Bond £{amount}", amount,
                   f"Write down a bond of £{amount}: it is held aside until your contract "
                   f"cities are connected (2.5.2, 4.3); their bond values may add up to at "
                   f"most £{amount} (2.5.9)", "2.5.2")


def _claim(ctx: _Context, a: Action) -> Json:
    city, company = str(a["city"]), str(a["company"])
    value = ctx.rules.city(city).bond_value
    left = _player_bond_left(ctx)
    note = "" if left is None else f"leaves £{left - value} of the bond uncovered"
    return _option(a, f"Claim {city} for {company}", None,
                   f"Name {city} (bond value £{value}) in your secret bid and claim a share of "
                   f"{company}, paid at the end of the bids (2.5.4, 2.7)", "2.5.4",
                   note=note, ui={"city": city, "company": company, "hex":
                                  ctx.rules.city(city).hex, "bond_value": value})


def _buy_share(ctx: _Context, a: Action) -> Json:
    company, source = str(a["company"]), str(a["source"])
    co = ctx.st.companies[company]
    cost = stock_round.buy_cost(ctx.rules, co, source)
    where = "the offering" if source == "ipo" else "the pool"
    rule = "3.1.4" if source == "ipo" else "3.1.7"
    return _option(a, f"Buy {company} from {where}", cost,
                   f"Buy one {company} share from {where} for £{cost}"
                   + (" (new shares at par)" if source == "ipo" else " (the market price)"), rule,
                   ui={"company": company, "source": source, "count": 1})


def _sell(ctx: _Context, a: Action) -> Json:
    company, count = str(a["company"]), int(a["count"])
    co = ctx.st.companies[company]
    price = stock_round.sale_price(ctx.rules, ctx.st, co)
    rule = "2.8.3" if stock_round.first_round(ctx.st) else "3.1.7"
    shares = "a share" if count == 1 else f"{count} shares"
    return _option(a, f"Sell {shares} of {company}", -price * count,
                   f"Sell {shares} of {company} to the pool at £{price} each", rule,
                   note=f"you may not buy {company} again this stock round (3.1.9)",
                   ui={"company": company, "source": "player", "to": "pool", "count": count,
                       "price": price})


def _redeem(ctx: _Context, a: Action) -> Json:
    company = str(a["company"])
    par = ctx.rules.company(company).par
    return _option(a, f"Redeem a {company} share", par,
                   f"Pay £{par} for an un-redeemed {company} share", "2.7.4",
                   ui={"company": company, "source": "player", "count": 1})


def _track(ctx: _Context, a: Action) -> Json:
    kind = a["type"]
    hex_, tile, rotation = str(a["hex"]), str(a["tile"]), int(a["rotation"])
    board = ctx.st.board
    coord = hex_spec(board, hex_).coord
    if kind == "lay_tile":
        cost = con.lay_cost(board, ctx.company_context(),
                            con.ConstructionPolicy.of(ctx.rules.ed), con.Lay(coord, tile, rotation))
        verb, rule = "Lay", "4.1"
    else:
        cost = promotion_cost(board, coord)
        verb, rule = "Promote", "4.2"
    exits = sorted(tile_geometry.exits(ctx.rules.ed.tiles[tile], rotation))
    place = _place(ctx, hex_)
    effect = (f"{verb} tile {tile} on {place} at rotation {rotation}"
              + (f" for £{cost}" if cost else ""))
    return _option(a, f"{verb} {tile} on {hex_} rot {rotation}", cost, effect,
                   "4.1.12" if kind == "lay_tile" else "4.2.11",
                   note=place.split(" ", 1)[1].strip("()") if " " in place else "",
                   ui={"hex": hex_, "tile": tile, "rotation": rotation, "exits": exits,
                       "colour": ctx.rules.ed.tiles[tile].colour, "kind": rule,
                       # 4.6.2: what each station of the tile scores on a run
                       "values": [s.value for s in ctx.rules.ed.tiles[tile].stations]})


def _base(ctx: _Context, a: Action) -> Json:
    hex_, station = str(a["hex"]), a.get("station")
    cost = con.base_cost(ctx.st.board, ctx.company_context())
    place = _place(ctx, hex_)
    return _option(a, f"Base on {hex_}" + (f" {station}" if station else ""), cost,
                   f"Place a base on {place} for £{cost}", "4.4.4",
                   note=place.split(" ", 1)[1].strip("()") if " " in place else "",
                   ui={"hex": hex_, "station": station})


def _run(ctx: _Context, a: Action) -> Json:
    st = ctx.st
    co = st.companies[ctx.entity]
    if ctx.graph is None:
        ctx.graph = TrackGraph.build(st.board)
    trains = board_port.running_trains(ctx.rules, st, co)
    routes_out: list[Json] = []
    revenue = mail = 0
    _, parsed = parse_route_file({"company": co.initials, "routes": a["routes"]}, ctx.graph,
                                 trains)
    for raw, route in zip(a["routes"], parsed, strict=True):
        value = route_value(route, ctx.graph)
        revenue += value.revenue
        mail += value.mail
        hexes = [str(h).split(":")[0] for h in raw["hexes"]]
        routes_out.append({"train": raw["train"], "mail": bool(raw.get("mail")),
                           "hexes": [h for i, h in enumerate(hexes) if i == 0
                                     or h != hexes[i - 1]],
                           "stops": list(raw["hexes"]), "revenue": value.revenue,
                           "mail_revenue": value.mail})
    words = "; ".join(f"'{r['train']}'{' (mail)' if r['mail'] else ''} "
                      + "-".join(r["hexes"]) for r in routes_out)
    effect = f"Run for £{revenue}" + (f" and £{mail} of mail to the company" if mail else "")
    received = mail
    if co.director is None:
        # 3.4.2: a manager may not pay a dividend; the engine withholds the run at once.
        received += revenue
        effect += "; run by a manager, who may not pay a dividend, the company keeps it (3.4.2)"
    return _option(a, f"Run (optimal, £{revenue + mail})", -received if received else None,
                   effect + " (4.6)", "4.6",
                   note=f"optimal run £{revenue + mail}: {words}" if words else "no routes",
                   ui={"routes": routes_out, "revenue": revenue, "mail": mail,
                       "total": revenue + mail})


def _dividend(ctx: _Context, a: Action) -> Json:
    st = ctx.st
    co = st.companies[ctx.entity]
    revenue = st.turn.revenue
    payout = a["kind"] == "payout"
    per_share = revenue // ctx.rules.shares_per_company
    before = ctx.rules.market[co.price_index or 0]
    after_index = price_after_dividend(ctx.rules, co, payout=payout, dividend=revenue)
    after = ctx.rules.market[after_index]
    move = ("stays" if after == before else
            f"{'rises' if after > before else 'falls'} from £{before} to £{after}")
    ui = {"revenue": revenue, "per_share": per_share if payout else 0,
          "price": before, "price_after": after, "market_index_after": after_index}
    if payout:
        return _option(a, f"Pay out £{revenue}", None,
                       f"Pay £{per_share} a share to the shareholders; the price {move} (4.7.1)",
                       "4.6.5", note=f"£{per_share} a share to the shareholders", ui=ui)
    return _option(a, f"Withhold £{revenue}", -revenue if revenue else None,
                   f"Keep £{revenue} in the treasury; the price {move} (4.7.1)", "4.6.4",
                   note="to the company's treasury", ui=ui)


def _buy_train(ctx: _Context, a: Action) -> Json:
    train = str(a["train"])
    source = a.get("source", "bank")
    if source != "bank":
        price = int(a["price"])
        return _option(a, f"Buy a '{train}' from {source} for £{price}", price,
                       f"Buy {source}'s '{train}' for £{price} (at least the minimum; any agreed "
                       "price is accepted)", "4.8.9",
                       ui={"train": train, "source": source, "price": price})
    price = ctx.rules.train_type(train).price
    note, cost = "", price
    if a.get("contribution"):
        cost = price - int(a["contribution"])
        note = f"the director adds £{a['contribution']} (4.8.8)"
    if a.get("credit"):
        cost = 0
        note = f"on credit: £{price} to be paid before the next train (3.4.3, 4.8.10)"
    if a.get("token"):
        note = (note + "; " if note else "") + "with the minor's special token (4.8.19)"
    label = f"Buy a '{train}' from the bank" + (" on credit" if a.get("credit") else "")
    return _option(a, label, cost, f"Buy a '{train}' train from the bank for £{price}", "4.8",
                   note=note, ui={"train": train, "source": "bank", "price": price})


def _pass(ctx: _Context, a: Action) -> Json:
    step = steps.current(ctx.st)
    words = None if step is None else step.pass_option
    if words is None:
        return _option(a, "Pass", None, "Pass", "")
    return _option(a, words.label, None, words.effect, words.rule)


def _pending_option(ctx: _Context, a: Action) -> Json:
    kind = a["type"]
    st = ctx.st
    data = st.pending[0].data if st.pending else {}
    if kind == "offer_elephant":
        price = int(a["price"])
        return _option(a, f"Offer the Elephant to {a['buyer']} for £{price}", -price,
                       f"Offer the Elephant to {a['buyer']} for £{price} (they may refuse)",
                       "3.1.11", ui={"buyer": a["buyer"], "price": price})
    step = steps.current(st)
    if kind in ("accept_offer", "reject_offer") and step is not None:
        yes = kind == "accept_offer"
        answer = step.answer(data, accepted=yes)
        return _option(a, "Accept" if yes else "Reject", answer.cost, answer.effect,
                       step.rule)
    if kind == "call_extra_or":
        return _option(a, "Call an extra operating round", None,
                       "Call one extra operating round now (4.9)", "4.9")
    if kind == "discard_train":
        card = next(t for t in st.trains if t.id == a["train"])
        return _option(a, f"Return the '{card.runs_as}' ({card.id})", None,
                       f"Return the '{card.runs_as}' train to the bank pool (4.8.6)", "4.8.6",
                       ui={"train": card.runs_as, "card": card.id})
    if kind == "repay_credit":
        co = st.companies[ctx.entity]
        card = next(t for t in st.trains if t.id == co.credit_train)
        price = ctx.rules.train_type(card.runs_as).price
        contribution = int(a.get("contribution", 0))
        note = f"the director adds £{contribution} (4.8.8)" if contribution else ""
        return _option(a, f"Pay £{price} for the credit train", price - contribution,
                       f"Pay for the '{card.runs_as}' bought on credit (4.8.10)", "4.8.10",
                       note=note, ui={"train": card.runs_as, "price": price})
    if kind == "return_credit_train":
        return _option(a, "Return the credit train", None,
                       "Return the train bought on credit to the bank (4.8.10)", "4.8.10")
    return _option(a, kind, None, kind, "")


def _secret_bid(ctx: _Context, a: Action) -> Json:
    """First edition 14.2-14.4: the cities with a share claimed on each; the bond is their
    value, taken from the player's cash."""
    claims = [(str(c["city"]), str(c["company"])) for c in a["claims"]]
    bond = sum(ctx.rules.city(city).bond_value for city, _ in claims)
    listed = ", ".join(f"{city} ({company})" for city, company in claims)
    return _option(a, f"Bid {listed}", bond,
                   f"Bid secretly for {listed}; the bond of £{bond} (the cities' values) is "
                   "held aside until the contract is fulfilled (14.2-14.4)", "14",
                   ui={"claims": [{"city": c, "company": i} for c, i in claims],
                       "bond": bond})


def _sell_train(ctx: _Context, a: Action) -> Json:
    """Alternative Rules 4.0: a train sold to the bank at its full price."""
    card = next(t for t in ctx.st.trains if t.id == a["train"])
    price = ctx.rules.train_type(card.runs_as).price
    return _option(a, f"Sell the '{card.runs_as}' to the bank", -price,
                   f"Sell the '{card.runs_as}' train to the bank for its full price, £{price} "
                   "(Alternative Rules 4.0)", "Alternative Rules 4.0",
                   ui={"train": card.runs_as, "card": card.id, "price": price})


def _card_name(ctx: _Context, card_id: str) -> str:
    kit = ctx.rules.kit
    assert kit is not None
    card = kit.card(card_id)
    if card.kind == "director":
        return f"a {card.company} Director's Share"
    if card.kind == "commodity":
        return f"the {card.commodity} Commodity card"
    return "the Disturbances card"


def _draw_card(ctx: _Context, a: Action) -> Json:
    return _option(a, "Take a card", None, "Take the top card of the MIK 2 kit's stack; only "
                   "you see it (MIK 2, METHOD)", "MIK 2, METHOD")


def _play_card(ctx: _Context, a: Action) -> Json:
    """MIK 2, DIRECTOR'S SHARES: one share's par, and an ordinary share to the pool."""
    kit = ctx.rules.kit
    assert kit is not None
    card = kit.card(str(a["card"]))
    name = _card_name(ctx, card.id)
    if card.kind == "commodity":
        return _option(a, f"Action {name} on {_place(ctx, str(a['hex']))}", None,
                       f"Replace the yellow track tile on {a['hex']} with the similar tile "
                       f"with a £{kit.commodity_station_value} station", "MIK 2, COMMODITY CARDS",
                       ui={"card": card.id, "hex": a["hex"]})
    if card.kind == "disturbances":
        return _option(a, f"Close {a['city']}", None,
                       f"Close {a['city']} for the next railway round: no runs to or through "
                       "it, no track connected to it, no railhead there", "MIK 2, DISTURBANCES",
                       ui={"card": card.id, "city": a["city"]})
    assert card.company is not None
    cost = ctx.rules.company(card.company).par
    return _option(a, f"Action {name}", cost,
                   f"Action {name}: pay £{cost} and put one of your ordinary "
                   f"{card.company} shares in the bank pool", "MIK 2, DIRECTOR'S SHARES",
                   ui={"card": card.id, "company": card.company})


def _reject_cards(ctx: _Context, a: Action) -> Json:
    names = ", ".join(_card_name(ctx, str(c)) for c in a["cards"])
    return _option(a, f"Reject {names}", None, f"Put {names} face down on the discard stack "
                   "(MIK 2, ACTIONING CARDS)", "MIK 2, ACTIONING CARDS",
                   ui={"cards": list(a["cards"])})


def _lay_option(ctx: _Context, a: Action) -> Json:
    ed = ctx.rules.ed
    if a["option"] == 1:
        return _option(a, "Option 1: two lays later, free", None,
                       f"Lay two tiles a turn from phase {ed.rules.double_lay_free_from_phase}, "
                       "free (4.1.3)", "4.1.3")
    fee = ed.costs.double_lay_fees.get(ctx.entity, 0)
    return _option(a, "Option 2: two lays now, for a fee", None,
                   f"Lay two tiles a turn from now, paying £{fee} each turn it lays two (4.1.3)",
                   "4.1.3", note=f"£{fee} each turn it lays two")


OPTION_BUILDERS: dict[str, Callable[[_Context, Action], Json]] = {
    "place_bond": _bond,
    "claim_city": _claim,
    "buy_share": _buy_share,
    "sell_shares": _sell,
    "redeem_share": _redeem,
    "lay_tile": _track,
    "promote_tile": _track,
    "place_base": _base,
    "run_routes": _run,
    "dividend": _dividend,
    "buy_train": _buy_train,
    "pass": _pass,
    "choose_lay_option": _lay_option,
    "submit_bid": _secret_bid,
    "sell_train": _sell_train,
    "draw_card": _draw_card,
    "play_card": _play_card,
    "reject_cards": _reject_cards,
}


def options(game: Game, entity: str, legal: list[Action],
            view: Mapping[str, Any], *, warn: bool = True) -> list[Json]:
    """The options of ``entity`` from its legal actions (asked of the engine once).
    ``warn``: each option that would leave the player no company to direct carries the
    warning (2.9.2, 3.2.1) - each player option tried on a copy, so a reader that never shows
    warnings (a bot) asks without them."""
    ctx = _Context(game, entity, view)
    next_id = game.next_id()
    out = []
    players = [a for a in legal if a.get("entity_type") == "player"] if warn else []
    warnings = dict(zip((id(a) for a in players), directing.shut_out_warnings(
        game.rules, game.state, entity, players), strict=True))
    for raw in legal:
        action = {**raw, "id": next_id, "created_at": 0}
        build = OPTION_BUILDERS.get(action["type"], _pending_option)
        option = build(ctx, action)
        option["rule_summary"] = rule_summary(game.rules.ed.name, option["rule"])
        warning = warnings.get(id(raw))
        if warning is not None:
            option["warning"] = warning
        out.append(option)
    return out


def _disabled_words(ctx: _Context, a: Action) -> tuple[str, Json]:
    """The label and picture data of an option that is not possible now: as its enabled
    twin would be labelled, without a price (none is paid)."""
    kind = a["type"]
    if kind == "buy_share":
        where = "the offering" if a["source"] == "ipo" else "the pool"
        return (f"Buy {a['company']} from {where}",
                {"company": a["company"], "source": a["source"], "count": 1})
    if kind == "sell_shares":
        return (f"Sell a share of {a['company']}",
                {"company": a["company"], "source": "player", "to": "pool", "count": 1})
    if kind == "redeem_share":
        return (f"Redeem a {a['company']} share",
                {"company": a["company"], "source": "player", "count": 1})
    if kind == "claim_city":
        city = ctx.rules.city(str(a["city"]))
        return (f"Claim {city.name} for {a['company']}",
                {"city": city.name, "company": a["company"], "hex": city.hex,
                 "bond_value": city.bond_value})
    if kind == "buy_train":
        price = ctx.rules.train_type(str(a["train"])).price
        return (f"Buy a '{a['train']}' from the bank",
                {"train": a["train"], "source": "bank", "price": price})
    if kind == "play_card":
        card = str(a["card"])
        spec = ctx.rules.kit.card(card) if ctx.rules.kit is not None else None
        ui: Json = {"card": card}
        if spec is not None and spec.company is not None:
            ui["company"] = spec.company
        return f"Action {_card_name(ctx, card)}", ui
    if kind == "draw_card":
        return "Take a card", {}
    if kind == "pass":
        return str(_pass(ctx, a)["label"]), {}
    return kind, {}


def disabled(game: Game, entity: str, view: Mapping[str, Any],
             found: list[Disabled] | None = None) -> list[Json]:
    """The options of ``entity`` that exist but are not possible now, each with the engine's
    reason (its step's ``disabled``): ``action``, ``type``, ``label``, ``reason`` (the
    sentence, "rule 3.1.2: at most 6 shares (60%) of one company; Ann holds 6 of EIR"),
    ``rule``, ``rule_summary`` and ``ui`` as an option's."""
    ctx = _Context(game, entity, view)
    next_id = game.next_id()
    out = []
    # Second-edition numbers here: ``_cited`` translates the decision for its edition.
    if found is None:
        found = disabled_options(game.rules, game.state, entity)
    for item in found:
        action = {**item.action, "id": next_id, "created_at": 0}
        label, ui = _disabled_words(ctx, action)
        out.append({"action": action, "type": action["type"], "label": label,
                    "reason": str(item.reason), "rule": item.reason.rule,
                    "rule_summary": rule_summary(game.rules.ed.name, item.reason.rule),
                    "ui": ui})
    return out


def unavailable(game: Game, entity: str,
                found: list[Disabled] | None = None) -> list[Json]:
    """Why options the player might look for are missing, one line per rule: the disabled
    options his step names as missing (``Step.missing_item``: the claims the bid may not make
    now and a pass it may not make yet, 2.5.4-2.5.10; the new shares he may not buy, 2.7.4,
    3.1.2-3.1.9).  Only for the deciding player's own view (a claim's reasons speak of his
    secret bid)."""
    st, rules = game.state, game.rules
    step = steps.current(st)
    if step is None:
        return []
    by_rule: dict[str, tuple[str, list[str]]] = {}
    if found is None:
        found = disabled_options(rules, st, entity)
    for option in found:
        item = step.missing_item(option)
        if item is not None:
            by_rule.setdefault(option.reason.rule, (str(option.reason), []))[1].append(item)
    return [{"rule": rule, "reason": reason, "items": items,
             "rule_summary": rule_summary(rules.ed.name, rule)}
            for rule, (reason, items) in by_rule.items()]


__all__ = ["disabled", "options", "unavailable"]
