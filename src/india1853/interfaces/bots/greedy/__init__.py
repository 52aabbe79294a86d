"""The greedy bot: sensible, fast play from what its player may see.

It decides from its :class:`~india1853.interfaces.bots.decision.Decision`: its player's view,
the engine's priced legal options and the engine's outlook (train limit and offers, shares to
float), plus the edition's public data (board, cities, tiles, trains).  It works no rule out
again: every price, limit and qualifying number is the engine's.  Each decision is a small
scoring rule named after the part of the rules it plays, one module a phase:

- :mod:`.bids`: contract bids (2.5; first edition 14-16);
- :mod:`.stock`: stock rounds (3.1);
- :mod:`.track`: the lay option and track (4.1-4.2);
- :mod:`.bases`: bases (4.4);
- :mod:`.dividends`: dividends (4.6.4);
- :mod:`.trains`: trains (4.8);
- :mod:`.kit`: the MIK 2 kit (first edition);
- :mod:`.common`: weights, the edition's facts, the router's value of a position, memory.

None looks further than one action ahead.  The engine lists the optimal run first (4.5-4.6);
the bot runs the router itself only to value a position it could reach: the board of its view
with one more tile, or its company with one more train (:func:`run_value`).
"""

from __future__ import annotations

from india1853.errors import InputError
from india1853.interfaces.bots.decision import Action, Decision, View
from india1853.interfaces.bots.greedy.bases import Bases
from india1853.interfaces.bots.greedy.bids import ContractBids, best_plans
from india1853.interfaces.bots.greedy.common import (
    BUY_THRESHOLD,
    Knowledge,
    Plan,
    board_of,
    company_trains,
    knowledge,
    prefer_pass,
    run_value,
)
from india1853.interfaces.bots.greedy.dividends import Dividends
from india1853.interfaces.bots.greedy.kit import Kit
from india1853.interfaces.bots.greedy.stock import StockRound
from india1853.interfaces.bots.greedy.track import Track
from india1853.interfaces.bots.greedy.trains import Trains


class GreedyBot(ContractBids, StockRound, Track, Bases, Dividends, Trains, Kit):
    """Sensible play for one player; see the package docstring."""

    def choose(self, decision: Decision) -> Action:
        options = [a for a in decision.legal if a.get("type") not in ("undo", "redo")]
        if not options:
            raise InputError(f"bot {self._player}: no legal action to choose from")
        view = decision.view
        k = knowledge(str(view.get("edition", "second")))
        types = {a["type"] for a in options}
        choice: Action | None
        if "submit_bid" in types:
            choice = self._secret_bid(k, decision, options)
        elif "place_bond" in types:
            choice = self._bond(k, decision, options)
        elif "claim_city" in types or view["round"] == "claims":
            choice = self._claim(k, decision, options)
        elif types & {"buy_share", "sell_shares", "redeem_share"} or (
                view["round"] == "stock" and not view["pending"]):
            choice = self._stock(k, decision, options)
        elif view["pending"]:
            choice = self._pending(k, decision, options)
        else:
            choice = self._operating(k, decision, options)
        return dict(choice if choice is not None else prefer_pass(options))

    def _pending(self, k: Knowledge, d: Decision, options: list[Action]) -> Action | None:
        """The questions put before the game goes on: MIK 2 cards, the extra operating round
        (4.9), an excess train (4.8.6), a credit train (4.8.10), an offer (3.1.11, 4.8.9)."""
        types = {a["type"] for a in options}
        if types & {"draw_card", "play_card", "reject_cards"}:
            return self._kit(d, options)
        if "call_extra_or" in types:
            # 4.9: another operating round pays if a company it runs has trains to run.
            mine = [c for c in d.view["companies"].values()
                    if c["controller"] == self._player and c["trains"]]
            return next(a for a in options if a["type"] == ("call_extra_or" if mine else "pass"))
        if "discard_train" in types:
            return self._discard(k, d, options)
        if "repay_credit" in types:
            return next(a for a in options if a["type"] == "repay_credit")
        if "reject_offer" in types:
            return next(a for a in options if a["type"] == "reject_offer")
        return None

    def _operating(self, k: Knowledge, d: Decision, options: list[Action]) -> Action | None:
        """A company's operating turn (4), step by step."""
        types = {a["type"] for a in options}
        if "choose_lay_option" in types:
            return self._lay_option(k, options)
        if types & {"lay_tile", "promote_tile"}:
            return self._track(k, d, options)
        if "place_base" in types:
            return self._base(k, d, options)
        if "run_routes" in types:
            # 4.5-4.6: the engine lists the optimal run first.
            return next(a for a in options if a["type"] == "run_routes")
        if "dividend" in types:
            return self._dividend(k, d, options)
        if "buy_train" in types or "repay_credit" in types:
            return self._trains(k, d, options)
        return None


__all__ = ["BUY_THRESHOLD", "Action", "Decision", "GreedyBot", "Knowledge", "Plan", "View",
           "best_plans", "board_of", "company_trains", "knowledge", "run_value"]
