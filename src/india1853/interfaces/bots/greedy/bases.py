"""The greedy bot's bases (4.4): one extra base, on the richest city offered, when the money
allows (the base's price is the engine's, 4.4.4)."""

from __future__ import annotations

from typing import Any

from india1853.interfaces.bots.decision import Action, Decision
from india1853.interfaces.bots.greedy.common import BotBase, Knowledge, station_value


class Bases(BotBase):
    """The base step."""

    def _base(self, k: Knowledge, d: Decision, options: list[Action]) -> Action | None:
        """4.4: one extra base, on the richest station offered, when the company keeps the
        price of its next train after paying for it."""
        initials = options[0]["entity"]
        view = d.view
        co = view["companies"][initials]
        placed = sum(1 for c, _, _ in view["board"]["bases"] if c == initials)
        if placed > len(k.ed.company(initials).homes):
            return None
        tiles: dict[str, list[Any]] = view["board"]["tiles"]
        candidates = [a for a in options if a["type"] == "place_base"]

        def value(a: Action) -> int:
            laid = tiles.get(a["hex"])
            return station_value(k.ed.tiles[laid[0]]) if laid else 0

        best = max(candidates, key=value, default=None)
        if best is None or co["cash"] - d.cost(best) < self._train_reserve(k, d, initials):
            return None
        return best
