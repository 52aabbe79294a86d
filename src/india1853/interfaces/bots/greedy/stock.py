"""The greedy bot's stock rounds (3.1): redeem first (2.7.4); buy the best-scoring share (its
own companies, then companies that can float under it, then companies whose price has risen
above par, which only dividends do, 4.7.1); pass when nothing scores more than the threshold.
Prices are the engine's (3.1.4 par, 3.1.7 market), and so is the number of shares a company
lacks to float (2.7.5)."""

from __future__ import annotations

from india1853.interfaces.bots.decision import Action, Decision
from india1853.interfaces.bots.greedy.common import BUY_THRESHOLD, BotBase, Knowledge, price


class StockRound(BotBase):
    """A stock round turn."""

    def _stock(self, k: Knowledge, d: Decision, options: list[Action]) -> Action | None:
        """3.1: redeem first (2.7.4); then the best share to buy, or pass."""
        redeem = [a for a in options if a["type"] == "redeem_share"]
        if redeem:
            return redeem[0]
        buys = [a for a in options if a["type"] == "buy_share"]
        scored = [(self._share_score(k, d, a), a) for a in buys]
        scored = [(s, a) for s, a in scored if s > BUY_THRESHOLD]
        if scored:
            return max(scored, key=lambda sa: sa[0])[1]
        if any(a["type"] == "pass" for a in options):
            return None
        # 3.2.3: over the certificate limit, sell one share of the least valuable company.
        sells = [a for a in options if a["type"] == "sell_shares" and a["count"] == 1]
        if sells:
            return min(sells, key=lambda a: price(k, d.view, a["company"]))
        return options[0]

    def _share_score(self, k: Knowledge, d: Decision, a: Action) -> float:
        """How much the player wants one more share of a company (higher is better)."""
        view = d.view
        me = self._me(view)
        initials: str = a["company"]
        co = view["companies"][initials]
        mine = int(me["shares"].get(initials, 0))
        rivals = max((int(p["shares"].get(initials, 0)) for p in view["players"]
                      if p["name"] != self._player), default=0)
        par = k.ed.company(initials).par
        cost = d.cost(a)
        if cost > me["cash"]:
            return 0.0
        if not co["formed"]:
            if co["floated"]:
                return 3.0 + mine if mine >= rivals else 1.0
            # 2.7.5: help the company it leads to its qualifying number and its directorship.
            if mine > 0 and mine >= rivals:
                return 5.0 + mine
            to_float = d.to_float.get(initials, 0)
            if to_float <= 1:
                return 2.5  # this share floats it: one more company running and paying
            if me["cash"] >= cost * to_float:
                # It can float the company alone: it starts a new one, or takes over a
                # contract company stuck below its qualifying number (which also opens the
                # remaining companies, 3.1.3).
                return 2.5
            return 1.0 if mine > 0 else 0.0
        if co["director"] == self._player or co["controller"] == self._player:
            return 6.0 if rivals >= mine - 1 else 3.5
        if not co["trains"]:
            return 0.5
        now = price(k, view, initials)
        if now <= par and initials not in me["claims"]:
            # Never risen above par: it has not paid (4.7.1), so it is not bought, unless the
            # bot's own contract bid is in it.
            return 0.0
        return 2.0 + 2.0 * (now - par) / par + (0.5 if initials in me["claims"] else 0.0)
