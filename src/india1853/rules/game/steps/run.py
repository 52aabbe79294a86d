"""The run step of a company's turn: its trains run (4.5, 4.6)."""

from __future__ import annotations

from collections.abc import Collection

from india1853.errors import RuleError
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


class Run(Step):
    """4.5: the trains run (the router's optimum is offered); 4.2.3 / 4.4.2: a tile promoted
    or a base placed outside the company's area this turn must be on one of its runs."""

    kind = "run"
    rule = "4.5"
    actions = ("run_routes", "pass")
    what = "run its trains"
    name = "running trains"
    pass_option = PassOption("Pass", "Run no trains: no revenue this turn", "4.5")

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        co = st.companies[entity]
        best = board_port.best_routes(rules, st, co)
        if not best:
            # No legal run at all (or none covering the duties): the company passes its run.
            return [act("pass", entity, "company")]
        out = [act("run_routes", entity, "company", routes=best)]
        if st.turn.duties:
            return out  # 4.2.3 / 4.4.2: the run must cover this turn's duty hexes
        return [*out, act("pass", entity, "company")]

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        co = company_of(st, action["entity"])
        if action["type"] == "pass":
            if check and st.turn.duties and board_port.best_routes(rules, st, co) is not None:
                raise RuleError("4.2.3 / 4.4.2", "a tile promoted or given a base outside the "
                                "company's area this turn must be on one of its runs")
            st.turn.revenue = 0
            operating_round.advance(rules, st)
            return
        board_port.run_routes(rules, st, co, action["routes"], check=check)
        operating_round.advance(rules, st)
