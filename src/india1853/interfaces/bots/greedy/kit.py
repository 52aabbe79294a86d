"""The greedy bot's MIK 2 kit (first edition): its cards, decided from its own hand, the only
one its view shows; the cards it may play now are the engine's legal ones."""

from __future__ import annotations

from india1853.interfaces.bots.decision import Action, Decision
from india1853.interfaces.bots.greedy.common import BotBase


class Kit(BotBase):
    """MIK 2: draws and actioned cards."""

    def _kit(self, d: Decision, options: list[Action]) -> Action | None:
        """MIK 2: take a card whenever one may be taken; action a Director's Share (the cheapest
        control and two shares' dividends for one share's price), the one of the company in
        which the bot holds most first; else a Commodity station on the first hex offered (a
        station is revenue for whoever runs there); keep the Disturbances card (closing a
        city hurts every company)."""
        draw = next((a for a in options if a["type"] == "draw_card"), None)
        if draw is not None:
            return draw
        me = self._me(d.view)
        plays = [a for a in options if a["type"] == "play_card" and "city" not in a]
        shares = [a for a in plays if "hex" not in a]
        if shares:
            return max(shares, key=lambda a: me["shares"].get(a["card"].split(":")[1], 0))
        return plays[0] if plays else None
