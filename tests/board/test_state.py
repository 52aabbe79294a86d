"""Board state: preprinted tiles, tiles and bases, the supply (rules 4.2.10 / 31.20)."""

from __future__ import annotations

import dataclasses

import pytest

from india1853.board.state import Base, BoardState, PlacedTile
from india1853.board.tiles import promotion_rotations
from india1853.data.loader import load_edition
from india1853.errors import InputError


@pytest.fixture(params=["first", "second"])
def state(request: pytest.FixtureRequest) -> BoardState:
    return BoardState.initial(load_edition(request.param))


def test_initial_board_holds_the_preprinted_large_cities(state: BoardState) -> None:
    assert state.tiles["J28"] == PlacedTile("Calcutta", 0)
    assert state.tiles["F14"] == PlacedTile("Delhi", 0)
    assert state.bases == ()
    assert ("O21" in state.tiles) == (state.edition.name == "second")


def test_supply_is_the_manifest_less_the_tiles_on_the_board(state: BoardState) -> None:
    manifest = state.edition.manifest
    after = state.with_tile("H24", "5", 0).with_tile("H22", "5", 0)
    assert after.supply()["5"] == manifest["5"] - 2
    assert state.supply() == manifest


def test_promotion_returns_the_old_tile_to_the_supply() -> None:
    state = BoardState.initial(load_edition("second")).with_tile("H24", "6", 0)
    promoted = state.with_tile("H24", "12", 5)
    assert promoted.supply()["6"] == state.edition.manifest["6"]
    assert promoted.supply()["12"] == state.edition.manifest["12"] - 1


def test_a_state_made_by_dataclasses_replace_counts_its_own_supply(state: BoardState) -> None:
    # The supply cache is not an __init__ field, so replace() cannot carry a stale count.
    assert state.supply()["5"] == state.edition.manifest["5"]
    laid = dataclasses.replace(state, tiles={**state.tiles, "H24": PlacedTile("5", 0)})
    assert laid.supply()["5"] == state.edition.manifest["5"] - 1
    assert state.supply()["5"] == state.edition.manifest["5"]


def test_a_new_base_keeps_the_supply_and_a_new_tile_recounts_it(state: BoardState) -> None:
    laid = state.with_tile("H24", "5", 0)
    assert laid.supply()["5"] == state.edition.manifest["5"] - 1
    based = laid.with_base(Base("EIR", "H24", "st1"))
    assert based.supply() == laid.supply()
    assert based.with_tile("H22", "5", 0).supply()["5"] == state.edition.manifest["5"] - 2


def test_states_are_immutable_and_changes_return_new_states(state: BoardState) -> None:
    after = state.with_tile("H24", "5", 0)
    assert "H24" not in state.tiles
    assert after.tile_at("H24") == (state.edition.tiles["5"], 0)
    with pytest.raises(TypeError):
        after.tiles["H26"] = PlacedTile("7", 0)  # type: ignore[index]


def test_home_base_waiting_on_an_empty_city_moves_onto_its_first_tile(state: BoardState) -> None:
    with_base = state.with_base(Base("EIR", "H24", None))
    laid = with_base.with_tile("H24", "5", 0)
    assert laid.bases == (Base("EIR", "H24", "st1"),)
    assert laid.bases_at("H24", "st1") == (Base("EIR", "H24", "st1"),)


def test_promotion_moves_bases_through_the_station_map() -> None:
    state = BoardState.initial(load_edition("second"))
    state = state.with_base(Base("EIR", "J28", "st1")).with_base(Base("BNR", "J28", "st3"))
    promoted = state.with_tile("J28", "500", 0)
    stations = {b.company: b.station for b in promoted.bases}
    # 500 has one station per side: the NW stub (side 2) and the SW stub (side 0).
    assert promoted.station_by_side("J28", "NW") == stations["EIR"]
    assert promoted.station_by_side("J28", "SW") == stations["BNR"]


def test_a_promotion_that_loses_track_is_refused(state: BoardState) -> None:
    laid = state.with_tile("H26", "7", 0)
    with pytest.raises(InputError, match="H26"):
        laid.with_tile("H26", "81", 0)
    assert laid.tiles["H26"] == PlacedTile("7", 0)


def test_station_by_side_names_the_station_whose_track_reaches_that_side(
    state: BoardState,
) -> None:
    assert state.station_by_side("J28", "NW") == "st1"
    assert state.station_by_side("J28", 0) == "st3"
    with pytest.raises(InputError, match="side"):
        state.station_by_side("J28", "NE")
    with pytest.raises(InputError, match="no tile"):
        state.station_by_side("H24", "NW")


def test_bad_tile_or_rotation_is_refused(state: BoardState) -> None:
    with pytest.raises(InputError, match="tile"):
        state.with_tile("H24", "999", 0)
    with pytest.raises(InputError, match="rotation"):
        state.with_tile("H24", "5", 6)


def test_a_home_station_follows_its_preprinted_city_through_every_promotion() -> None:
    """3.3.2: TABLE 1 names a station of the printed Calcutta; after Calcutta -> 500 -> 900
    (any rotations) the home is the station the bases there moved to (4.2.4-4.2.6)."""
    ed = load_edition("second")
    start = BoardState.initial(ed)
    homes = {c.initials: h for c in ed.companies for h in c.homes if h.hex == "J28"}
    based = {c: start.with_base(Base(c, "J28", h.station)) for c, h in homes.items()}
    for home in homes.values():
        assert start.home_station(home) == home.station
    seen = 0
    for green, _ in promotion_rotations(ed.tiles["Calcutta"], 0, ed.tiles["500"]):
        on_green = start.with_tile("J28", "500", green)
        for grey, _ in promotion_rotations(ed.tiles["500"], green, ed.tiles["900"]):
            on_grey = on_green.with_tile("J28", "900", grey)
            for company, home in homes.items():
                moved = based[company].with_tile("J28", "500", green).with_tile("J28", "900", grey)
                (base,) = moved.bases_at("J28")
                assert on_grey.home_station(home) == base.station, (company, green, grey)
                seen += 1
            assert len({on_grey.home_station(h) for h in homes.values()}) == len(homes)
    assert seen == 6 * 6 * len(homes)


def test_an_ordinary_home_city_has_no_station_until_a_tile_is_laid() -> None:
    ed = load_edition("second")
    state = BoardState.initial(ed)
    (patna,) = [h for h in ed.company("EIR").homes if h.hex == "H24"]
    assert state.home_station(patna) is None
    assert state.with_tile("H24", "5", 0).home_station(patna) == "st1"
