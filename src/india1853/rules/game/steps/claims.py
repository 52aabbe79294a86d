"""The contract bids' second stage: in turn, a secret city and a public share, or the bid
ended (2.5.4-2.5.10)."""

from __future__ import annotations

from collections.abc import Collection

from india1853.errors import RuleError
from india1853.rules.game import bids
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState
from india1853.rules.game.steps.step import (
    TRACK_MOVES,
    Action,
    Disabled,
    PassOption,
    Step,
    act,
    initials_of,
    player_of,
)


def city_name(rules: GameRules, text: str) -> str:
    try:
        return rules.city(text).name
    except Exception:
        raise RuleError("2.5.8", f"{text!r} is not a city that a bid may name") from None


class Claims(Step):
    """2.5.4: name a city and claim one share of a company numbered on it, or pass (the bid
    then ends for good) when the bid may end (2.5.4, 2.5.7)."""

    kind = "claims"
    rule = "2.5.4"
    secret = True
    actions = ("claim_city", "pass")
    what = "name a city (secret) and claim one of its shares, or end the bid"
    pass_option = PassOption("End my bid", "Claim no more cities: your bid is complete", "2.5.4")
    declined = "completes the bid"

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        p = st.player(entity)
        claims = bids.legal_claims(rules, st, p)
        out = [act("claim_city", p.name, "player", city=c, company=i) for c, i in claims]
        if not claims or bids.may_end_bid(rules, st, p.cities, bids.unaccounted(rules, p)) is None:
            out.append(act("pass", p.name, "player"))
        return out

    def disabled(self, rules: GameRules, st: GameState, entity: str) -> list[Disabled]:
        """Each claim of a city not yet in the bid that a rule forbids now (2.5.6, 2.5.7 and
        its look-ahead, 2.5.9, 2.5.10, 3.1.2), and a pass the bid may not make yet (2.5.4).
        Secret: only for the bidding player's own decision."""
        p = st.player(entity)
        out: list[Disabled] = []
        blocker = bids.may_end_bid(rules, st, p.cities, bids.unaccounted(rules, p))
        if blocker is not None and bids.any_claim(rules, st, p):
            out.append(Disabled(act("pass", p.name, "player"), blocker))
        for city in rules.cities:
            if city.name in p.cities:
                continue
            for number in city.companies:
                initials = rules.ed.company(number).initials
                try:
                    bids.check_claim(rules, st, p, city.name, initials)
                except RuleError as error:
                    out.append(Disabled(act("claim_city", p.name, "player", city=city.name,
                                            company=initials), error))
        return out

    def missing_item(self, option: Disabled) -> str | None:
        a = option.action
        if a["type"] == "pass":
            return "pass (ending the bid)"
        return f"{a['city']} {a['company']}"

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        player = player_of(st, action["entity"])
        if action["type"] == "pass":
            bids.end_bid(rules, st, player)
        else:
            bids.claim_city(rules, st, player, city_name(rules, action["city"]),
                            initials_of(st, action["company"]))
