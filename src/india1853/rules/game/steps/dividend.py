"""The dividend step of a company's turn: pay out or withhold the run's revenue (4.6.4)."""

from __future__ import annotations

from collections.abc import Collection

from india1853.rules.game import operating_round
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState
from india1853.rules.game.steps.step import TRACK_MOVES, Action, Step, act, company_of


class Dividend(Step):
    """4.6.4-4.6.5: the revenue paid to the shareholders or kept; the price moves (4.7.1)."""

    kind = "dividend"
    rule = "4.6.4"
    type_rule = "4.6"
    actions = ("dividend",)
    what = "pay out or withhold the run's revenue"
    name = "the dividend"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        return [act("dividend", entity, "company", kind=k) for k in ("payout", "withhold")]

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        co = company_of(st, action["entity"])
        operating_round.settle_dividend(rules, st, co, payout=action["kind"] == "payout")
        if st.round != "finished":
            operating_round.advance(rules, st)
