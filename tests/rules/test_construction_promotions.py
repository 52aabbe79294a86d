"""Promotions: rules 4.2.1-4.2.13 (second edition) and 31.12-31.23 (first edition)."""

from __future__ import annotations

from typing import Any

import pytest

from india1853.board.state import Base, BoardState
from india1853.board.tiles import fitting_rotations, promotion_rotations
from india1853.data.loader import load_edition
from india1853.errors import RuleError
from india1853.rules.construction import (
    CompanyContext,
    Lay,
    Outcome,
    Promotion,
    apply_promotion,
    check_promotion,
    legal_promotions,
)

ALL = frozenset({"EIR", "GIP", "NWR", "BNR", "BBCI", "MSM", "SIR", "ECR", "BAR"})


def ctx(company: str = "EIR", **kw: Any) -> CompanyContext:
    fields: dict[str, Any] = {"type": "major", "phase": 3, "cash": 1000, "running": ALL}
    fields.update(kw)
    return CompanyContext(company, **fields)


def board(edition: str = "second") -> BoardState:
    return BoardState.initial(load_edition(edition))


def patna_line(edition: str = "second") -> BoardState:
    """EIR at Calcutta NW with broad track through I27 and H26 to Patna (tile 5)."""
    return (
        board(edition).with_base(Base("EIR", "J28", "st1"))
        .with_tile("I27", "4", 5).with_tile("H26", "8", 2).with_tile("H24", "5", 3)
    )


def rotation(state: BoardState, hex: str, new: str) -> int:
    """The first rotation that keeps the old track and stays on the board."""
    old, old_rotation = state.tile_at(hex) or (None, 0)
    assert old is not None
    tile = state.edition.tiles[new]
    fits = fitting_rotations(tile, hex, state.edition.board)
    return next(r for r, _ in promotion_rotations(old, old_rotation, tile) if r in fits)


def test_a_yellow_tile_becomes_green_from_phase_3() -> None:
    assert check_promotion(patna_line(), ctx(), Promotion("H24", "12", 3)) == Outcome(0)
    with pytest.raises(RuleError, match=r"4\.2\.1 / 31\.12: no green tiles in Phase 2"):
        check_promotion(patna_line(), ctx(phase=2), Promotion("H24", "12", 3))


def test_first_edition_green_from_phase_2() -> None:
    assert check_promotion(patna_line("first"), ctx(phase=2), Promotion("H24", "12", 3))
    with pytest.raises(RuleError, match="no green tiles in Phase 1"):
        check_promotion(patna_line("first"), ctx(phase=1), Promotion("H24", "12", 3))


def test_only_the_promotions_of_the_chart() -> None:
    with pytest.raises(RuleError, match=r"4\.2\.5 / 31\.15, TABLE 8: tile 5 promotes to"):
        check_promotion(patna_line(), ctx(), Promotion("H24", "13", 0))


def test_existing_track_is_kept() -> None:
    with pytest.raises(RuleError, match=r"4\.2\.4-4\.2\.6 / 31\.14-31\.16"):
        check_promotion(patna_line(), ctx(), Promotion("H24", "12", 4))


def test_two_town_tiles_never_promote() -> None:
    state = board().with_tile("E15", "1", 0).with_base(Base("NWR", "E15", None))
    with pytest.raises(RuleError, match=r"4\.2\.5 / 31\.15: tile 1 on E15 cannot be promoted"):
        check_promotion(state, ctx("NWR"), Promotion("E15", "12", 0))


def test_one_promotion_instead_of_lays() -> None:
    with pytest.raises(RuleError, match=r"4\.2\.1"):
        check_promotion(patna_line(), ctx(lays_done=(Lay("I25", "7", 5),)),
                        Promotion("H24", "12", 3))
    with pytest.raises(RuleError, match=r"4\.2\.1"):
        check_promotion(patna_line(), ctx(promoted=True), Promotion("H24", "12", 3))


def test_an_unconnected_tile_may_be_promoted_only_when_that_connects_it() -> None:
    state = patna_line().with_tile("I25", "7", 0)  # NE-E, touching nothing of EIR's
    # 80 at rotation 1 adds track to the NW side, where Patna's SE track ends.
    assert check_promotion(state, ctx(), Promotion("I25", "80", 1)) == Outcome(0)
    with pytest.raises(RuleError, match=r"4\.2\.2 / 31\.13"):
        check_promotion(state, ctx(), Promotion("I25", "80", 2))


def _calcutta_sw(edition: str) -> BoardState:
    """EIR on Calcutta's SW station; a straight track on K27 (row K: outside EIR's area)."""
    state = board(edition).with_base(Base("EIR", "J28", "st3"))
    tile = state.edition.tiles["9"]
    fits = fitting_rotations(tile, "K27", state.edition.board)
    return state.with_tile("K27", "9", next(r for r in (0, 3) if r in fits))


def test_second_edition_areas_until_phase_5_then_trains_5_or_6_with_a_run_duty() -> None:
    # The town on L26 (tile 3) ends the line through K27, so a run from Calcutta includes K27.
    state = _calcutta_sw("second").with_tile("L26", "3", 5)
    move = Promotion("K27", "233", rotation(state, "K27", "233"))
    with pytest.raises(RuleError, match=r"4\.2\.2-4\.2\.3 / 31\.13: K27 lies outside"):
        check_promotion(state, ctx(phase=4, trains=("4",)), move)
    with pytest.raises(RuleError, match="owns no 5 or 6 train"):
        check_promotion(state, ctx(phase=5, trains=("4",)), move)
    assert check_promotion(state, ctx(phase=5, trains=("6",)), move) == Outcome(0, "K27")


def test_phase_5_promotion_needs_a_run_of_the_companys_trains_not_only_track() -> None:
    # Without the town the track on K27 is a dead end: connected, but on no run (4.2.3).
    state = _calcutta_sw("second")
    move = Promotion("K27", "233", rotation(state, "K27", "233"))
    with pytest.raises(RuleError, match=r"rule 4\.2\.3: K27 lies outside EIR's TABLE 2 area "
                                        "and no legal run"):
        check_promotion(state, ctx(phase=5, trains=("6",)), move)


def test_first_edition_areas_always_apply() -> None:
    state = _calcutta_sw("first")
    move = Promotion("K27", "82", rotation(state, "K27", "82"))
    with pytest.raises(RuleError, match="lies outside"):
        check_promotion(state, ctx(phase=4, trains=("5",)), move)
    # Inside the area (Patna, H24) the same company may promote.
    assert check_promotion(patna_line("first"), ctx(phase=4, trains=("5",)),
                           Promotion("H24", "12", 3)) == Outcome(0)


def _brown_patna() -> BoardState:
    return board().with_tile("H24", "103", 0).with_base(Base("EIR", "H24", "st1"))


def test_a_brown_tile_next_to_a_grey_one_is_not_promoted() -> None:
    move = Promotion("H24", "109", rotation(_brown_patna(), "H24", "109"))
    assert check_promotion(_brown_patna(), ctx(phase=5), move) == Outcome(0)
    state = _brown_patna().with_tile("H22", "109", 0)
    with pytest.raises(RuleError, match=r"4\.2\.7 / 31\.17"):
        check_promotion(state, ctx(phase=5), move)


def test_calcutta_is_promoted_with_its_reserved_tiles_and_first_costs_60() -> None:
    state = board().with_base(Base("EIR", "J28", "st1"))
    assert check_promotion(state, ctx(phase=4), Promotion("J28", "500", 0)) == Outcome(60)
    with pytest.raises(RuleError, match=r"4\.2\.12 / 31\.22: no brown tiles in Phase 3"):
        check_promotion(state, ctx(phase=3), Promotion("J28", "500", 0))
    with pytest.raises(RuleError, match=r"4\.2\.12 / 31\.22: tile Calcutta promotes to 500"):
        check_promotion(state, ctx(phase=4), Promotion("J28", "105", 0))
    after, outcome = apply_promotion(state, ctx(phase=4), Promotion("J28", "500", 0))
    assert outcome.cost == 60
    assert after.bases == (Base("EIR", "J28", after.station_by_side("J28", "NW")),)
    assert check_promotion(after, ctx(phase=5), Promotion("J28", "900", 0)) == Outcome(0)


def test_first_edition_calcutta_takes_104_in_phase_3() -> None:
    state = board("first").with_base(Base("EIR", "J28", "st1"))
    assert check_promotion(state, ctx(phase=3), Promotion("J28", "104", 0)) == Outcome(60)
    with pytest.raises(RuleError, match="no brown tiles in Phase 2"):
        check_promotion(state, ctx(phase=2), Promotion("J28", "104", 0))


def test_the_promotion_fee_must_be_payable() -> None:
    state = board().with_base(Base("EIR", "J28", "st1"))
    with pytest.raises(RuleError, match=r"4\.1\.12"):
        check_promotion(state, ctx(phase=4, cash=59), Promotion("J28", "500", 0))
    with pytest.raises(RuleError, match=r"3\.4\.6"):
        check_promotion(state, ctx(phase=4, owes_credit_train=True), Promotion("J28", "500", 0))
    # Other promotions cost nothing, so an owing Manager may make them (4.2.11, 3.4.6).
    assert check_promotion(patna_line(), ctx(owes_credit_train=True, cash=0),
                           Promotion("H24", "12", 3)) == Outcome(0)


def test_waltair_takes_its_reserved_brown_tile() -> None:
    state = board().with_base(Base("ECR", "O21", "st1"))
    move = Promotion("O21", "720", rotation(state, "O21", "720"))
    assert check_promotion(state, ctx("ECR", type="minor", phase=4), move) == Outcome(0)
    with pytest.raises(RuleError, match=r"4\.2\.12"):
        check_promotion(state, ctx("ECR", type="minor", phase=3), move)


def test_legal_promotions_lists_each_legal_promotion() -> None:
    moves = legal_promotions(patna_line(), ctx())
    found = {m.move for m in moves}
    assert Promotion("H24", "12", 3) in found or Promotion("H24", "12", 2) in found
    assert all(m.move.hex in {"H24", "I27", "H26"} for m in moves)
    for m in moves:
        assert isinstance(m.move, Promotion)
        assert check_promotion(patna_line(), ctx(), m.move).cost == m.cost
    assert legal_promotions(patna_line(), ctx(promoted=True)) == []


@pytest.mark.parametrize(("edition", "brown", "grey", "phase"),
                         [("first", "104", "110", 4), ("second", "500", "900", 5)])
def test_no_promotion_to_a_tile_the_supply_has_run_out_of(
    edition: str, brown: str, grey: str, phase: int
) -> None:
    # One grey CD tile (4.2.12): once Delhi has it, Calcutta cannot (4.2.10 / 31.20).
    state = board(edition).with_base(Base("EIR", "J28", "st1")).with_tile("J28", brown, 0)
    assert check_promotion(state, ctx(phase=phase), Promotion("J28", grey, 0)) == Outcome(0)
    gone = state.with_tile("F14", brown, 0).with_tile("F14", grey, 0)
    with pytest.raises(RuleError, match=rf"4\.2\.10 / 31\.20: no tile {grey} left"):
        check_promotion(gone, ctx(phase=phase), Promotion("J28", grey, 0))
    assert [m for m in legal_promotions(gone, ctx(phase=phase)) if m.move.hex == "J28"] == []


@pytest.mark.parametrize(("edition", "tile", "phase"), [("first", "104", 3), ("second", "500", 4)])
def test_a_promotion_is_listed_once_per_distinct_result(
    edition: str, tile: str, phase: int
) -> None:
    # The CD tile's six identical one-slot stations look the same at every rotation.
    state = board(edition).with_base(Base("EIR", "J28", "st1"))
    listed = [m.move for m in legal_promotions(state, ctx(phase=phase)) if m.move.hex == "J28"]
    assert listed == [Promotion("J28", tile, 0)]
    # Every rotation stays legal when asked for one by one.
    for r in range(6):
        assert check_promotion(state, ctx(phase=phase), Promotion("J28", tile, r)) == Outcome(60)
    # Rotations that give different tiles stay apart: the town on I27 (tile 4, a straight
    # track) becomes green 14 (an X) with the new track on either side of the old.
    greens = [m.move.rotation for m in legal_promotions(patna_line(edition), ctx(phase=phase))
              if m.move.hex == "I27" and m.move.tile == "14"]
    assert greens == [1, 2]
