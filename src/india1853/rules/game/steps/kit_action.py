"""MIK 2, ACTIONING CARDS: before a dealing round each holder actions ONE card, rejects any
number, or passes (his cards retained, secret)."""

from __future__ import annotations

from collections.abc import Collection

from india1853.errors import India1853Error, RuleError
from india1853.rules.game import kit
from india1853.rules.game.disturbances import DISTURBANCES
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState, PlayerState
from india1853.rules.game.steps.step import (
    TRACK_MOVES,
    Action,
    Disabled,
    PassOption,
    Step,
    act,
    player_of,
)


def commodity_hexes(rules: GameRules, st: GameState, commodity: str) -> list[str]:
    """MIK 2, COMMODITY CARDS: the hexes whose tile the card may replace now."""
    out = []
    for coord, _, _ in st.board.tiles_on_board():
        try:
            kit.commodity_tile(rules, st, commodity, coord)
        except India1853Error:
            continue
        out.append(coord)
    return out


def _open_cities(rules: GameRules, st: GameState) -> list[str]:
    disturbed = st.kit.disturbed if st.kit is not None else []
    return [c.name for c in rules.cities if c.name not in disturbed]


class KitAction(Step):
    """MIK 2, ACTIONING CARDS: a Director's Share (DIRECTOR'S SHARES), a Commodity card on a
    hex (COMMODITY CARDS), a Disturbances card on a city (DISTURBANCES); or rejections."""

    kind = "kit_action"
    rule = kit.ACTIONING
    actions = ("play_card", "reject_cards", "pass")
    what = "may action ONE card or reject any number"
    pass_option = PassOption("Keep my cards", "Action no card: your cards are retained, "
                             "secret (MIK 2, ACTIONING CARDS)", kit.ACTIONING)
    declined = "keeps the MIK 2 cards"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        assert rules.kit is not None
        p = st.player(st.pending[0].entity)
        cards = kit.hand(st, p.name)
        out: list[Action] = []
        for card in cards:
            spec = rules.kit.card(card)
            if spec.kind == "commodity":
                assert spec.commodity is not None
                out.extend(act("play_card", p.name, "player", card=card, hex=h)
                           for h in commodity_hexes(rules, st, spec.commodity))
                continue
            if spec.kind == "disturbances":
                out.extend(act("play_card", p.name, "player", card=card, city=c)
                           for c in _open_cities(rules, st))
                continue
            assert spec.company is not None
            try:
                kit.check_directors_share(rules, st, p, spec.company)
            except India1853Error:
                continue
            out.append(act("play_card", p.name, "player", card=card))
        out.extend(act("reject_cards", p.name, "player", cards=[c]) for c in cards)
        if len(cards) > 1:
            out.append(act("reject_cards", p.name, "player", cards=cards))
        return [*out, act("pass", p.name, "player")]

    def disabled(self, rules: GameRules, st: GameState, entity: str) -> list[Disabled]:
        """Each card in the player's hand that cannot be actioned now, with the rule: a
        Director's Share without an ordinary share to put in the pool or its price (MIK 2,
        DIRECTOR'S SHARES), a Commodity card with no tile to replace, a Disturbances card
        with no city left to close."""
        assert rules.kit is not None
        p = st.player(entity)
        out: list[Disabled] = []
        for card in kit.hand(st, p.name):
            reason = self._card_reason(rules, st, p, card)
            if reason is not None:
                out.append(Disabled(act("play_card", p.name, "player", card=card), reason))
        return out

    @staticmethod
    def _card_reason(rules: GameRules, st: GameState, p: PlayerState,
                     card: str) -> RuleError | None:
        assert rules.kit is not None
        spec = rules.kit.card(card)
        if spec.kind == "commodity":
            assert spec.commodity is not None
            if commodity_hexes(rules, st, spec.commodity):
                return None
            return RuleError(kit.COMMODITY, f"no plain yellow track tile on the board may be "
                             f"replaced by the {spec.commodity} card now")
        if spec.kind == "disturbances":
            if _open_cities(rules, st):
                return None
            return RuleError(DISTURBANCES, "every city has been closed once this game")
        assert spec.company is not None
        try:
            kit.check_directors_share(rules, st, p, spec.company)
        except RuleError as error:
            return error
        return None

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        player = player_of(st, st.pending[0].entity)
        kind = action["type"]
        if kind == "play_card":
            kit.play_card(rules, st, player, action["card"], hex=action.get("hex"),
                          city=action.get("city"))
        elif kind == "reject_cards":
            kit.reject_cards(rules, st, player, list(action["cards"]))
        else:
            kit.pass_actions(rules, st, player)
