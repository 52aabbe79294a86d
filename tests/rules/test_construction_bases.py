"""Bases (4.4 / 32), contract connections (4.3.1 / 31.24), frontier posts (4.1.14 / 31.11)."""

from __future__ import annotations

from typing import Any

import pytest

from india1853.board.state import Base, BoardState
from india1853.data.loader import load_edition
from india1853.errors import RuleError
from india1853.rules.construction import (
    CompanyContext,
    Outcome,
    PlaceBase,
    apply_base,
    check_base,
    contract_connected,
    frontier_bonuses,
    legal_bases,
)

ALL = frozenset({"EIR", "GIP", "NWR", "BNR", "BBCI", "MSM", "SIR", "ECR", "BAR"})


def ctx(company: str = "BNR", **kw: Any) -> CompanyContext:
    fields: dict[str, Any] = {"type": "major", "phase": 3, "cash": 1000, "running": ALL}
    fields.update(kw)
    return CompanyContext(company, **fields)


def board(edition: str = "second") -> BoardState:
    return BoardState.initial(load_edition(edition))


def line_to_patna(company: str = "BNR", edition: str = "second") -> BoardState:
    """``company`` on Calcutta's NW station; broad track via I27 and H26 to Patna (tile 5)."""
    return (
        board(edition).with_base(Base(company, "J28", "st1"))
        .with_tile("I27", "4", 5).with_tile("H26", "8", 2).with_tile("H24", "5", 3)
    )


PATNA = PlaceBase("H24", "st1")


@pytest.mark.parametrize("edition", ["first", "second"])
def test_a_base_on_a_connected_vacant_large_station(edition: str) -> None:
    state = line_to_patna(edition=edition)
    assert check_base(state, ctx(), PATNA) == Outcome(40)
    after, outcome = apply_base(state, ctx(), PATNA)
    assert Base("BNR", "H24", "st1") in after.bases and outcome.cost == 40


def test_the_first_extra_base_costs_40_later_ones_100() -> None:
    assert check_base(line_to_patna(), ctx(bases_placed=1), PATNA) == Outcome(100)


def test_small_stations_take_no_base() -> None:
    with pytest.raises(RuleError, match=r"4\.4\.5 / 32\.4: bases go on large stations"):
        check_base(line_to_patna(), ctx(), PlaceBase("I27", "st1"))


def test_a_full_station_takes_no_base() -> None:
    state = line_to_patna().with_base(Base("GIP", "H24", "st1"))
    with pytest.raises(RuleError, match="no vacant slot"):
        check_base(state, ctx(), PATNA)


def test_one_base_per_hex_even_with_several_stations() -> None:
    with pytest.raises(RuleError, match=r"4\.4\.5 / 32\.4: BNR already has a base on J28"):
        check_base(line_to_patna(), ctx(), PlaceBase("J28", "st2"))


def test_the_station_must_be_connected_without_a_break_of_gauge() -> None:
    state = line_to_patna().with_tile("G19", "5", 0)
    with pytest.raises(RuleError, match=r"4\.4\.6 / 32\.5"):
        check_base(state, ctx(), PlaceBase("G19", "st1"))
    blocked = board().with_base(Base("BNR", "J28", "st1")).with_tile("I27", "74", 0)
    blocked = blocked.with_tile("H26", "8", 2).with_tile("H24", "5", 3)  # metre then broad
    with pytest.raises(RuleError, match=r"4\.4\.6 / 32\.5"):
        check_base(blocked, ctx(), PATNA)


def _beyond_patna(edition: str) -> BoardState:
    """EIR at Calcutta NW; broad track on to Patna (tile 6, one slot) and beyond it through
    the town on I23 to Benares (tile 5)."""
    return (
        board(edition).with_base(Base("EIR", "J28", "st1"))
        .with_tile("I27", "4", 5).with_tile("H26", "8", 2).with_tile("H24", "6", 4)
        .with_tile("I23", "3", 5).with_tile("H22", "5", 3)
    )


@pytest.mark.parametrize("edition", ["first", "second"])
def test_no_base_beyond_a_station_full_of_other_companies_bases(edition: str) -> None:
    # 4.4.6 / 32.5: the way to Benares passes Patna, whose only slot holds the BNR's base.
    benares = PlaceBase("H22", "st1")
    assert check_base(_beyond_patna(edition), ctx("EIR"), benares) == Outcome(40)
    blocked = _beyond_patna(edition).with_base(Base("BNR", "H24", "st1"))
    with pytest.raises(RuleError, match=r"4\.4\.6 / 32\.5: H22 is not connected"):
        check_base(blocked, ctx("EIR"), benares)
    assert benares not in {m.move for m in legal_bases(blocked, ctx("EIR"))}


def _ecr_line_to_calcutta(calcutta: tuple[str, int] | None) -> BoardState:
    """The ECR at Patna; broad track south-east to Calcutta's SW side (the BNR's home)."""
    state = (
        board().with_tile("H24", "5", 3).with_tile("I25", "9", 2).with_tile("J26", "4", 2)
        .with_tile("K27", "7", 5).with_base(Base("ECR", "H24", "st1"))
    )
    return state if calcutta is None else state.with_tile("J28", *calcutta)


@pytest.mark.parametrize("rotation", [None, 0, 1, 2, 3, 4, 5])
def test_a_promoted_calcutta_keeps_the_home_of_a_company_not_yet_running(
    rotation: int | None
) -> None:
    # 4.4.7 / 32.6: the BNR's home is Calcutta's SW station, also after tile 500 replaces the
    # printed city at any rotation (the station reaching the SW side, 4.2.4).
    state = _ecr_line_to_calcutta(None if rotation is None else ("500", rotation))
    home = PlaceBase("J28", state.station_by_side("J28", "SW"))
    minor = {"type": "minor", "phase": 4}
    with pytest.raises(RuleError, match=r"4\.4\.7 / 32\.6: J28 st\d is the home of BNR"):
        check_base(state, ctx("ECR", running=ALL - {"BNR"}, **minor), home)
    assert home not in {m.move for m in legal_bases(state, ctx("ECR", running=ALL - {"BNR"},
                                                               **minor))}
    assert check_base(state, ctx("ECR", **minor), home) == Outcome(40)


def test_not_on_the_home_of_a_company_not_yet_running() -> None:
    waiting = ctx(running=ALL - {"EIR"})
    with pytest.raises(RuleError, match=r"4\.4\.7 / 32\.6: H24 st1 is the home of EIR"):
        check_base(line_to_patna(), waiting, PATNA)


def test_outside_the_area_only_in_phase_5_with_a_5_or_6_train() -> None:
    state = line_to_patna("GIP")  # Patna, column 24, is east of GIP's area (columns 9-20)
    with pytest.raises(RuleError, match=r"4\.4\.1-4\.4\.2 / 32\.1"):
        check_base(state, ctx("GIP", phase=4), PATNA)
    assert check_base(state, ctx("GIP", phase=5, trains=("5",)), PATNA) == Outcome(40, "H24")
    # 4.4.2: only a company owning a '5' or '6' may go outside its area, even in Phase 5.
    with pytest.raises(RuleError, match="owns no 5 or 6 train"):
        check_base(state, ctx("GIP", phase=5, trains=("4", "3M")), PATNA)
    first = line_to_patna("GIP", "first")
    with pytest.raises(RuleError, match="lies outside"):
        check_base(first, ctx("GIP", phase=4, trains=("5",)), PATNA)


def test_limited_by_the_base_tokens() -> None:
    state = line_to_patna("ECR")
    for hex in ("K17", "O15"):
        state = state.with_tile(hex, "5", 0).with_base(Base("ECR", hex, "st1"))
    with pytest.raises(RuleError, match="TABLE 7"):
        check_base(state, ctx("ECR", type="minor"), PATNA)


def test_an_owing_manager_places_no_base() -> None:
    with pytest.raises(RuleError, match=r"3\.4\.6"):
        check_base(line_to_patna(), ctx(owes_credit_train=True), PATNA)


def test_legal_bases_lists_the_reachable_vacant_stations() -> None:
    moves = legal_bases(line_to_patna(), ctx())
    assert [m.move for m in moves] == [PATNA] and moves[0].cost == 40


# --- contract connections (4.3.1 / 31.24) ---------------------------------------------------


def delhi_lines(d12: str = "9", lahore: str = "5", e13: tuple[str, int] = ("4", 2)) -> BoardState:
    """Jaipur joined (broad) to Delhi's SW station; Delhi's NW station to Lahore via the town on
    E13 and the plain D12."""
    state = board().with_tile("G13", "5", 1).with_tile("E13", *e13)
    return state.with_tile("D12", d12, 2 if d12 == "9" else 0).with_tile("C11", lahore, 3)


def test_cities_joined_by_track_whoever_built_it() -> None:
    state = board().with_tile("I27", "4", 5).with_tile("H26", "8", 2).with_tile("H24", "5", 3)
    assert contract_connected(state, ["Patna", "Calcutta"])
    assert not contract_connected(state, ["Patna", "Calcutta", "Benares"])
    assert not contract_connected(board(), ["Patna", "Calcutta"])


def test_travellers_walk_between_the_stations_of_a_large_city() -> None:
    assert contract_connected(delhi_lines(), ["Lahore", "Jaipur", "Delhi"])


def test_gauge_changes_only_at_a_station() -> None:
    # Broad Patna tile meets metre track on H26 at a tile edge: no connection.
    state = board().with_tile("I27", "74", 0).with_tile("H26", "78", 5).with_tile("H24", "5", 3)
    assert not contract_connected(state, ["Patna", "Calcutta"])
    metre = board().with_tile("I27", "74", 0).with_tile("H26", "78", 5).with_tile("H24", "75", 3)
    assert contract_connected(metre, ["Patna", "Calcutta"])
    # Broad from Jaipur, metre to Lahore: the gauge changes in Delhi, a station.
    mixed = delhi_lines(d12="79", lahore="75", e13=("74", 0))
    assert contract_connected(mixed, ["Lahore", "Jaipur"])
    broken = delhi_lines(d12="9", lahore="5", e13=("74", 0))
    assert not contract_connected(broken, ["Lahore", "Jaipur"])


def _cawnpore_allahabad(h16: tuple[str, int]) -> BoardState:
    """Cawnpore (G17) and Allahabad (H20) joined through the two-town hex H16 and H18."""
    return (
        board().with_tile("G17", "5", 4).with_tile("H16", *h16).with_tile("H18", "4", 1)
        .with_tile("H20", "5", 0)
    )


def test_the_two_towns_of_one_tile_are_not_joined() -> None:
    # Tile 2 at rotation 2: one town with track to G17 (side 3) and H18 (side 4): a through
    # line.  Tile 55 at rotation 1: one town to G17, the other to H18 - two stations that no
    # track joins, so no connection (4.3.1 / 31.24: changes of train, not walks between towns).
    assert contract_connected(_cawnpore_allahabad(("2", 2)), ["Cawnpore", "Allahabad"])
    assert not contract_connected(_cawnpore_allahabad(("55", 1)), ["Cawnpore", "Allahabad"])


@pytest.mark.parametrize("edition", ["first", "second"])
def test_no_change_of_gauge_at_a_junction_tile_on_a_contract(edition: str) -> None:
    # Ajmer (broad) to Jaipur through the dual junction 106 on G11: a broad Jaipur is joined;
    # a metre Jaipur would need a change of gauge at the junction, which is no station.
    state = board(edition).with_tile("H10", "5", 1).with_tile("G11", "106", 1)
    assert contract_connected(state.with_tile("G13", "5", 0), ["Ajmer", "Jaipur"])
    assert not contract_connected(state.with_tile("G13", "75", 0), ["Ajmer", "Jaipur"])


# --- frontier posts (4.1.14 / 31.11) --------------------------------------------------------


def _rawalpindi(edition: str) -> tuple[BoardState, BoardState]:
    before = board(edition).with_base(Base("NWR", "C11", None)).with_tile("C11", "5", 0)
    return before, before.with_tile("B10", "5", 3)


@pytest.mark.parametrize("edition", ["first", "second"])
def test_a_post_pays_the_company_that_connects_it(edition: str) -> None:
    before, after = _rawalpindi(edition)
    assert frontier_bonuses(before, after, ctx("NWR")) == [("B10", 40)]
    assert frontier_bonuses(after, after, ctx("NWR")) == []


def test_second_edition_pays_only_the_first_company() -> None:
    before, after = _rawalpindi("second")
    paid = frozenset({("B10", "GIP")})
    assert frontier_bonuses(before, after, ctx("NWR", frontier_paid=paid)) == []


def test_first_edition_pays_each_company_once() -> None:
    before, after = _rawalpindi("first")
    other = frozenset({("B10", "GIP")})
    assert frontier_bonuses(before, after, ctx("NWR", frontier_paid=other)) == [("B10", 40)]
    mine = frozenset({("B10", "NWR")})
    assert frontier_bonuses(before, after, ctx("NWR", frontier_paid=mine)) == []
