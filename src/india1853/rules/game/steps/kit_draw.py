"""MIK 2, METHOD: at the start of a railway round each player may take a card."""

from __future__ import annotations

from collections.abc import Collection

from india1853.errors import RuleError
from india1853.rules.game import kit
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState
from india1853.rules.game.steps.step import (
    TRACK_MOVES,
    Action,
    Disabled,
    PassOption,
    Step,
    act,
)


class KitDraw(Step):
    """MIK 2, METHOD: the top card of the stack, or none; never beyond the player's number of
    cards (MIK 2, GENERAL)."""

    kind = "kit_draw"
    rule = kit.METHOD
    actions = ("draw_card", "pass")
    what = "may take a card of the MIK 2 kit"
    pass_option = PassOption("Take no card", "Take no card of the MIK 2 kit this round",
                             kit.METHOD)
    declined = "takes no card of the MIK 2 kit"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        p = st.pending[0]
        why = kit.may_draw(rules, st, st.player(p.entity))
        return [*([act("draw_card", p.entity, p.entity_type)] if why is None else []),
                act("pass", p.entity, p.entity_type)]

    def disabled(self, rules: GameRules, st: GameState, entity: str) -> list[Disabled]:
        why = kit.may_draw(rules, st, st.player(entity))
        if why is None:
            return []
        rule = kit.GENERAL if "limit" in why else kit.METHOD
        return [Disabled(act("draw_card", entity, "player"), RuleError(rule, why))]

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        kit.draw_card(rules, st, st.pending[0], draw=action["type"] == "draw_card")
