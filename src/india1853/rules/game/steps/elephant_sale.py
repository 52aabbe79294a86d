"""The end of a stock round: the Elephant's holder may offer it to another player (3.1.11)."""

from __future__ import annotations

from collections.abc import Collection

from india1853.errors import RuleError
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState, Pending
from india1853.rules.game.steps.step import (
    TRACK_MOVES,
    Action,
    PassOption,
    Step,
    act,
    player_of,
)

# The Elephant is offered for £0 and in £10 steps up to £50 (any price is accepted).
ELEPHANT_PRICES = (0, 10, 20, 30, 40, 50)


def after_stock_round(rules: GameRules, st: GameState) -> None:
    """The Elephant's sale settled: the stock round is over (the sequencer starts what
    follows, sequence.py)."""
    if st.round == "stock_end" and not st.pending:
        st.end_round()


class ElephantSale(Step):
    """3.1.11: at the end of a stock round the Elephant's holder may sell it to another
    player for an agreed price (an offer, then an acceptance); each player may be offered it
    once."""

    kind = "elephant_sale"
    rule = "3.1.11"
    actions = ("offer_elephant", "pass")
    what = "may sell the Elephant to another player"
    pass_option = PassOption("Keep the Elephant", "Keep the Elephant: no sale (3.1.11)",
                             "3.1.11")
    declined = "keeps the Elephant (no sale offered, 3.1.11)"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        e, et = st.pending[0].entity, st.pending[0].entity_type
        out = [act("pass", e, et)]
        for other in st.players:
            if other.name == e or other.name in st.elephant_offers:
                continue
            for price in ELEPHANT_PRICES:
                if price <= other.cash:
                    out.append(act("offer_elephant", e, et, buyer=other.name, price=price))
        return out

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        holder = st.player(st.elephant or "")
        if action["type"] == "pass":
            st.pending.pop(0)
            after_stock_round(rules, st)
            return
        buyer = player_of(st, action["buyer"])
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
