"""A company is offered a price for one of its trains by a company of another controller
(4.8.9)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from india1853.rules.game import trains
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState
from india1853.rules.game.steps.step import (
    TRACK_MOVES,
    Action,
    Answer,
    Step,
    company_of,
)


class TrainSale(Step):
    """4.8.9: the selling company's controller accepts or rejects the agreed price."""

    kind = "train_sale"
    rule = "4.8.9"
    actions = ("accept_offer", "reject_offer")
    what = "is offered a price for one of its trains"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        return self.every_answer(st)

    def answer(self, data: dict[str, Any], *, accepted: bool) -> Answer:
        price = int(data.get("price", 0))
        what = f"the '{data.get('train')}' to {data.get('buyer')} for £{price}"
        return Answer(-price if accepted else None,
                      ("Sell " if accepted else "Refuse to sell ") + what)

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        p = st.pending.pop(0)
        if action["type"] == "accept_offer":
            buyer = company_of(st, p.data["buyer"])
            seller = company_of(st, p.entity)
            card = trains.check_company_sale(rules, st, buyer, seller, p.data["train"],
                                             p.data["price"])
            trains.transfer(st, buyer, seller, card, p.data["price"])
