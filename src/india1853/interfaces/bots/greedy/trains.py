"""The greedy bot's trains (4.8): a company without a train buys one that runs, or a broad
one that leaves it money for track; another only if its optimal run with the extra train is
worth more than without it, so that no company spends its track money on trains that cannot
run.  What may be bought, at what price and within which limit is the engine's: its legal
options and their prices (4.8.3-4.8.19)."""

from __future__ import annotations

from india1853.interfaces.bots.decision import Action, Decision
from india1853.interfaces.bots.greedy.common import (
    ROUTE_BUDGET,
    BotBase,
    Knowledge,
    company_trains,
    train_rank,
)
from india1853.rules.routes import Train


class Trains(BotBase):
    """The trains step, and the excess train given up (4.8.6)."""

    def _trains(self, k: Knowledge, d: Decision, options: list[Action]) -> Action | None:
        """4.8: a company without a train buys one (from its own cash, the director's help,
        credit, or a sister company, in that order of preference); a company with trains
        buys a better broad train while it has the cash (the engine offers none beyond the
        train limit, 4.8.5)."""
        repay = [a for a in options if a["type"] == "repay_credit"]
        if repay:
            return repay[0]
        view = d.view
        initials = options[0]["entity"]
        co = view["companies"][initials]
        buys = [a for a in options if a["type"] == "buy_train"]
        bank = [a for a in buys if a.get("source", "bank") == "bank" and not a.get("token")]
        broad = [a for a in bank if k.ed.trains.get(a["train"]).gauge == "broad"]
        own = [a for a in broad if not a.get("contribution") and not a.get("credit")]
        if not co["trains"]:
            groups = [own, broad, [a for a in bank if not a.get("contribution")], bank,
                      [a for a in buys if a.get("source", "bank") != "bank"
                       and len(view["companies"][a["source"]]["trains"]) > 1]]
            return self._first_train(k, d, initials, [g for g in groups if g])
        paid = [a for a in bank if not a.get("contribution") and not a.get("credit")]
        if not paid:
            return None
        return self._extra_train(k, d, initials, paid)

    def _first_train(self, k: Knowledge, d: Decision, initials: str,
                     groups: list[list[Action]]) -> Action | None:
        """4.8: a company without a train buys, in the groups' order of preference, one that
        can run on its track now (the biggest such); if none can yet, the biggest broad one of
        the first group that offers one (the bot lays broad track for it) and leaves it
        :data:`ROUTE_BUDGET` for that track, and no metre train that cannot run.  A sister
        company (4.8.9) sells only a train it can spare: it keeps one."""
        if not groups:
            return None
        view = d.view
        board = self._board(k, view)
        values: dict[str, int] = {}
        for group in groups:
            for a in group:
                if a["train"] not in values:
                    values[a["train"]] = self._value(board, initials,
                                                     [Train.named(k.ed, a["train"])])
            running = [a for a in group if values[a["train"]] > 0]
            if running:
                return max(running, key=lambda a: (values[a["train"]],
                                                   train_rank(k, a["train"])))
        # No train runs yet: a broad one, for the broad track the bot lays, from the most
        # preferred group that has one.  A metre train on a broad network would never run
        # (nor a broad one once no broad track is left to lay): rather none (buying is
        # optional, 4.8), keeping the cash for one that will.
        if not self._broad_possible(k, d, initials):
            return None
        cash = int(view["companies"][initials]["cash"])

        def left(a: Action) -> int:
            # With the director's help the treasury is emptied (4.8.8); a train on credit
            # is paid for before the next (3.4.6).
            if a.get("contribution") or a.get("credit"):
                return 0
            return cash - d.cost(a)

        for group in groups:
            broad = [a for a in group if k.ed.trains.get(a["train"]).gauge == "broad"
                     and left(a) >= ROUTE_BUDGET]
            if broad:
                return max(broad, key=lambda a: train_rank(k, a["train"]))
        return None

    def _extra_train(self, k: Knowledge, d: Decision, initials: str,
                     own: list[Action]) -> Action | None:
        """4.8: another train, paid from the company's cash, only if the optimal run (4.6)
        with it is worth more than without it; of those, the one adding most, then the
        biggest.  So a company whose trains cannot run buys no more of them and keeps its cash
        for track, but does buy a train of the other gauge that runs on the track it has."""
        board = self._board(k, d.view)
        trains = company_trains(k, d.view, initials)
        now = self._value(board, initials, trains)
        best: tuple[int, int, Action] | None = None
        for a in own:
            gain = self._value(board, initials, [*trains, Train.named(k.ed, a["train"])]) - now
            key = (gain, train_rank(k, a["train"]))
            if gain > 0 and (best is None or key > best[:2]):
                best = (*key, a)
        return best[2] if best is not None else None

    def _discard(self, k: Knowledge, d: Decision, options: list[Action]) -> Action:
        """4.8.6: give up the weakest train."""
        trains = {t["id"]: t for t in d.view["trains"]}
        return min((a for a in options if a["type"] == "discard_train"),
                   key=lambda a: train_rank(k, trains[a["train"]]["runs_as"]))
