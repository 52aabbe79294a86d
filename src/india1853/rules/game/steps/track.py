"""The track step of a company's turn: lay or promote tiles, or pass (4.1, 4.2); with the
Alternative Rules 4.0, sell a train to the bank."""

from __future__ import annotations

from collections.abc import Collection

from india1853.errors import India1853Error
from india1853.rules.game import board_port, operating_round, trains
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import CompanyState, GameState
from india1853.rules.game.steps.step import (
    TRACK_MOVES,
    Action,
    PassOption,
    Step,
    act,
    company_of,
)


def sales_to_bank(rules: GameRules, st: GameState, co: CompanyState) -> list[Action]:
    """Alternative Rules 4.0: each train the company may sell to the bank now."""
    if rules.train_sales_phase is None:
        return []
    out = []
    for t in st.company_trains(co.initials):
        try:
            trains.check_sale_to_bank(rules, st, co, t.id)
        except India1853Error:
            continue
        out.append(act("sell_train", co.initials, "company", train=t.id))
    return out


class Track(Step):
    """4.1: lay track (4.1.4-4.1.12) or promote a tile (4.2), as many lays as the company
    has (4.1.3); the step ends with the last lay, a promotion or a pass."""

    kind = "track"
    rule = "4.1"
    actions = ("lay_tile", "promote_tile", "sell_train", "pass")
    what = "lay or promote track, or pass"
    name = "track"
    pass_option = PassOption("Pass", "Lay no (more) track this turn", "4.1")

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        co = st.companies[entity]
        out = [act(kind, entity, "company", **f)
               for kind in TRACK_MOVES if kind in track
               for f in board_port.legal_moves(rules, st, co, kind)]
        return [*out, *sales_to_bank(rules, st, co), act("pass", entity, "company")]

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        co = company_of(st, action["entity"])
        kind = action["type"]
        if kind == "pass":
            operating_round.advance(rules, st)
        elif kind == "lay_tile":
            board_port.lay_tile(rules, st, co, action["hex"], action["tile"],
                                action["rotation"], check=check)
            if board_port.lays_left(rules, st, co) == 0:
                operating_round.advance(rules, st)
        elif kind == "promote_tile":
            board_port.promote_tile(rules, st, co, action["hex"], action["tile"],
                                    action["rotation"], check=check)
            operating_round.advance(rules, st)
        else:
            trains.sell_to_bank(rules, st, co, action["train"])
