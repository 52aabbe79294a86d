"""The sequencer: the one place that decides which round follows which (2.5, 3, 4.9, 4.10, 5.1).

"The game starts with each player doing a contract bid (REF 2.5.1). Later, the game consists of
two alternating routines - Stock rounds (see Section 3) and Operating rounds (see Section 4)";
"Each complete Operating Round is followed either by a Stock Round or by another Operating
Round (... 4.10). At the end of a sequence of Operating Rounds the player currently holding the
Elephant may call for ONE extra Operating Round" (4.9); a broken bank ends the game at the end
of the operating round (5.1.2).

A round module never starts the round after its own: it plays its round and, at its end,
reports it over (:meth:`GameState.end_round`).  After each action the engine asks this module
(:func:`after_action`), which starts the next round - which may in turn be over at once (an
operating round with no company formed), so it asks again until a round is under way.

What the standard order leaves to the rules chosen is two policies, chosen from the game's rules
as :mod:`india1853.rules.game.edition` chooses an edition's procedures:

- the :class:`Opening`: how the game reaches its first stock round - the contract bids (2.5;
  first edition 14-16, the edition's bid procedure), the Simplified Game's deal of directors'
  certificates, or the place cards of Alternative Rules 1.0;
- the :class:`Interludes`: rounds played between the standard ones - the MIK 2 kit's card
  actioning before a dealing round and its draws before a railway round's first company.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from india1853.rules.game import alt_start, kit, operating_round, simplified, stock_round
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState, Pending

Step = Callable[[GameRules, GameState], None]
# An interlude that may begin: True if it began (its round then reports when it is over).
Interlude = Callable[[GameRules, GameState], bool]


@dataclass(frozen=True)
class Opening:
    """How the game reaches its first stock round.  ``deal``: done at once before it; None: the
    contract bids are played first, as rounds of their own (the state starts in them)."""

    rule: str
    deal: Step | None


CONTRACT_BIDS = Opening("2.5 / 14-16", None)
SIMPLIFIED_DEAL = Opening("Simplified Game", simplified.deal_directors)
PLACES_DEALT = Opening("Alternative Rules 1.0", alt_start.deal_places)


def _none(rules: GameRules, st: GameState) -> bool:
    return False


@dataclass(frozen=True)
class Interludes:
    """Rounds played between the standard rounds: before each stock round, and before the first
    company of each operating round."""

    rule: str
    before_stock_round: Interlude
    before_companies: Interlude


STANDARD = Interludes("", _none, _none)
MIK2 = Interludes(kit.METHOD, kit.begin_actions, kit.begin_draws)


def opening(rules: GameRules) -> Opening:
    """The opening the game's rules prescribe."""
    if rules.dealt_start:
        return SIMPLIFIED_DEAL
    if rules.share_by_share_start:
        return PLACES_DEALT
    return CONTRACT_BIDS


def interludes(rules: GameRules) -> Interludes:
    """The interludes the game's rules add to the standard order."""
    return MIK2 if rules.kit is not None else STANDARD


# --- the order of rounds ----------------------------------------------------------------------


def begin(rules: GameRules, st: GameState) -> None:
    """The game's opening: the contract bids under way, or the deal and the first stock round."""
    deal = opening(rules).deal
    if deal is not None:
        deal(rules, st)
        _stock_round(rules, st)


def after_action(rules: GameRules, st: GameState) -> None:
    """Start the next round for as long as the one in progress reports that it is over."""
    while st.round_over:
        st.round_over = False
        next_round(rules, st)


def next_round(rules: GameRules, st: GameState) -> None:
    """The round that follows the one just over (``st.round`` still names it)."""
    ended = st.round
    if ended in ("claims", "bids"):
        _stock_round(rules, st)  # 2.8 / 18: the first stock round follows the contract bids
    elif ended == "kit_actions":
        stock_round.start_stock_round(rules, st)
    elif ended == "stock_end":
        _operating_rounds(rules, st)
    elif ended == "kit_draws":
        operating_round.first_company(rules, st)
    elif ended in ("operating", "operating_end"):
        _after_operating_round(rules, st)
    else:
        raise AssertionError(f"no round follows {ended!r}")


def call_extra_or(rules: GameRules, st: GameState, *, called: bool) -> None:
    """4.9: the Elephant's holder calls ONE extra operating round, or declines it; then that
    round, or the stock round."""
    if called:
        st.extra_or = True
        st.ors_in_set += 1
    st.end_round()


def _stock_round(rules: GameRules, st: GameState) -> None:
    """A stock round, after its interlude (MIK 2: the cards actioned first)."""
    if interludes(rules).before_stock_round(rules, st):
        return
    stock_round.start_stock_round(rules, st)


def _operating_rounds(rules: GameRules, st: GameState) -> None:
    """4.10.1 note: the number of operating rounds changes only after a stock round."""
    ors = rules.phase(st.phase).ors_per_set
    st.ors_in_set = ors if ors is not None else 1
    st.or_in_set = 0
    st.extra_or = False
    _operating_round(rules, st)


def _operating_round(rules: GameRules, st: GameState) -> None:
    """One operating round; its first company after the interlude (MIK 2: the draws)."""
    operating_round.start_operating_round(rules, st)
    if interludes(rules).before_companies(rules, st):
        return
    operating_round.first_company(rules, st)


def _after_operating_round(rules: GameRules, st: GameState) -> None:
    """5.1.2: a broken bank ends the game at the end of the operating round.  Otherwise the next
    operating round of the set (4.10), or the offer of the Elephant's extra round (4.9, once a
    set), or a stock round."""
    if st.bank_broken:
        operating_round.finish(st, "bank_broken")
    elif st.or_in_set < st.ors_in_set:
        _operating_round(rules, st)
    elif (st.round == "operating" and not st.extra_or
          and rules.ed.rules.extra_operating_rounds > 0):
        assert st.elephant is not None
        st.round = "operating_end"
        st.pending.append(Pending("extra_or", st.elephant, "player"))
    else:
        _stock_round(rules, st)
