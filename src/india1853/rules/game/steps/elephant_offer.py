"""A player offered the Elephant accepts or rejects the price (3.1.11)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from india1853.rules.game.events import change, paid
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState, Pending
from india1853.rules.game.steps.elephant_sale import after_stock_round
from india1853.rules.game.steps.step import TRACK_MOVES, Action, Answer, Step


class ElephantOffer(Step):
    """3.1.11: accepted, the Elephant and the price change hands; rejected, its holder may
    offer it to another player."""

    kind = "elephant_offer"
    rule = "3.1.11"
    actions = ("accept_offer", "reject_offer")
    what = "is offered the Elephant"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        return self.every_answer(st)

    def answer(self, data: dict[str, Any], *, accepted: bool) -> Answer:
        price = int(data.get("price", 0))
        what = f"the Elephant from {data.get('seller')} for £{price}"
        return Answer(price if accepted else None, ("Buy " if accepted else "Refuse ") + what)

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        p = st.pending.pop(0)
        if action["type"] != "accept_offer":
            st.pending.insert(0, Pending("elephant_sale", p.data["seller"], "player"))
            return
        buyer, seller = st.player(p.entity), st.player(p.data["seller"])
        buyer.cash -= p.data["price"]
        seller.cash += p.data["price"]
        paid(st, buyer.name, seller.name, p.data["price"], "3.1.11")
        change(st, "elephant", "", "3.1.11", st.elephant, buyer.name)
        st.elephant = buyer.name
        after_stock_round(rules, st)
