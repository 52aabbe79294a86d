"""A major company's first turn: how it lays two tiles a turn (4.1.3)."""

from __future__ import annotations

from collections.abc import Collection

from india1853.rules.game import operating_round
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState
from india1853.rules.game.steps.step import TRACK_MOVES, Action, Step, act, company_of


class LayOption(Step):
    """4.1.3: option 1, two lays later for free; option 2, two lays now for a fee."""

    kind = "lay_option"
    rule = "4.1.3"
    actions = ("choose_lay_option",)
    what = "choose how to lay two tiles a turn"
    name = "the lay option"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        return [act("choose_lay_option", entity, "company", option=o) for o in (1, 2)]

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        co = company_of(st, action["entity"])
        operating_round.choose_lay_option(rules, st, co, action["option"])
