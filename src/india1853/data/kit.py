"""The MIK 2 extension kit's data (first edition, "MIK 2 EXTENSION KIT FOR '1853' GAMES"):
the 21 cards and the Commodity station's value, from ``<edition>/mik2.json``.

A card is named by its id: ``DS:<company>:<n>`` for the kit's Director's Shares,
``DS:<company>:0`` for a company's own director's certificate once it has been sold to the
discard stack (MIK 2, GENERAL), ``COMMODITY:<name>`` and ``DISTURBANCES:<n>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from india1853.data.jsonfile import read_json_file
from india1853.data.loader import DATA_DIR
from india1853.errors import DataError


@dataclass(frozen=True)
class KitCard:
    id: str
    kind: str  # "director" | "commodity" | "disturbances"
    company: str | None = None  # a Director's Share's company
    commodity: str | None = None  # a Commodity card's name


@dataclass(frozen=True)
class KitSpec:
    cards: tuple[KitCard, ...]
    commodity_station_value: int

    def card(self, card_id: str) -> KitCard:
        """The card of an id (a company's own director's certificate included)."""
        for c in self.cards:
            if c.id == card_id:
                return c
        parts = card_id.split(":")
        if len(parts) == 3 and parts[0] == "DS" and parts[2] == "0":
            return KitCard(card_id, "director", company=parts[1])
        raise KeyError(card_id)


def _positive(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise DataError(f"{where}: must be a positive whole number")
    return value


@cache
def load_kit(edition: str) -> KitSpec:
    """The MIK 2 kit of an edition (only the first edition has one)."""
    name = f"{edition}/mik2.json"
    data = read_json_file(DATA_DIR / edition / "mik2.json", name)
    if not isinstance(data, dict):
        raise DataError(f"{name}: must be a JSON object")
    cards: list[KitCard] = []
    directors = data.get("directors_shares")
    if not isinstance(directors, dict):
        raise DataError(f"{name}: directors_shares must be an object")
    for company, n in directors.items():
        for i in range(1, _positive(n, f"{name}: directors_shares.{company}") + 1):
            cards.append(KitCard(f"DS:{company}:{i}", "director", company=company))
    commodities = data.get("commodities")
    if not isinstance(commodities, list) or not all(isinstance(c, str) for c in commodities):
        raise DataError(f"{name}: commodities must be a list of names")
    cards.extend(KitCard(f"COMMODITY:{c}", "commodity", commodity=c) for c in commodities)
    for i in range(1, _positive(data.get("disturbances"), f"{name}: disturbances") + 1):
        cards.append(KitCard(f"DISTURBANCES:{i}", "disturbances"))
    value = _positive(data.get("commodity_station_value"), f"{name}: commodity_station_value")
    return KitSpec(tuple(cards), value)
