"""The contract bids' first stage: every player writes down a secret bond at once (2.5.2)."""

from __future__ import annotations

from collections.abc import Collection

from india1853.rules.game import bids
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState
from india1853.rules.game.steps.step import TRACK_MOVES, Action, Step, act, player_of
from india1853.rules.game.wording import verb

# Open-ended amounts are offered in steps (any whole number is accepted by ``process``).
BOND_STEP = 10


class Bonds(Step):
    """2.5.2: a bond of at least TABLE 3's minimum, at most the player's cash, able to cover a
    legal bid (2.5.6)."""

    kind = "bonds"
    rule = "2.5.2"
    secret = True
    actions = ("place_bond",)
    what = "write down your bond, secretly"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        p = st.player(entity)
        out = []
        amount = rules.table.minimum_bond or 0
        while amount <= p.cash:
            if bids.completable(rules, st, [], amount):
                out.append(act("place_bond", p.name, "player", amount=amount))
            amount += BOND_STEP
        return out

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        bids.place_bond(rules, st, player_of(st, action["entity"]), action["amount"])

    def headline(self, names: list[str]) -> str | None:
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        writes = verb(who, "writes") if len(names) == 1 else "write"
        return f"{who} {writes} down a bond, secretly (2.5.2)"
