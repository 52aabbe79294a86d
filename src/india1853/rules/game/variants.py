"""Variant policies: the optional rules a game's settings may name, and what each changes.

A variant changes data (a bank of ``tables.bank_variants``, a replacement TABLE 3 of
``tables.variants``) and, where data cannot say it, a procedure (the Simplified Game's dealt
directors' certificates; Optional Rule 19's minimum number of companies).  The engine asks the
variant policies of its ``GameRules``; it never tests a variant's name elsewhere.

- ``shortened_game`` (2.4; first edition 11 and TABLE 3): the smaller bank.
- ``long_game`` (first edition 11): the £500 notes kept, TABLE 3's £12500.
- ``simplified`` (first edition, Simplified Game): £440 each, directors' certificates dealt at
  random (not the BBCI's nor the BAR's), seating in company order, qualifying number 4, company
  limit 5.
- ``minimum_companies`` (first edition 19, MINIMUM NUMBER OF COMPANIES): directors appointed at
  the end of the first dealing round until enough companies run.
- ``amended_share_limits`` (first edition 19, AMENDED SHARE LIMITS): qualifying numbers 7 / 6
  with four / five players; "not to be used with the previous Optional Rule".
- ``alt_start`` (Alternative Rules 1.0): no contract bids; seats by lot; shares bought one at a
  time in any company, then only in those already bought into, then in TABLE 1 order; the
  revised TABLE 3 (its MIK 2 line when the kit's variant is chosen too); a director is required
  before a company runs (``rules/game/alt_start.py``).
- ``alt_market`` (Alternative Rules 2.0): the share price moves by the dividend's size.
- ``alt_bbci`` (Alternative Rules 3.0): the BBCI, bought into in the first dealing round, has a
  second base at Bombay (NE) and lays as companies 1-4.
- ``alt_train_sales`` (Alternative Rules 4.0): in Phase 4, trains sold to the bank at full price
  at the beginning of an operating turn.
The Alternative Rules "may also be used without the kit".
- ``mik2`` (MIK 2 EXTENSION KIT): the 21 cards drawn, held secretly and actioned before dealing
  rounds (``rules.game.kit``); control by Director's Shares; TABLE 3 variant ``mik2`` (no
  per-company limit, 27/20/16/14 cards each).  It replaces TABLE 3, so not with the variants
  that replace it too (docs/rulings.md).
- ``mik2_regions`` (with ``mik2``): the suggested regions of the Commodity stations.
"""

from __future__ import annotations

from dataclasses import dataclass

from india1853.errors import InputError


@dataclass(frozen=True)
class VariantPolicy:
    name: str
    editions: tuple[str, ...]
    rule: str
    # The key of ``tables.bank_variants`` that replaces the bank, if any.
    bank: str | None = None
    # The id of the ``tables.variants`` TABLE 3 that replaces the edition's, if any.
    table: str | None = None
    # The Simplified Game: no contract bids; directors' certificates dealt at random, those of
    # ``left_out_of_deal`` not among them ("it is best to remove the BBCI and the BAR").
    dealt_start: bool = False
    left_out_of_deal: tuple[str, ...] = ()
    # Alternative Rules 1.0: the TABLE 3 that replaces ``table`` when the variant named first is
    # chosen too (the revised TABLE 3's line "As above when using MIK 2 Kit").
    table_with: tuple[tuple[str, str], ...] = ()
    # Alternative Rules 1.0: places dealt at random, no contract bids, shares bought one at a
    # time under the offer rule, a director required before a company runs.
    share_by_share_start: bool = False
    # 19: at the end of the first dealing round, directors until enough companies run.
    minimum_companies: bool = False
    # Alternative Rules 2.0: the market's ``alternative_movement`` replaces 34.7's.
    alternative_market: bool = False
    # Alternative Rules 3.0: the company with a home of this variant (the BBCI's Bombay NE)
    # gets that home and runs as companies 1-4 if its shares are bought in the first dealing
    # round.
    second_home_variant: str | None = None
    # Alternative Rules 4.0: from this phase on, trains may be sold to the bank at full price
    # at the beginning of an operating turn.
    train_sales_phase: int | None = None
    # The engine's reading of 2.8.1 before issue 13 (only the seller is barred from buying
    # back a share he sold, 3.1.9): shares sold in the first stock round may be bought back
    # from the pool in it.  The fixture games recorded under it replay with it
    # (docs/rulings.md, 2.8.1).
    first_round_pool_open: bool = False
    # The MIK 2 extension kit: its cards (data ``mik2.json``) are drawn and actioned.
    kit: bool = False
    # MIK 2, COMMODITY CARDS: the suggested regions of ``mik2.json`` restrict replacements.
    kit_regions: bool = False
    # Variants this one needs (a setting of another variant).
    requires: tuple[str, ...] = ()
    # Variants this one may not be combined with (the rule that forbids it in ``rule``).
    excludes: tuple[str, ...] = ()
    # What it changes, in a few words for a lobby or a --help (the rule is in ``rule``).
    title: str = ""
    # False for a variant kept only so that old logs replay: interfaces do not offer it.
    offered: bool = True


VARIANTS: tuple[VariantPolicy, ...] = (
    VariantPolicy("shortened_game", ("first", "second"), "2.4 / 11, TABLE 3",
                  bank="shortened_game", excludes=("long_game",),
                  title="Shortened game: a smaller bank"),
    VariantPolicy("long_game", ("first",), "11", bank="long_game",
                  excludes=("shortened_game",),
                  title="Long game: the bank with the £500 notes"),
    VariantPolicy("simplified", ("first",), "Simplified Game", bank="shortened_game",
                  table="simplified_game", dealt_start=True, left_out_of_deal=("BBCI", "BAR"),
                  excludes=("long_game", "shortened_game", "minimum_companies",
                            "amended_share_limits", "alt_start"),
                  title="Simplified Game: directors' certificates dealt, no contract bids"),
    VariantPolicy("minimum_companies", ("first",), "19", table="minimum_number_of_companies",
                  minimum_companies=True,
                  excludes=("amended_share_limits", "simplified", "alt_start"),
                  title="Minimum number of companies running"),
    VariantPolicy("amended_share_limits", ("first",), "19", table="amended_share_limits",
                  excludes=("minimum_companies", "simplified", "alt_start"),
                  title="Amended share limits"),
    # Alternative Rules 1.0 replaces 13-16 (but 16.7), 18 (but 18.1), 19 and 21.3: not with the
    # Simplified Game's start nor 19's optional rules.  18's "once sold they may not be bought
    # from the Pool until the NEXT Dealing Round" goes with 18 (docs/rulings.md).
    VariantPolicy("alt_start", ("first",), "Alternative Rules 1.0", table="alternative_table_3",
                  table_with=(("mik2", "alternative_table_3_mik2"),), share_by_share_start=True,
                  first_round_pool_open=True,
                  excludes=("simplified", "minimum_companies", "amended_share_limits"),
                  title="Alternative start: seats by lot, shares bought one at a time, "
                        "no contract bids"),
    VariantPolicy("alt_market", ("first",), "Alternative Rules 2.0", alternative_market=True,
                  title="Share prices move by the dividend's size"),
    VariantPolicy("alt_bbci", ("first",), "Alternative Rules 3.0",
                  second_home_variant="alternative_rule_3",
                  title="BBCI with a second base at Bombay NE"),
    VariantPolicy("alt_train_sales", ("first",), "Alternative Rules 4.0", train_sales_phase=4,
                  title="Trains sold back to the bank in Phase 4"),
    VariantPolicy("mik2", ("first",), "MIK 2 extension kit", table="mik2", kit=True,
                  excludes=("simplified", "minimum_companies", "amended_share_limits"),
                  title="MIK 2 kit: Director's Shares, Commodity and Disturbances cards"),
    VariantPolicy("mik2_regions", ("first",), "MIK 2 extension kit, COMMODITY CARDS",
                  kit_regions=True, requires=("mik2",),
                  title="MIK 2 kit: Commodity stations only in their suggested regions"),
    VariantPolicy("first_round_pool_open", ("second",), "2.8.1", first_round_pool_open=True,
                  offered=False,
                  title="2.8.1 as read before issue 13: shares sold in the first stock round "
                        "may be bought back from the pool in it (old logs only)"),
)

_BY_NAME = {v.name: v for v in VARIANTS}


def catalogue(edition: str) -> list[dict[str, object]]:
    """The variants an edition may be played with, for an interface to offer: name, rule,
    title and the variants the rulebook forbids it to be combined with."""
    return [{"name": v.name, "rule": v.rule, "title": v.title,
             "excludes": [x for x in v.excludes if edition in _BY_NAME[x].editions]}
            for v in VARIANTS if edition in v.editions and v.offered]


def table_of(chosen: tuple[VariantPolicy, ...]) -> str | None:
    """The id of the ``tables.variants`` TABLE 3 the chosen variants play with, or None for the
    edition's own: a variant's ``table``, or the one its ``table_with`` names for another
    chosen variant (Alternative Rules 1.0: the revised TABLE 3's MIK 2 line)."""
    names = {v.name for v in chosen}
    table_id: str | None = None
    for v in chosen:
        if v.table is not None:
            table_id = v.table
        for other, table in v.table_with:
            if other in names:
                return table
    return table_id


def variant_policies(edition: str, names: tuple[str, ...]) -> tuple[VariantPolicy, ...]:
    """The policies of the named variants, or a one-line error naming the field and the rule
    (an unknown variant, one of the other edition, a combination the rulebook forbids)."""
    out: list[VariantPolicy] = []
    for name in names:
        policy = _BY_NAME.get(name)
        if policy is None or edition not in policy.editions:
            raise InputError(f"settings.variants: unknown variant {name!r} in the {edition} "
                             "edition")
        out.append(policy)
    names_chosen = {p.name for p in out}
    for policy in out:
        for needed in policy.requires:
            if needed not in names_chosen:
                raise InputError(f"settings.variants: {policy.name} needs {needed} (rule "
                                 f"{policy.rule})")
        for other in out:
            if other.name in policy.excludes:
                raise InputError(f"settings.variants: {policy.name} and {other.name} may not "
                                 f"be combined (rule {policy.rule})")
    return tuple(out)
