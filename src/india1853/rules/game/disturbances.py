"""The MIK 2 kit's Disturbances cards: which city is closed for a railway round.

"DISTURBANCES: closes a city specified by the player for the next Railway Round ... nor may
track be connected to it ... The same city may not be affected more than once in a game."  The
card is actioned with the others (``kit``); what it closes is asked by the board port
(``board_port.open_board``, ``board_port.check_open``) and by the kit's Commodity cards.
"""

from __future__ import annotations

from india1853.errors import India1853Error, InputError, RuleError
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState, KitState

DISTURBANCES = "MIK 2, DISTURBANCES"


def check_disturbance(rules: GameRules, kit: KitState, city: str) -> str:
    """DISTURBANCES: the city's name, or the rule that bars it ("The same city may not be
    affected more than once in a game")."""
    try:
        name = rules.city(city).name
    except India1853Error:
        raise InputError(f"action play_card.city: {city!r} is not a named city") from None
    if name in kit.disturbed:
        raise RuleError(DISTURBANCES, f"{name} has been closed once this game already")
    return name


def play_disturbances(rules: GameRules, st: GameState, kit: KitState, city: str) -> None:
    """DISTURBANCES: "closes a city specified by the player for the next Railway Round" - the
    first operating round after the dealing round these cards precede."""
    name = check_disturbance(rules, kit, city)
    kit.disturbed.append(name)
    kit.closed = name
    kit.closed_round = st.operating_round + 1


def announced_closure(st: GameState) -> str | None:
    """DISTURBANCES: the city closed "for the next Railway Round", from the card's play until
    that round is over (the views name it while it is to come or on; None afterwards)."""
    kit = st.kit
    if kit is None or kit.closed is None or st.operating_round > kit.closed_round:
        return None
    if st.operating_round == kit.closed_round and st.round not in ("operating", "operating_end"):
        return None
    return kit.closed


def closed_hex(rules: GameRules, st: GameState) -> str | None:
    """DISTURBANCES: the hex of the city closed now, if a railway round is on and a city is
    closed for it."""
    kit = st.kit
    if kit is None or kit.closed is None or st.operating_round != kit.closed_round:
        return None
    if st.round not in ("operating", "operating_end"):
        return None
    return rules.city(kit.closed).hex
