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
class Region:
    """MIK 2, COMMODITY CARDS: the suggested area of one commodity's replacements (variant
    ``mik2_regions``): rows are the board's letters, columns its numbers (both inclusive)."""

    rule: str
    min_column: int | None = None
    max_column: int | None = None
    min_row: str | None = None
    max_row: str | None = None
    exclude_ganges_valley: bool = False

    def contains(self, coord: str, ganges_valley: bool) -> bool:
        row, column = coord[0], int(coord[1:])
        return not (
            (self.min_column is not None and column < self.min_column)
            or (self.max_column is not None and column > self.max_column)
            or (self.min_row is not None and row < self.min_row)
            or (self.max_row is not None and row > self.max_row)
            or (self.exclude_ganges_valley and ganges_valley))


@dataclass(frozen=True)
class KitSpec:
    cards: tuple[KitCard, ...]
    commodity_station_value: int
    # A plain yellow track tile -> the tile with the same track and one value-10 station.
    similar_tiles: dict[str, str]
    regions: dict[str, Region]

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
    similar = data.get("similar_tiles")
    if not isinstance(similar, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in similar.items()):
        raise DataError(f"{name}: similar_tiles must map tile ids to tile ids")
    return KitSpec(tuple(cards), value, dict(similar), _regions(data.get("regions"), name,
                                                               commodities))


def _regions(data: object, name: str, commodities: list[str]) -> dict[str, Region]:
    if not isinstance(data, dict) or set(data) != set(commodities):
        raise DataError(f"{name}: regions must name each commodity once")
    out: dict[str, Region] = {}
    for commodity, spec in data.items():
        where = f"{name}: regions.{commodity}"
        if not isinstance(spec, dict) or not isinstance(spec.get("rule"), str):
            raise DataError(f"{where}: must be an object with a rule")
        known = {"rule", "min_column", "max_column", "min_row", "max_row",
                 "exclude_ganges_valley"}
        if set(spec) - known:
            raise DataError(f"{where}: unknown field {sorted(set(spec) - known)[0]}")
        columns = [spec.get(k) for k in ("min_column", "max_column")]
        rows = [spec.get(k) for k in ("min_row", "max_row")]
        if not all(c is None or (isinstance(c, int) and not isinstance(c, bool)) for c in columns):
            raise DataError(f"{where}: columns must be whole numbers")
        if not all(r is None or (isinstance(r, str) and len(r) == 1) for r in rows):
            raise DataError(f"{where}: rows must be single letters")
        out[commodity] = Region(spec["rule"], columns[0], columns[1], rows[0], rows[1],
                                bool(spec.get("exclude_ganges_valley", False)))
    return out
