"""Tile lays: rules 4.1.1-4.1.14 (second edition) and 31.1-31.11 (first edition)."""

from __future__ import annotations

from typing import Any

import pytest

from india1853.board.state import Base, BoardState
from india1853.data.loader import load_edition
from india1853.errors import InputError, RuleError
from india1853.rules.construction import (
    CompanyContext,
    ConstructionPolicy,
    Lay,
    apply_lay,
    check_lay,
    lays_allowed,
    legal_lays,
)

ALL = frozenset({"EIR", "GIP", "NWR", "BNR", "BBCI", "MSM", "SIR", "ECR", "BAR"})


def ctx(company: str = "EIR", **kw: Any) -> CompanyContext:
    fields: dict[str, Any] = {"type": "major", "phase": 2, "cash": 1000, "running": ALL}
    fields.update(kw)
    return CompanyContext(company, **fields)


def board(edition: str = "second") -> BoardState:
    return BoardState.initial(load_edition(edition))


def eir_at_calcutta(edition: str = "second") -> BoardState:
    """EIR's base on Calcutta's NW station, whose dual stub points at I27."""
    return board(edition).with_base(Base("EIR", "J28", "st1"))


def test_a_yellow_tile_extending_a_railhead_is_legal() -> None:
    assert check_lay(eir_at_calcutta(), ctx(), Lay("I27", "4", 5)) == 0


def test_only_yellow_tiles_are_laid() -> None:
    with pytest.raises(RuleError, match=r"4\.1\.4"):
        check_lay(eir_at_calcutta(), ctx(phase=3), Lay("I27", "87", 0))


def test_no_lay_on_a_preprinted_large_city_or_a_tiled_hex() -> None:
    with pytest.raises(RuleError, match=r"4\.1\.4 / 31\.3: J28 is a preprinted"):
        check_lay(eir_at_calcutta(), ctx(), Lay("J28", "5", 0))
    laid = eir_at_calcutta().with_tile("I27", "4", 5)
    with pytest.raises(RuleError, match="already has a tile"):
        check_lay(laid, ctx(), Lay("I27", "3", 1))


@pytest.mark.parametrize(("tile", "ok"), [("4", True), ("7", False), ("5", False), ("1", False)])
def test_the_tile_type_must_match_the_hex(tile: str, ok: bool) -> None:
    # I27 is a one-town hex: only tiles with one small station fit (4.1.9 / 31.7).
    state = eir_at_calcutta()
    if ok:
        check_lay(state, ctx(), Lay("I27", tile, 5))
    else:
        with pytest.raises(RuleError, match=r"4\.1\.9 / 31\.7"):
            check_lay(state, ctx(), Lay("I27", tile, 5))


@pytest.mark.parametrize("edition", ["first", "second"])
def test_no_track_may_run_off_the_grid(edition: str) -> None:
    # B12 on the top edge: tile 7 at rotation 0 runs NE and E; NE is off the grid.
    state = board(edition).with_base(Base("NWR", "C11", "st1")).with_tile("C11", "5", 3)
    with pytest.raises(RuleError, match=r"4\.1\.10 / 31\.8"):
        check_lay(state, ctx("NWR"), Lay("B12", "7", 0))


@pytest.mark.parametrize("edition", ["first", "second"])
def test_a_line_may_run_off_the_first_editions_board_at_a_buff_edge(edition: str) -> None:
    """31.8: "There is no restriction on a line running off the board at a buff edge" - B12's
    north-east side (the board data's buff_edges); 4.1.10 knows no such edge."""
    state = board(edition).with_base(Base("NWR", "C11", "st1")).with_tile("C11", "5", 2)
    lay = Lay("B12", "9", 0)  # a straight from C11 (SW) off the board (NE)
    if edition == "first":
        assert check_lay(state, ctx("NWR"), lay) == 240  # the Himalaya (TABLE 4)
        assert lay in [m.move for m in legal_lays(state, ctx("NWR"))]
        laid, cost = apply_lay(state, ctx("NWR"), lay)
        assert cost == 240 and laid.tiles["B12"].tile == "9"
    else:
        with pytest.raises(RuleError, match=r"4\.1\.10 / 31\.8"):
            check_lay(state, ctx("NWR"), lay)


def test_a_tile_that_extends_no_railhead_is_refused() -> None:
    with pytest.raises(RuleError, match=r"4\.1\.6 / 31\.4"):
        check_lay(eir_at_calcutta(), ctx(), Lay("I27", "4", 0))
    with pytest.raises(RuleError, match=r"4\.1\.6"):
        check_lay(board(), ctx("GIP"), Lay("I27", "4", 5))


def test_dual_track_is_extended_in_either_gauge() -> None:
    # Calcutta's stub is dual gauge: a metre tile may continue it (4.1.6, 4.2.8 / 31.18).
    assert check_lay(eir_at_calcutta(), ctx(), Lay("I27", "72", 3)) == 0


def test_the_extension_keeps_the_gauge_of_the_line() -> None:
    state = eir_at_calcutta().with_tile("I27", "4", 5)  # broad from J28 to H26's SE side
    with pytest.raises(RuleError, match=r"4\.1\.6"):
        check_lay(state, ctx(), Lay("H26", "77", 3))  # metre
    assert check_lay(state, ctx(), Lay("H26", "8", 2)) == 40  # broad, river


def _line_to_patna(state: BoardState) -> BoardState:
    return state.with_tile("I27", "4", 5).with_tile("H26", "8", 2).with_tile("H24", "5", 3)


def test_a_station_full_of_other_bases_blocks_the_line() -> None:
    state = _line_to_patna(eir_at_calcutta())
    assert check_lay(state, ctx(), Lay("I25", "7", 5)) == 0
    blocked = state.with_base(Base("BNR", "H24", "st1"))
    with pytest.raises(RuleError, match=r"4\.1\.6"):
        check_lay(blocked, ctx(), Lay("I25", "7", 5))
    assert check_lay(blocked, ctx("BNR"), Lay("I25", "7", 5)) == 0


def test_a_station_with_a_free_slot_does_not_block() -> None:
    state = (
        eir_at_calcutta().with_tile("I27", "4", 5).with_tile("H26", "8", 2)
        .with_tile("H24", "14", 0).with_base(Base("BNR", "H24", "st1"))
    )
    # Tile 14 has two slots, one free (4.2.9 / 31.19); its track runs W, NE, E and SW.
    assert check_lay(state, ctx(), Lay("I23", "4", 0)) >= 0


def test_on_a_two_town_hex_one_connected_line_suffices() -> None:
    state = eir_at_calcutta().with_tile("I27", "58", 0).with_tile("H28", "3", 2)
    # Tile 1 at rotation 2: one town joins the NW side (the railhead), the other does not.
    assert check_lay(state, ctx(), Lay("I29", "1", 2)) == 60  # multiple river, broad


@pytest.mark.parametrize("edition", ["first", "second"])
def test_a_company_may_lay_on_its_own_empty_home_city(edition: str) -> None:
    state = board(edition).with_base(Base("EIR", "H24", None))
    assert check_lay(state, ctx("EIR", phase=2), Lay("H24", "5", 0)) == 60
    with pytest.raises(RuleError, match=r"4\.1\.6"):
        check_lay(state, ctx("GIP"), Lay("H24", "5", 0))


def test_construction_cost_by_terrain_and_gauge() -> None:
    state = eir_at_calcutta().with_tile("I27", "4", 5)
    assert check_lay(state, ctx(), Lay("H26", "8", 2)) == 40
    metre = eir_at_calcutta().with_tile("I27", "74", 0)
    assert check_lay(metre, ctx(), Lay("H26", "78", 5)) == 30


def test_a_hex_with_two_kinds_of_terrain_pays_both() -> None:
    # L10: hill and river, NE of Bombay's north station (its stub points at L10).
    state = board().with_base(Base("BBCI", "M9", "st1"))
    assert check_lay(state, ctx("BBCI"), Lay("L10", "4", 0)) == 80 + 40
    assert check_lay(state, ctx("BBCI"), Lay("L10", "73", 4)) == 50 + 30


def test_the_bbci_major_pays_70_for_ajmer() -> None:
    state = board().with_base(Base("BBCI", "H10", None))
    assert check_lay(state, ctx("BBCI", type="major"), Lay("H10", "5", 0)) == 70
    assert check_lay(state, ctx("BBCI", type="minor"), Lay("H10", "5", 0)) == 140


def test_the_company_must_be_able_to_pay() -> None:
    state = eir_at_calcutta().with_tile("I27", "4", 5)
    with pytest.raises(RuleError, match=r"4\.1\.12"):
        check_lay(state, ctx(cash=39), Lay("H26", "8", 2))


def test_a_manager_owing_for_a_train_builds_only_at_no_cost() -> None:
    state = eir_at_calcutta().with_tile("I27", "4", 5)
    with pytest.raises(RuleError, match=r"3\.4\.6"):
        check_lay(state, ctx(owes_credit_train=True), Lay("H26", "8", 2))
    assert check_lay(eir_at_calcutta(), ctx(owes_credit_train=True), Lay("I27", "4", 5)) == 0


# --- two lays (4.1.2, 4.1.3, 4.1.7 / 31.2, 31.5) --------------------------------------------


def two_bases() -> BoardState:
    """EIR at Calcutta NW and at Patna (tile 5: track E to H26 and SE to I25)."""
    return eir_at_calcutta().with_tile("H24", "5", 3).with_base(Base("EIR", "H24", "st1"))


FIRST = Lay("I27", "4", 5)


def test_two_lays_from_different_bases_on_disjoint_lines() -> None:
    after, cost = apply_lay(two_bases(), ctx(double_lay="paid"), FIRST)
    assert cost == 0
    second = ctx(double_lay="paid", lays_done=(FIRST,))
    assert check_lay(after, second, Lay("I25", "7", 5)) == 50  # the EIR's fee (4.1.3)
    # H26 joined to Patna's E side (W, side 1) comes from the Patna base: legal.
    assert check_lay(after, second, Lay("H26", "7", 3)) == 40 + 50


def test_the_second_lay_may_not_hang_on_the_first_lays_line() -> None:
    after, _ = apply_lay(two_bases(), ctx(double_lay="paid"), FIRST)
    second = ctx(double_lay="paid", lays_done=(FIRST,))
    # H26 joined only to I27 (SE) can be reached only from Calcutta, like the first lay.
    with pytest.raises(RuleError, match=r"4\.1\.7 / 31\.5"):
        check_lay(after, second, Lay("H26", "7", 1))
    # Alone, the same lay is legal: it extends the first lay's railhead.
    assert check_lay(after, ctx(double_lay="paid"), Lay("H26", "7", 1)) == 40


def test_a_minor_lays_one_tile() -> None:
    after, _ = apply_lay(two_bases(), ctx(type="minor"), FIRST)
    with pytest.raises(RuleError, match=r"4\.1\.2"):
        check_lay(after, ctx(type="minor", lays_done=(FIRST,)), Lay("I25", "7", 5))


def test_second_edition_option_one_gives_two_lays_from_phase_3() -> None:
    after, _ = apply_lay(two_bases(), ctx(double_lay="later"), FIRST)
    with pytest.raises(RuleError, match=r"4\.1\.2-4\.1\.3"):
        check_lay(after, ctx(double_lay="later", lays_done=(FIRST,)), Lay("I25", "7", 5))
    third = ctx(double_lay="later", phase=3, lays_done=(FIRST,))
    assert check_lay(after, third, Lay("I25", "7", 5)) == 0
    with pytest.raises(RuleError, match="not chosen"):
        check_lay(after, ctx(lays_done=(FIRST,)), Lay("I25", "7", 5))


def test_first_edition_companies_1_to_4_lay_two_tiles_without_a_fee() -> None:
    state = (
        eir_at_calcutta("first").with_tile("H24", "5", 3).with_base(Base("EIR", "H24", "st1"))
    )
    after, _ = apply_lay(state, ctx(phase=1), FIRST)
    assert check_lay(after, ctx(phase=1, lays_done=(FIRST,)), Lay("I25", "7", 5)) == 0
    with pytest.raises(RuleError, match=r"31\.2"):
        check_lay(after, ctx(phase=1, type="minor", lays_done=(FIRST,)), Lay("I25", "7", 5))


def test_no_lays_after_a_promotion() -> None:
    with pytest.raises(RuleError, match=r"4\.2\.1"):
        check_lay(eir_at_calcutta(), ctx(promoted=True), FIRST)


def test_legal_lays_lists_every_lay_with_its_cost() -> None:
    moves = legal_lays(eir_at_calcutta(), ctx())
    lays = {m.move for m in moves}
    assert Lay("I27", "4", 2) in lays  # the same picture as rotation 5
    assert Lay("I27", "4", 0) not in lays and Lay("I27", "4", 1) not in lays
    assert {m.move.hex for m in moves} == {"I27"}
    for m in moves:
        assert isinstance(m.move, Lay)
        assert check_lay(eir_at_calcutta(), ctx(), m.move) == m.cost


def test_bad_input_is_reported() -> None:
    with pytest.raises(InputError, match="hex"):
        check_lay(eir_at_calcutta(), ctx(), Lay("Z1", "4", 5))
    with pytest.raises(InputError, match="tile"):
        check_lay(eir_at_calcutta(), ctx(), Lay("I27", "zz", 5))


def test_a_line_changes_gauge_only_at_one_of_the_companys_bases() -> None:
    # First edition tile 90 on Patna at rotation 2: broad to W, NW, NE, E; metre to SE and SW.
    # EIR's broad line from Calcutta enters from the E; the metre track leaves to the SE.
    state = (
        eir_at_calcutta("first").with_tile("I27", "4", 5).with_tile("H26", "8", 2)
        .with_tile("H24", "90", 2)
    )
    metre_lay = Lay("I25", "78", 2)  # metre, joining I25's NW side (Patna's SE)
    with pytest.raises(RuleError, match=r"4\.1\.6"):
        check_lay(state, ctx(phase=2), metre_lay)
    based = state.with_base(Base("EIR", "H24", "st1"))
    assert check_lay(based, ctx(phase=2), metre_lay) == 0


# --- TABLE 6, TABLE 4 by edition, the supply (audit of issue 3) ------------------------------


def test_second_edition_phase_1_lays_no_tile() -> None:
    # TABLE 6: Phase 1 (the contract bids) has no tiles; yellow comes with Phase 2.
    with pytest.raises(RuleError, match=r"TABLE 6: no yellow tiles in Phase 1"):
        check_lay(eir_at_calcutta(), ctx(phase=1), FIRST)
    assert legal_lays(eir_at_calcutta(), ctx(phase=1)) == []
    assert check_lay(eir_at_calcutta(), ctx(phase=2), FIRST) == 0


def test_first_edition_lays_yellow_from_phase_1_and_never_green() -> None:
    # First edition TABLE 6: yellow in every phase; other colours only by promotion (31.3).
    assert check_lay(eir_at_calcutta("first"), ctx(phase=1), FIRST) == 0
    assert legal_lays(eir_at_calcutta("first"), ctx(phase=1))
    with pytest.raises(RuleError, match=r"4\.1\.4 / 31\.3: tile 87 is green"):
        check_lay(eir_at_calcutta("first"), ctx(phase=4), Lay("I27", "87", 5))


@pytest.mark.parametrize(("edition", "metre_multiple_river"), [("first", 50), ("second", 40)])
def test_table_4_of_each_edition(edition: str, metre_multiple_river: int) -> None:
    # I29: two towns, multiple river.  Metre tile 71 continues the metre town tile on I27.
    state = eir_at_calcutta(edition).with_tile("I27", "72", 2)
    assert check_lay(state, ctx(), Lay("I29", "71", 3)) == metre_multiple_river
    with pytest.raises(RuleError, match=r"4\.1\.12"):
        check_lay(state, ctx(cash=metre_multiple_river - 1), Lay("I29", "71", 3))
    # A broad river hex costs £40 in both editions.
    broad = eir_at_calcutta(edition).with_tile("I27", "4", 5)
    assert check_lay(broad, ctx(), Lay("H26", "8", 2)) == 40


def test_first_edition_ajmer_costs_its_table_4_price() -> None:
    # The £70 Ajmer of 2.6.2 / 4.1.13 is second-edition data only: mountain, broad, £140.
    state = board("first").with_base(Base("BBCI", "H10", None))
    assert check_lay(state, ctx("BBCI", type="minor"), Lay("H10", "5", 0)) == 140
    assert check_lay(state, ctx("BBCI", type="major"), Lay("H10", "5", 0)) == 140


def _use_up(state: BoardState, tile: str, keep: int) -> BoardState:
    """Lay copies of ``tile`` on far-away cities until ``keep`` are left in the supply."""
    cities = [h.coord for h in state.edition.board.hexes.values()
              if h.kind == "city" and h.coord not in ("H24", "H22", "H20")]
    while state.supply()[tile] > keep:
        state = state.with_tile(cities.pop(), tile, 0)
    return state


@pytest.mark.parametrize("edition", ["first", "second"])
def test_no_lay_of_a_tile_the_supply_has_run_out_of(edition: str) -> None:
    home = board(edition).with_base(Base("EIR", "H24", None))
    last = _use_up(home, "5", 1)
    assert check_lay(last, ctx(), Lay("H24", "5", 0)) == 60
    gone = _use_up(home, "5", 0)
    with pytest.raises(RuleError, match=r"4\.2\.10 / 31\.20: no tile 5 left"):
        check_lay(gone, ctx(), Lay("H24", "5", 0))
    assert all(m.move.tile != "5" for m in legal_lays(gone, ctx()))  # type: ignore[union-attr]


# --- a major that has not chosen its 4.1.3 option --------------------------------------------


@pytest.mark.parametrize("phase", [2, 3, 5])
def test_a_second_edition_major_without_a_choice_lays_one_tile(phase: int) -> None:
    # 4.1.2: the second lay "depends on the option chosen" in the first operating round
    # (4.1.3); until a choice is recorded, one tile - also from Phase 3 on.
    policy = ConstructionPolicy.of(load_edition("second"))
    assert lays_allowed(policy, ctx(phase=phase)) == 1
    assert lays_allowed(policy, ctx(phase=phase, double_lay="paid")) == 2
    assert lays_allowed(policy, ctx(phase=phase, double_lay="later")) == (2 if phase >= 3 else 1)
    after, _ = apply_lay(two_bases(), ctx(phase=phase), FIRST)
    with pytest.raises(RuleError, match=r"4\.1\.2-4\.1\.3 / 31\.2: EIR has not chosen"):
        check_lay(after, ctx(phase=phase, lays_done=(FIRST,)), Lay("I25", "7", 5))


def test_first_edition_majors_need_no_choice() -> None:
    policy = ConstructionPolicy.of(load_edition("first"))
    assert lays_allowed(policy, ctx(phase=1)) == 2
    assert lays_allowed(policy, ctx(phase=1, type="minor")) == 1


@pytest.mark.parametrize("edition", ["first", "second"])
def test_a_line_does_not_change_gauge_at_a_junction_tile(edition: str) -> None:
    # BBCI at Ajmer (broad tile 5); brown junction 106 on G11 (dual) towards Jaipur, G13.  A
    # junction runs "as if" a station (4.2.5) but holds no base, so the broad line leaves it
    # broad (4.2.6 / 31.16): a broad city tile continues it, a metre one does not.
    state = (board(edition).with_tile("H10", "5", 1).with_tile("G11", "106", 1)
             .with_base(Base("BBCI", "H10", "st1")))
    bbci = ctx("BBCI", type="minor", phase=4)
    assert check_lay(state, bbci, Lay("G13", "5", 0)) == 0
    with pytest.raises(RuleError, match=r"4\.1\.6 / 31\.4"):
        check_lay(state, bbci, Lay("G13", "75", 0))
