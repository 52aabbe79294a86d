"""The strong bot: the greedy bot's moves, re-weighed by lookahead on its own player's view.

Every decision starts from the same input as the greedy bot's - its ``Decision``: the player's
view, the engine's priced legal options and outlook - plus the edition's public data.  Where
greedy scores a move by a fixed rule, the strong bot values the position the move leads to, with
the exact router (4.5-4.6) on the public board of its view, and an estimate of how many
operating rounds the game has left:

- Track (4.1-4.2): every affordable lay or promotion among the best-scoring ones is tried on a
  copy of the public board; its value is the gain of the company's optimal run (with its trains,
  or with the train it saves for, and with the next train it could buy), times the operating
  rounds left, plus greedy's score of what the track leads towards.  So a lay that adds revenue
  now beats one that only points somewhere.
- Dividends (4.6.4, 4.7.1): only the players' cash and shares count at the end (5.2); company
  cash counts for nothing.  The bot pays out unless the company must keep the money for a
  train it needs to run, and always pays out once the bank is about to break (5.1.2).
- Trains (4.8): another train is bought when its added revenue over its expected life pays
  for its price.
- Stock rounds (3.1): each share is valued as its price plus the dividends it should earn
  over the rounds left (the company's optimal run now, per share), against its cost; control
  (a rival within one share of its directorship) and the greedy bot's float rules are kept.
  It sells the shares of another director's company that has no train and no money for one.

The bot reads nothing but its view: the others' bonds and cities, bids and MIK 2 hands are not
in it, and no evaluation needs them.  The lookahead runs on the public board only, so two games
with the same public history give the same choice for the same seed (tests/interfaces).

Time: each decision has a CPU budget (``budget`` seconds of :func:`time.process_time`); the
candidates are tried best-first and the search stops when the budget is spent, keeping the best
found (at least greedy's own choice).  ``max_evals`` bounds the router calls of a decision, so
the choice does not depend on the machine's speed unless the budget is hit first.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from india1853.board.state import BoardState
from india1853.errors import India1853Error
from india1853.interfaces.bots.decision import Action, Decision, View
from india1853.interfaces.bots.greedy import (
    BUY_THRESHOLD,
    GreedyBot,
    Knowledge,
    company_trains,
)
from india1853.rules.routes import Train

# Router calls of one decision at most, and CPU seconds of one decision (a soft limit: the
# search stops at the first check past it).
MAX_EVALS = 24
BUDGET = 0.5
# Operating rounds a game has at least / at most left, in the estimate of the value of revenue.
MIN_ORS_LEFT = 1.0
MAX_ORS_LEFT = 10.0
# The value of a share: its price plus its dividends over at most this many rounds.
SHARE_HORIZON = 6.0


@dataclass
class _Clock:
    """The time and router calls left to one decision."""

    budget: float
    evals: int
    start: float = field(default_factory=time.process_time)

    def spend(self) -> bool:
        """Whether one more router call fits; counts it."""
        if self.evals <= 0 or time.process_time() - self.start > self.budget:
            return False
        self.evals -= 1
        return True


class StrongBot(GreedyBot):
    """Lookahead play for one player; see the module docstring."""

    def __init__(self, player: str, seed: int, *, budget: float = BUDGET,
                 max_evals: int = MAX_EVALS) -> None:
        super().__init__(player, seed)
        if budget <= 0 or max_evals < 1:
            raise ValueError("strong bot: budget must be positive and max_evals at least 1")
        self._budget = budget
        self._max_evals = max_evals
        self._clock = _Clock(budget, max_evals)
        # The options the last decision valued, with their values (the hint shows them).
        self._weighed: list[tuple[float, Action]] = []

    def choose(self, decision: Decision) -> Action:
        self._clock = _Clock(self._budget, self._max_evals)
        self._weighed = []
        return super().choose(decision)

    @property
    def weighed(self) -> list[tuple[float, Action]]:
        """The options the last decision valued and their values, in the order tried (empty
        when the decision follows a fixed rule, e.g. a dividend or a claim); see hint.py."""
        return list(self._weighed)

    # --- the game's horizon ------------------------------------------------------------------

    def _ors_left(self, k: Knowledge, view: View) -> float:
        """How many operating rounds the game has left: the bank's cash over what the
        companies earn per round (the bank breaks, 5.1.2), within bounds."""
        board = self._board(k, view)
        earning = 0
        for initials, co in view["companies"].items():
            if co["trains"]:
                earning += self._run(k, view, board, initials)
        bank = int(view["bank"])
        if earning <= 0:
            return MAX_ORS_LEFT
        return max(MIN_ORS_LEFT, min(MAX_ORS_LEFT, bank / earning))

    def _run(self, k: Knowledge, view: View, board: BoardState, initials: str) -> int:
        """A company's optimal run on the view's board with its trains (from the bot's
        memory of positions)."""
        return self._value(board, initials, company_trains(k, view, initials))

    # --- track (4.1-4.2) ---------------------------------------------------------------------

    def _track(self, k: Knowledge, d: Decision, options: list[Action]) -> Action | None:
        """4.1-4.2: the lay whose board gives the company the best optimal run over the rounds
        left, plus greedy's score of where it leads; greedy's own choice when the router finds
        no gain anywhere."""
        fallback = super()._track(k, d, options)
        view = d.view
        initials = options[0]["entity"]
        co = view["companies"][initials]
        gauges, reserve, planned = self._track_plan(k, d, initials)
        trains = planned or company_trains(k, view, initials)
        if not trains:
            return fallback
        scored = [(s, a) for s, a in self._scored_track(k, d, options, gauges,
                                                         int(co["cash"]) - reserve)
                  if s > float("-inf")]
        if not scored:
            return fallback
        board = self._board(k, view)
        now = self._value(board, initials, trains)
        ors = self._ors_left(k, view)
        best: tuple[float, Action] | None = None
        for s, a in scored:
            if not self._clock.spend():
                break
            try:
                after = board.with_tile(a["hex"], a["tile"], a["rotation"])
            except India1853Error:
                continue
            gain = self._value(after, initials, trains) - now
            value = gain * ors + s
            self._weighed.append((value, a))
            if gain > 0 and (best is None or value > best[0]):
                best = (value, a)
        if best is None:
            return fallback
        if fallback is not None and fallback is not best[1]:
            fallback_value = next((s for s, a in scored if a is fallback), None)
            if fallback_value is not None and fallback_value > best[0]:
                return fallback
        return best[1]

    # --- dividends (4.6.4) -------------------------------------------------------------------

    def _dividend(self, k: Knowledge, d: Decision, options: list[Action]) -> Action:
        """4.6.4, 4.7.1, 5.2: pay out (company cash scores nothing at the end, a dividend
        raises the price) unless the company has no train yet to keep running after the next
        phase and cannot buy one; always pay out when the bank will break within two rounds."""
        view = d.view
        initials = options[0]["entity"]
        co = view["companies"][initials]
        payout = next((a for a in options if a.get("kind") == "payout"), None)
        if payout is None:
            return options[0]
        if self._ors_left(k, view) <= 2.0:
            return payout
        need = self._train_reserve(k, d, initials)
        trains = company_trains(k, view, initials)
        revenue = int(view["turn"].get("revenue") or 0) if view.get("turn") else 0
        outlook = d.trains.get(initials)
        if (outlook is not None and outlook.at_limit) or int(co["cash"]) >= need:
            return payout
        # Withhold when the revenue buys the next train that the payout would not.
        if int(co["cash"]) + revenue >= need and self._train_soon(k, view, trains):
            return next((a for a in options if a.get("kind") == "withhold"), payout)
        return payout

    def _train_soon(self, k: Knowledge, view: View, trains: list[Train]) -> bool:
        """Whether the company will need a train: it has one train or none, or its trains are
        the oldest still running (the next phase would leave it without any, 4.8.2)."""
        if len(trains) <= 1:
            return True
        ranks = sorted(t.large for t in trains)
        return ranks[-1] <= 2

    # --- trains (4.8) ------------------------------------------------------------------------

    def _extra_train(self, k: Knowledge, d: Decision, initials: str,
                     own: list[Action]) -> Action | None:
        """4.8: another train when its added revenue over the rounds left pays for its
        price (the engine's), the best gain first."""
        view = d.view
        board = self._board(k, view)
        trains = company_trains(k, view, initials)
        now = self._value(board, initials, trains)
        ors = min(self._ors_left(k, view), 4.0)
        best: tuple[float, Action] | None = None
        for a in own:
            if not self._clock.spend():
                break
            gain = self._value(board, initials, [*trains, Train.named(k.ed, a["train"])]) - now
            value = gain * ors - d.cost(a) * 0.5
            self._weighed.append((value, a))
            if gain > 0 and value > 0 and (best is None or value > best[0]):
                best = (value, a)
        if best is None:
            return super()._extra_train(k, d, initials, own)
        return best[1]

    # --- stock rounds (3.1) ------------------------------------------------------------------

    def _stock(self, k: Knowledge, d: Decision, options: list[Action]) -> Action | None:
        """3.1: redeem first (2.7.4); sell a share of another director's company that cannot
        pay (3.2); then the best-valued share, or pass."""
        redeem = [a for a in options if a["type"] == "redeem_share"]
        if redeem:
            return redeem[0]
        dump = self._dump(k, d, options)
        if dump is not None:
            return dump
        return super()._stock(k, d, options)

    def _dump(self, k: Knowledge, d: Decision, options: list[Action]) -> Action | None:
        """3.2: the shares of another director's company with no train and not the cash for
        one pay nothing and fall: sell them all."""
        sells = [a for a in options if a["type"] == "sell_shares"]
        best: Action | None = None
        for a in sells:
            co = d.view["companies"][a["company"]]
            if co["director"] == self._player or co["controller"] == self._player:
                continue
            if not co["formed"] or co["trains"]:
                continue
            if int(co["cash"]) >= self._train_reserve(k, d, a["company"]):
                continue
            if best is None or a["count"] > best["count"]:
                best = a
        return best

    def _share_score(self, k: Knowledge, d: Decision, a: Action) -> float:
        """Greedy's score, plus the share's expected dividends over its cost: the company's
        optimal run now, a tenth of it a share, over the rounds left (at most
        :data:`SHARE_HORIZON`)."""
        score = self._share_value(k, d, a)
        self._weighed.append((score, a))
        return score

    def _share_value(self, k: Knowledge, d: Decision, a: Action) -> float:
        base = super()._share_score(k, d, a)
        if base <= 0.0:
            return base
        view = d.view
        initials: str = a["company"]
        co = view["companies"][initials]
        if not co["formed"] or not co["trains"]:
            return base
        board = self._board(k, view)
        revenue = self._run(k, view, board, initials)
        cost = d.cost(a)
        horizon = min(self._ors_left(k, view), SHARE_HORIZON)
        yield_ = revenue / 10 * horizon / max(cost, 1)
        return max(base, BUY_THRESHOLD + yield_) if yield_ > 0.3 else base

