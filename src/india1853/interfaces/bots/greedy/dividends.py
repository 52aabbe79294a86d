"""The greedy bot's dividends (4.6.4)."""

from __future__ import annotations

from india1853.interfaces.bots.decision import Action, Decision
from india1853.interfaces.bots.greedy.common import BotBase, Knowledge


class Dividends(BotBase):
    """The dividend decision."""

    def _dividend(self, k: Knowledge, d: Decision, options: list[Action]) -> Action:
        """4.6.4: pay out when the company keeps enough for its next train, or has no room
        for another under the train limit (4.8.5, the engine's outlook); else withhold."""
        initials = options[0]["entity"]
        co = d.view["companies"][initials]
        outlook = d.trains.get(initials)
        full = outlook is not None and outlook.at_limit
        need = 0 if full else self._train_reserve(k, d, initials)
        kind = "payout" if co["cash"] >= need else "withhold"
        return next((a for a in options if a.get("kind") == kind), options[0])
