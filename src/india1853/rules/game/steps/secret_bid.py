"""First edition 14: every player writes his whole contract bid secretly, at once."""

from __future__ import annotations

from collections.abc import Collection

from india1853.rules.game import secret_bids
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState
from india1853.rules.game.steps.step import TRACK_MOVES, Action, Step, act, player_of


class SecretBid(Step):
    """14.1-14.5: cities, a share claimed at each, the bond their values (a sample of legal
    bids is listed; ``submit_bid`` accepts any legal bid)."""

    kind = "bids"
    rule = "14"
    secret = True
    actions = ("submit_bid",)
    what = "write your contract bid secretly: cities, shares and bond"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        return [act("submit_bid", entity, "player",
                    claims=[{"city": c, "company": i} for c, i in bid])
                for bid in secret_bids.sample_bids(rules, st, st.player(entity))]

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        secret_bids.submit_bid(rules, st, player_of(st, action["entity"]),
                               secret_bids.parse_claims(action["claims"]))
