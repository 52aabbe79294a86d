"""The steps of the game, one object per decision (see :mod:`.step`), and the registry that
maps a step's kind to its object.

The dispatch of actions (``dispatch.apply_action``), the legal actions (``legal``), the turn
model's decisions, passes and disabled options (``turn``) and the log's words for a pass
(``interfaces/narrate``) ask the registry; none of them switches on a step's name.
"""

from __future__ import annotations

from india1853.rules.game.state import GameState
from india1853.rules.game.steps.bases import Bases
from india1853.rules.game.steps.bonds import Bonds
from india1853.rules.game.steps.claims import Claims
from india1853.rules.game.steps.credit_train import CreditTrain
from india1853.rules.game.steps.discard_train import DiscardTrain
from india1853.rules.game.steps.dividend import Dividend
from india1853.rules.game.steps.elephant_offer import ElephantOffer
from india1853.rules.game.steps.elephant_sale import ElephantSale
from india1853.rules.game.steps.extra_or import ExtraOperatingRound
from india1853.rules.game.steps.kit_action import KitAction
from india1853.rules.game.steps.kit_draw import KitDraw
from india1853.rules.game.steps.lay_option import LayOption
from india1853.rules.game.steps.run import Run
from india1853.rules.game.steps.secret_bid import SecretBid
from india1853.rules.game.steps.step import Action, Answer, Disabled, PassOption, Step
from india1853.rules.game.steps.stock import Stock
from india1853.rules.game.steps.track import Track
from india1853.rules.game.steps.train_sale import TrainSale
from india1853.rules.game.steps.trains import Trains

# The rounds in which players decide (the contract bids, the first edition's secret bids, the
# stock rounds), a company's operating turn in order (4.1-4.8), and the pending questions.
ROUND_STEPS: tuple[Step, ...] = (Bonds(), Claims(), SecretBid(), Stock())
OPERATING_STEPS: tuple[Step, ...] = (LayOption(), Track(), Bases(), Run(), Dividend(), Trains())
PENDING_STEPS: tuple[Step, ...] = (ElephantSale(), ElephantOffer(), ExtraOperatingRound(),
                                   DiscardTrain(), CreditTrain(), TrainSale(), KitDraw(),
                                   KitAction())
STEPS: dict[str, Step] = {s.kind: s for s in (*ROUND_STEPS, *OPERATING_STEPS, *PENDING_STEPS)}
# The names of a company's operating steps, in turn order (4.1-4.8).
OPERATING_STEP_KINDS: tuple[str, ...] = tuple(s.kind for s in OPERATING_STEPS)


def current_kind(st: GameState) -> str | None:
    """The kind of the step the game waits for now: the first pending question, the round's
    decision, or the operating company's step; None when nobody decides (the game over, a
    round between others)."""
    if st.pending:
        return st.pending[0].kind
    if st.round == "operating":
        return st.turn.step
    return st.round if st.round in STEPS else None


def current(st: GameState) -> Step | None:
    """The step the game waits for now (see :func:`current_kind`)."""
    kind = current_kind(st)
    return None if kind is None else STEPS[kind]


__all__ = ["OPERATING_STEPS", "OPERATING_STEP_KINDS", "PENDING_STEPS", "ROUND_STEPS", "STEPS",
           "Action", "Answer", "Disabled", "PassOption", "Step", "current", "current_kind"]
