"""The engine's view of an edition's rule values, for one game's player count and variants.

Every number the engine applies comes from the edition data (``india1853.data``); this module
gathers the values under names taken from the rulebook, so that the rest of the engine never
reaches into the data model's layout.  :func:`game_rules` builds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from india1853.data.kit import KitSpec, load_kit
from india1853.data.loader import load_edition
from india1853.data.model import CitySpec, CompanySpec, Edition, Movement, PhaseSpec, TrainSpec
from india1853.errors import InputError
from india1853.rules.game.edition import EditionPolicy, edition_policy
from india1853.rules.game.variants import VariantPolicy, table_of, variant_policies


@dataclass(frozen=True)
class PlayerCountRules:
    """TABLE 3 with 2.3, 2.5.2 and 2.5.6, for the game's number of players."""

    starting_cash: int
    # None: no per-company limit (the MIK 2 kit, GENERAL).
    share_limit: int | None
    certificate_limit: int
    qualifying_shares: int
    # 2.5.2's minimum bond; None where the bond is the bid's cities' value (14.4).
    minimum_bond: int | None
    bid_cities_min: int
    bid_cities_max: int


@dataclass(frozen=True, eq=False)
class GameRules:
    ed: Edition
    table: PlayerCountRules
    bank: int
    policy: EditionPolicy
    variants: tuple[VariantPolicy, ...] = ()
    # Optional Rule 19: the companies that must run after the first dealing round (0: none).
    minimum_companies: int = 0

    @property
    def price_movement(self) -> Movement:
        """34.7 / 4.7.1, or Alternative Rules 2.0's movement by the dividend's size."""
        alternative = self.ed.market.alternative_movement
        if alternative is not None and any(v.alternative_market for v in self.variants):
            return alternative
        return self.ed.market.movement

    @property
    def second_home_variant(self) -> str | None:
        """Alternative Rules 3.0: the variant of the conditional home it opens, if chosen."""
        return next((v.second_home_variant for v in self.variants
                     if v.second_home_variant is not None), None)

    @property
    def train_sales_phase(self) -> int | None:
        """Alternative Rules 4.0: the phase from which trains may be sold to the bank."""
        return next((v.train_sales_phase for v in self.variants
                     if v.train_sales_phase is not None), None)

    @cached_property
    def kit(self) -> KitSpec | None:
        """The MIK 2 extension kit's cards, if the game uses the kit (variant ``mik2``)."""
        if not any(v.kit for v in self.variants):
            return None
        return load_kit(self.ed.name)

    @property
    def kit_regions(self) -> bool:
        """MIK 2, COMMODITY CARDS: the suggested regions restrict the replacements."""
        return any(v.kit_regions for v in self.variants)

    @property
    def dealt_start(self) -> bool:
        """The Simplified Game: directors' certificates dealt, no contract bids."""
        return any(v.dealt_start for v in self.variants)

    @property
    def share_by_share_start(self) -> bool:
        """Alternative Rules 1.0: the game starts with shares bought one at a time."""
        return any(v.share_by_share_start for v in self.variants)

    @property
    def first_round_pool_closed(self) -> bool:
        """2.8.1: shares sold into the pool in the first stock round may not be bought from
        it until the next stock round (open under the variant first_round_pool_open)."""
        return not any(v.first_round_pool_open for v in self.variants)

    # --- lookups -------------------------------------------------------------------------
    @property
    def companies(self) -> tuple[CompanySpec, ...]:
        return self.ed.companies

    @property
    def cities(self) -> tuple[CitySpec, ...]:
        return self.ed.cities

    @cached_property
    def _companies_by_initials(self) -> dict[str, CompanySpec]:
        return {c.initials: c for c in self.ed.companies}

    @cached_property
    def _cities_by_name(self) -> dict[str, CitySpec]:
        return {c.name: c for c in self.ed.cities}

    def company(self, initials: str) -> CompanySpec:
        # The engine asks by exact initials or name thousands of times a game; other
        # spellings go to the edition's (linear, forgiving) lookup.
        found = self._companies_by_initials.get(initials)
        return found if found is not None else self.ed.company(initials)

    def city(self, name: str) -> CitySpec:
        found = self._cities_by_name.get(name)
        return found if found is not None else self.ed.city(name)

    def train_type(self, name: str) -> TrainSpec:
        return self.ed.trains.get(name)

    def phase(self, number: int) -> PhaseSpec:
        return self.ed.phase(number)

    # --- shares (TABLE 3, 2.8.3, 3.1.2) --------------------------------------------------
    @property
    def shares_per_company(self) -> int:
        return self.ed.rules.shares_per_company

    @property
    def director_shares(self) -> int:
        return self.ed.rules.director_certificate_shares

    @property
    def first_stock_round_sale_discount(self) -> int:
        return self.ed.rules.first_stock_round_sale_discount

    @property
    def holding_limit_exempt_price(self) -> int:
        return self.ed.rules.limit_exempt_max_price

    # --- bids (2.5) ----------------------------------------------------------------------
    @property
    def bond_pass_unaccounted(self) -> int | None:
        return self.ed.rules.bid_pass_unaccounted_limit

    @property
    def ganges_limit(self) -> int:
        return self.ed.rules.bid_ganges_limit

    @property
    def ganges_three_city_limit(self) -> int | None:
        return self.ed.rules.bid_ganges_limit_three_cities

    @property
    def ganges_three_city_also(self) -> tuple[str, ...]:
        return self.ed.rules.bid_ganges_three_cities_also

    @cached_property
    def bbci(self) -> CompanySpec | None:
        """The company whose type is settled by 2.6 (type "either" in the data); kept: the
        engine asks it before and after every action (``views.reveal_facts``)."""
        return next((c for c in self.ed.companies if c.type == "either"), None)

    def bbci_major_cities(self) -> tuple[str, ...]:
        """2.6.2: the cities on all the BBCI's possible homes (Ajmer and Bombay)."""
        spec = self.bbci
        if spec is None:
            return ()
        hexes = {h.hex for h in spec.homes}
        return tuple(c.name for c in self.ed.cities if c.hex in hexes)

    # --- market (4.7) --------------------------------------------------------------------
    @property
    def market(self) -> tuple[int, ...]:
        return self.ed.market.values

    @property
    def game_end_price(self) -> int:
        return self.ed.rules.game_end_share_price

    # --- operating (4.1-4.10) ------------------------------------------------------------
    @property
    def first_stock_round_phase(self) -> int | None:
        """The phase the first stock round opens (2.x: 4.10.2); None where the game starts
        in the phase it plays in (first edition, 36)."""
        return next((p.number for p in self.ed.phases if p.introduced_by == "first_stock_round"),
                    None)

    @property
    def train_sale_minimum(self) -> int:
        return self.ed.rules.min_train_transfer_price

    def base_cost(self, extra_placed: int) -> int:
        return self.ed.costs.base_token(extra_placed)


def game_rules(edition: str, players: int, variants: tuple[str, ...] = ()) -> GameRules:
    """The rule values for a game of this edition, player count and variants."""
    ed = load_edition(edition)
    chosen = variant_policies(edition, variants)
    bank = ed.tables.bank
    for v in chosen:
        if v.bank is not None:
            bank = ed.tables.bank_variants[v.bank]
    row = ed.tables.player_row(players, table_of(chosen))
    policy = edition_policy(edition)
    # No contract bids: the Simplified Game's deal, or Alternative Rules 1.0.
    dealt = any(v.dealt_start or v.share_by_share_start for v in chosen)
    bid_cities = row.bid_cities if row.bid_cities is not None else (
        (0, 0) if dealt else None)
    if bid_cities is None or (row.share_limit is None and not any(v.kit for v in chosen)) or (
            row.minimum_bond is None and policy.bid_procedure == "sequential" and not dealt):
        raise InputError(f"the {edition} edition's table for {players} players is incomplete")
    table = PlayerCountRules(
        starting_cash=row.starting_capital,
        share_limit=row.share_limit,
        certificate_limit=row.certificate_limit,
        qualifying_shares=row.qualifying_shares,
        minimum_bond=row.minimum_bond,
        bid_cities_min=bid_cities[0],
        bid_cities_max=bid_cities[1],
    )
    minimum = row.minimum_companies or 0 if any(v.minimum_companies for v in chosen) else 0
    return GameRules(ed=ed, table=table, bank=bank, policy=policy, variants=chosen,
                     minimum_companies=minimum)
