"""A train bought on credit is paid for, or returned, when control changes (4.8.10)."""

from __future__ import annotations

from collections.abc import Collection

from india1853.rules.game import trains
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState
from india1853.rules.game.steps.step import TRACK_MOVES, Action, Step, act, company_of
from india1853.rules.game.steps.trains import credit_payment


class CreditTrain(Step):
    """4.8.10: a director appointed to a company with a train bought on credit pays for it
    (4.8.8: with his contribution) or returns it to the bank."""

    kind = "credit_train"
    rule = "4.8.10"
    actions = ("repay_credit", "return_credit_train")
    what = "must pay for or return the train bought on credit"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        p = st.pending[0]
        out = [act("return_credit_train", p.entity, p.entity_type)]
        fields = credit_payment(rules, st, st.companies[p.entity])
        if fields is not None:
            out.insert(0, act("repay_credit", p.entity, p.entity_type, **fields))
        return out

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        co = company_of(st, st.pending[0].entity)
        if action["type"] == "repay_credit":
            trains.repay_credit(rules, st, co, action.get("contribution", 0))
        else:
            trains.return_credit_train(rules, st, co)
        st.pending.pop(0)
