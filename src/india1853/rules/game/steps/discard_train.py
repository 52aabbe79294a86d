"""Trains above the limit go back to the bank, on their director's choice (4.8.6)."""

from __future__ import annotations

from collections.abc import Collection

from india1853.rules.game import trains
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState
from india1853.rules.game.steps.step import TRACK_MOVES, Action, Step, act, company_of


class DiscardTrain(Step):
    """4.8.6: a company above the new phase's train limit returns the excess to the pool."""

    kind = "discard_train"
    rule = "4.8.6"
    actions = ("discard_train",)
    what = "must return excess trains to the bank"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        p = st.pending[0]
        return [act("discard_train", p.entity, p.entity_type, train=t.id)
                for t in st.company_trains(p.entity)]

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        p = st.pending[0]
        trains.discard_train(rules, st, company_of(st, p.entity), action["train"])
        p.data["count"] -= 1
        if p.data["count"] == 0:
            st.pending.pop(0)
