"""Position files (docs/positions.md): loading, defaults, writing back, and errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from india1853.board.state import Base, PlacedTile
from india1853.rules.position import PositionError, load_position, position_to_dict

POSITIONS = Path(__file__).parent.parent / "positions"


def _early() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((POSITIONS / "second_early.json").read_text())
    return data


def test_loads_tiles_bases_and_companies() -> None:
    pos = load_position(POSITIONS / "second_early.json")
    assert pos.edition.name == "second" and pos.phase == 2
    assert pos.board.tiles["H24"] == PlacedTile("5", 3)
    assert pos.board.tiles["J28"] == PlacedTile("Calcutta", 0)
    assert Base("EIR", "J28", "st1") in pos.board.bases
    assert Base("BNR", "J28", "st3") in pos.board.bases
    assert Base("EIR", "H24", "st1") in pos.board.bases
    eir = pos.company("EIR")
    assert eir.trains == ("2",) and eir.cash == 600 and eir.double_lay == "paid"
    assert eir.running and eir.type == "major" and eir.bases_placed == 0


def test_round_trip_through_the_file_format() -> None:
    pos = load_position(POSITIONS / "second_early.json")
    again = load_position(position_to_dict(pos))
    assert again.board.tiles == pos.board.tiles
    assert again.board.bases == pos.board.bases
    assert again.companies == pos.companies


def test_home_base_on_an_empty_city_has_no_station() -> None:
    data = _early()
    data["tiles"] = []
    pos = load_position(data)
    assert Base("EIR", "H24", None) in pos.board.bases


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("edition",), "third", "edition: unknown edition"),
        (("phase",), 7, "phase: expected one of"),
        (("tiles", 1, "rotation"), 6, r"tiles\[1\].rotation: must be 0..5"),
        (("tiles", 0, "tile"), "999", r"tiles\[0\].tile: '999'"),
        (("tiles", 0, "hex"), "Z99", r"tiles\[0\].hex"),
        (("tiles", 0, "tile"), "7", r"tiles\[0\].tile: does not fit I27"),
        (("tiles", 1, "hex"), "I27", r"tiles\[1\].hex: I27 is listed twice"),
        (("bases", 0, "station"), "NE", r"bases\[0\].station"),
        (("bases", 0, "company"), "XYZ", r"bases\[0\].company: unknown company"),
        (("bases", 3, "hex"), "K19", r"bases\[3\].hex: K19 has no tile"),
        (("companies", 0, "cash"), -5, r"companies\[0\].cash: must be at least 0"),
        (("companies", 0, "trains"), ["9"], r"companies\[0\].trains\[0\]"),
        (("companies", 1, "type"), "minor", r"companies\[1\].type"),
        (("companies", 0, "double_lay"), "maybe", r"companies\[0\].double_lay"),
    ],
)
def test_bad_fields_are_named(path: tuple[Any, ...], value: Any, message: str) -> None:
    data = _early()
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(PositionError, match=message):
        load_position(data)


def test_a_station_needs_naming_where_a_hex_has_several() -> None:
    data = _early()
    del data["bases"][0]["station"]
    with pytest.raises(PositionError, match=r"bases\[0\].station: J28 has 3 large stations"):
        load_position(data)


def test_two_bases_of_one_company_on_one_hex_are_refused() -> None:
    data = _early()
    data["bases"].append({"company": "EIR", "hex": "J28", "station": "E"})
    with pytest.raises(PositionError, match=r"4\.4\.5"):
        load_position(data)


def test_a_full_station_is_refused() -> None:
    data = _early()
    data["bases"].append({"company": "GIP", "hex": "J28", "station": "NW"})
    with pytest.raises(PositionError, match="no free slot"):
        load_position(data)


def test_missing_or_bad_file(tmp_path: Path) -> None:
    with pytest.raises(PositionError, match="position file"):
        load_position(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(PositionError, match="not JSON"):
        load_position(bad)
