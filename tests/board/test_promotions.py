"""Promotion geometry (rules 4.2.4-4.2.6, 4.2.12 / 31.14-31.16, 31.22) and the chart report."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from india1853.board import tiles
from india1853.data.loader import load_edition
from india1853.data.model import PathSpec, StationSpec, TileSpec

ROOT = Path(__file__).resolve().parents[2]


def _small(sid: str = "st1") -> StationSpec:
    return StationSpec(sid, "small", 10, 0)


def _large(sid: str = "st1", slots: int = 1, value: int = 20) -> StationSpec:
    return StationSpec(sid, "large", value, slots)


def _tile(tid: str, colour: str, stations: tuple[StationSpec, ...], *paths: tuple) -> TileSpec:
    return TileSpec(tid, colour, stations, tuple(PathSpec(*p) for p in paths))  # type: ignore[arg-type]


YELLOW_STRAIGHT = _tile("y9", "yellow", (), (3, 0, "broad"))
YELLOW_METRE_STRAIGHT = _tile("y79", "yellow", (), (3, 0, "metre"))
GREEN_X_BROAD = _tile("gx", "green", (), (3, 0, "broad"), (1, 4, "broad"))
GREEN_X_DUAL = _tile("gxd", "green", (), (3, 0, "dual"), (1, 4, "metre"))
GREEN_CURVES = _tile("gc", "green", (), (3, 4, "broad"), (0, 1, "broad"))
GREEN_METRE_X = _tile("gmx", "green", (), (3, 0, "metre"), (1, 4, "metre"))
YELLOW_TOWN = _tile("y4", "yellow", (_small(),), ("st1", 3, "broad"), ("st1", 0, "broad"))
GREEN_TOWN = _tile(
    "g87", "green", (_small(),), *[("st1", s, "broad") for s in (0, 2, 3, 5)]
)
GREEN_CITY = _tile(
    "g14", "green", (_large(slots=2),), *[("st1", s, "broad") for s in (0, 1, 3, 4)]
)
GREEN_TOWN_ON_PLAIN = _tile(
    "g-plain-station", "green", (_small(),), ("st1", 3, "broad"), ("st1", 0, "broad")
)
YELLOW_CITY = _tile("y5", "yellow", (_large(),), ("st1", 1, "broad"), ("st1", 2, "broad"))
GREEN_SMALL_FROM_CITY = _tile(
    "g-small", "green", (_small(),), *[("st1", s, "broad") for s in (1, 2, 4)]
)
TWO_TOWN = _tile(
    "y1", "yellow", (_small("st1"), _small("st2")),
    ("st1", 0, "broad"), ("st1", 4, "broad"), ("st2", 1, "broad"), ("st2", 3, "broad"),
)
GREEN_TWO_STATION = _tile(
    "g-two", "green", (_large("st1"), _large("st2")),
    ("st1", 0, "dual"), ("st1", 4, "dual"), ("st2", 1, "dual"), ("st2", 3, "dual"),
)


def test_straight_to_crossing_keeps_the_track() -> None:
    assert tiles.promotion_station_map(YELLOW_STRAIGHT, 0, GREEN_X_BROAD, 0) == {}
    # The crossing is symmetric under a half turn, so rotations 0 and 3 both keep the straight;
    # its other straight (1-4) also lies on 3-0 at rotation 2 and 5.
    assert [r for r, _ in tiles.promotion_rotations(YELLOW_STRAIGHT, 0, GREEN_X_BROAD)] == [
        0, 2, 3, 5,
    ]


def test_lost_track_is_refused() -> None:
    # Rule 4.2.4 / 31.14: the curves tile has no straight at all.
    assert tiles.promotion_rotations(YELLOW_STRAIGHT, 0, GREEN_CURVES) == []


def test_broad_never_becomes_metre() -> None:
    # Rule 4.2.6 / 31.16: the gauge of existing lines is maintained.
    assert tiles.promotion_rotations(YELLOW_STRAIGHT, 0, GREEN_METRE_X) == []


def test_dual_keeps_either_gauge_and_new_track_is_any_gauge() -> None:
    # The broad straight becomes dual (rule 4.2.8); the metre crossing track is new.
    assert tiles.promotion_station_map(YELLOW_STRAIGHT, 1, GREEN_X_DUAL, 1) == {}
    assert tiles.promotion_station_map(YELLOW_METRE_STRAIGHT, 1, GREEN_X_DUAL, 1) == {}
    # ... but the metre branch of GREEN_X_DUAL cannot keep a broad straight.
    assert tiles.promotion_station_map(YELLOW_STRAIGHT, 0, GREEN_X_DUAL, 2) is None


def test_dual_track_is_kept_only_by_dual() -> None:
    dual_straight = _tile("d", "green", (), (3, 0, "dual"))
    brown_broad_x = _tile("bx", "brown", (), (3, 0, "broad"), (1, 4, "dual"))
    assert tiles.promotion_station_map(dual_straight, 0, brown_broad_x, 0) is None
    assert tiles.promotion_station_map(dual_straight, 0, brown_broad_x, 2) == {}


def test_town_promotes_to_town_or_city_with_station_mapping() -> None:
    # Rule 4.2.5 / 31.15: small -> small or large.
    assert tiles.promotion_station_map(YELLOW_TOWN, 0, GREEN_TOWN, 0) == {"st1": "st1"}
    assert tiles.promotion_station_map(YELLOW_TOWN, 0, GREEN_CITY, 0) == {"st1": "st1"}


def test_rotation_of_the_old_tile_matters() -> None:
    # YELLOW_TOWN at rotation 1 runs 4-1, which GREEN_TOWN at rotation 0 does not have.
    assert tiles.promotion_station_map(YELLOW_TOWN, 1, GREEN_TOWN, 0) is None
    assert tiles.promotion_station_map(YELLOW_TOWN, 1, GREEN_TOWN, 1) == {"st1": "st1"}


def test_plain_never_becomes_a_station_and_a_station_never_disappears() -> None:
    assert tiles.promotion_rotations(YELLOW_STRAIGHT, 0, GREEN_TOWN_ON_PLAIN) == []
    assert tiles.promotion_rotations(YELLOW_TOWN, 0, GREEN_X_BROAD) == []


def test_large_station_never_becomes_small() -> None:
    assert tiles.promotion_rotations(YELLOW_CITY, 0, GREEN_SMALL_FROM_CITY) == []


def test_two_town_tiles_never_promote() -> None:
    # Rule 4.2.5 / 31.15, even to a tile that keeps both towns' track.
    assert tiles.promotion_rotations(TWO_TOWN, 0, GREEN_TWO_STATION) == []


def test_separate_stations_of_an_ordinary_tile_are_never_joined() -> None:
    two_cities = _tile(
        "y-two", "yellow", (_large("st1"), _large("st2")), ("st1", 0, "broad"), ("st2", 3, "broad")
    )
    one_city = _tile("g-one", "green", (_large(slots=2),), ("st1", 0, "broad"), ("st1", 3, "broad"))
    assert tiles.promotion_rotations(two_cities, 0, one_city) == []


def test_base_spaces_are_never_lost() -> None:
    # Rule 4.2.9: promotion may add spaces for bases, never remove them.
    two_slot = _tile("y-2", "yellow", (_large(slots=2),), ("st1", 0, "broad"))
    one_slot = _tile("g-1", "green", (_large(slots=1),), ("st1", 0, "broad"), ("st1", 3, "broad"))
    assert tiles.promotion_rotations(two_slot, 0, one_slot) == []


def test_reserved_tiles_replace_only_their_cities() -> None:
    # Rule 4.2.12 / 31.22: the CD, BM and W tiles are reserved for the large cities.
    ordinary = _tile("y-c", "yellow", (_large(),), ("st1", 2, "broad"))
    reserved = TileSpec(
        "cd", "brown", tuple(_large(f"st{s}") for s in range(6)),
        tuple(PathSpec(f"st{s}", s, "dual") for s in range(6)), label="CD",
    )
    assert tiles.promotion_rotations(ordinary, 0, reserved) == []
    preprinted = TileSpec(
        "Delhi", "green", (_large("a"), _large("b")),
        (PathSpec("a", 2, "dual"), PathSpec("b", 4, "dual")), label="CD", preprinted=True,
    )
    assert tiles.promotion_station_map(preprinted, 0, reserved, 0) == {"a": "st2", "b": "st4"}
    plain_big = _tile("g-big", "green", (_large("st1", slots=3),),
                      *[("st1", s, "dual") for s in range(6)])
    assert tiles.promotion_rotations(preprinted, 0, plain_big) == []


def _preprinted_rotation(edition: str, tile_id: str) -> int:
    board = load_edition(edition).board
    for spec in board.hexes.values():
        if spec.preprinted == tile_id:
            return spec.preprinted_rotation
    return 0


@pytest.mark.parametrize("edition", ["first", "second"])
def test_every_chart_promotion_is_geometrically_possible(edition: str) -> None:
    ed = load_edition(edition)
    impossible = []
    for old_id, new_ids in ed.promotions.items():
        old = ed.tiles[old_id]
        old_rotations = [_preprinted_rotation(edition, old_id)] if old.preprinted else range(6)
        for new_id in new_ids:
            new = ed.tiles[new_id]
            if not any(tiles.promotion_rotations(old, r, new) for r in old_rotations):
                impossible.append(f"{old_id}->{new_id}")
    assert impossible == []


@pytest.mark.parametrize("edition", ["first", "second"])
def test_large_city_promotions_move_every_station(edition: str) -> None:
    ed = load_edition(edition)
    for spec in ed.board.hexes.values():
        if spec.preprinted is None:
            continue
        old = ed.tiles[spec.preprinted]
        for new_id in ed.promotions[spec.preprinted]:
            found = tiles.promotion_rotations(old, spec.preprinted_rotation, ed.tiles[new_id])
            assert found, f"{spec.preprinted}->{new_id}"
            for _, mapping in found:
                assert set(mapping) == {st.id for st in old.stations}


def test_bombay_stations_join_but_delhi_stations_stay_separate() -> None:
    # Rule 4.2.12: the BM tiles allow through runs; the CD tiles keep separate terminals.
    ed = load_edition("second")
    bombay = ed.tiles["Bombay"]
    _, bm_map = tiles.promotion_rotations(bombay, 0, ed.tiles["105"])[0]
    assert len(set(bm_map.values())) == 1 < len(bm_map)
    delhi = ed.tiles["Delhi"]
    _, cd_map = tiles.promotion_rotations(delhi, 0, ed.tiles["500"])[0]
    assert len(set(cd_map.values())) == len(cd_map) == len(delhi.stations)


def test_promotion_report_is_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location(
        "tile_promotions_report", ROOT / "tools" / "tile_promotions_report.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    committed = (ROOT / "docs" / "tile-promotions.md").read_text(encoding="utf-8")
    assert committed == module.report(), "run: python -m tools.tile_promotions_report"
