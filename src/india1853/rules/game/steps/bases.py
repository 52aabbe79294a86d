"""The base step of a company's turn: place a base, or pass (4.4)."""

from __future__ import annotations

from collections.abc import Collection

from india1853.rules.game import board_port, operating_round
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState
from india1853.rules.game.steps.step import (
    TRACK_MOVES,
    Action,
    PassOption,
    Step,
    act,
    company_of,
)


class Bases(Step):
    """4.4: one base on a city the company's track reaches, at TABLE 4's price (4.4.4)."""

    kind = "base"
    rule = "4.4"
    actions = ("place_base", "pass")
    what = "place a base, or pass"
    name = "bases"
    pass_option = PassOption("Pass", "Place no base this turn", "4.4")

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        co = st.companies[entity]
        out = [act("place_base", entity, "company", **f)
               for f in board_port.legal_moves(rules, st, co, "place_base")]
        return [*out, act("pass", entity, "company")]

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        co = company_of(st, action["entity"])
        if action["type"] == "pass":
            operating_round.advance(rules, st)
            return
        board_port.place_base(rules, st, co, action["hex"], action.get("station"), check=check)
