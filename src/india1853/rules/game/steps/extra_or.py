"""The Elephant's holder may call one extra operating round (4.9)."""

from __future__ import annotations

from collections.abc import Collection

from india1853.rules.game import sequence
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState
from india1853.rules.game.steps.step import TRACK_MOVES, Action, PassOption, Step


class ExtraOperatingRound(Step):
    """4.9: after the operating rounds of a set, the Elephant may call one more."""

    kind = "extra_or"
    rule = "4.9"
    actions = ("call_extra_or", "pass")
    what = "may call an extra operating round with the Elephant"
    pass_option = PassOption("Do not call an extra round",
                             "No extra operating round: the stock round follows (4.9)", "4.9")
    declined = "does not call an extra operating round (4.9)"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        return self.every_answer(st)

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        st.pending.pop(0)
        sequence.call_extra_or(rules, st, called=action["type"] == "call_extra_or")
