"""A stock round turn: buy, sell or redeem shares, or pass (3.1-3.2)."""

from __future__ import annotations

from collections.abc import Collection

from india1853.errors import India1853Error, RuleError
from india1853.rules.game import stock_round
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.shares import certificates, directors_sold
from india1853.rules.game.state import GameState, PlayerState
from india1853.rules.game.steps.step import (
    TRACK_MOVES,
    Action,
    Disabled,
    PassOption,
    Step,
    act,
    initials_of,
    player_of,
)

SOURCES = ("ipo", "pool")


def _over_limit(rules: GameRules, st: GameState, p: PlayerState) -> RuleError:
    limit = rules.table.certificate_limit
    return RuleError("3.2.3", f"{p.name} holds {certificates(rules, st, p)} certificates, above "
                     f"the limit of {limit}: he must first sell down to it")


class Stock(Step):
    """3.1: in turn, buy one share (3.1.4 new at par, 3.1.7 from the pool at the market
    price), sell any (3.1.5), redeem an un-redeemed share (2.7.4), or pass (3.1.1); above the
    certificate limit a player must sell first (3.2.3)."""

    kind = "stock"
    rule = "3.1"
    type_rule = "3"
    actions = ("buy_share", "sell_shares", "redeem_share", "pass")
    what = "buy, sell or redeem shares, or pass"
    pass_option = PassOption("Pass", "Buy and sell nothing this turn (3.1.1)", "3.1.1")
    declined = "passes"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        p = st.player(entity)
        out: list[Action] = []
        over = stock_round.over_limit(rules, st, p)
        for co in st.companies.values():
            for n in range(1, stock_round.sellable(rules, st, p, co) + 1):
                try:
                    directors_sold(rules, st, p, co.initials, n)
                except India1853Error:
                    continue  # MIK 2: a Director's Share is sold whole
                out.append(act("sell_shares", p.name, "player", company=co.initials, count=n))
            if p.unredeemed.get(co.initials, 0):
                try:
                    stock_round.check_redeem(rules, p, co.initials)
                except RuleError:
                    pass
                else:
                    out.append(act("redeem_share", p.name, "player", company=co.initials))
            if over:
                continue
            for source in SOURCES:
                try:
                    stock_round.check_buy(rules, st, p, co.initials, source)
                except India1853Error:
                    continue
                out.append(act("buy_share", p.name, "player", company=co.initials,
                               source=source))
        if not over:
            out.append(act("pass", p.name, "player"))
        return out

    def disabled(self, rules: GameRules, st: GameState, entity: str) -> list[Disabled]:
        """Each share the player may not buy (from the offering and from the pool), the
        first sale of each company he holds but may not sell and each un-redeemed share he
        cannot pay to redeem, with the rule that forbids it (2.7.4, 2.8.1, 2.8.3, 3.1.2-3.1.9,
        3.2.3); a pass above the certificate limit (3.2.3)."""
        p = st.player(entity)
        over = stock_round.over_limit(rules, st, p)
        out: list[Disabled] = []
        for co in st.companies.values():
            if p.shares.get(co.initials, 0) and stock_round.sellable(rules, st, p, co) == 0:
                sale = act("sell_shares", p.name, "player", company=co.initials, count=1)
                try:
                    stock_round.check_sell(rules, st, p, co.initials, 1)
                except RuleError as error:
                    out.append(Disabled(sale, error))
            if p.unredeemed.get(co.initials, 0):
                redeem = act("redeem_share", p.name, "player", company=co.initials)
                try:
                    stock_round.check_redeem(rules, p, co.initials)
                except RuleError as error:
                    out.append(Disabled(redeem, error))
            for source in SOURCES:
                buy = act("buy_share", p.name, "player", company=co.initials, source=source)
                if over:
                    out.append(Disabled(buy, _over_limit(rules, st, p)))
                    continue
                try:
                    stock_round.check_buy(rules, st, p, co.initials, source)
                except RuleError as error:
                    out.append(Disabled(buy, error))
        if over:
            out.append(Disabled(act("pass", p.name, "player"), _over_limit(rules, st, p)))
        return out

    def missing_item(self, option: Disabled) -> str | None:
        """A new share he may not buy, unless none is on sale (nothing to explain, 3.1.4)."""
        a = option.action
        if a["type"] != "buy_share" or a["source"] != "ipo" or option.reason.rule == "3.1.4":
            return None
        return str(a["company"])

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        kind = action["type"]
        player = player_of(st, action["entity"])
        if kind == "pass":
            stock_round.decline(rules, st, player)
            return
        initials = initials_of(st, action["company"])
        if kind == "buy_share":
            stock_round.buy_share(rules, st, player, initials, action["source"])
        elif kind == "sell_shares":
            stock_round.sell_shares(rules, st, player, initials, action["count"])
        else:
            stock_round.redeem_share(rules, st, player, initials)
