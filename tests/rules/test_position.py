"""Position files (docs/positions.md): loading, defaults, writing back, and errors."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from india1853.board.state import Base, PlacedTile
from india1853.errors import RuleError
from india1853.rules.construction import (
    ConstructionPolicy,
    PlaceBase,
    base_cost,
    check_base,
    lays_allowed,
)
from india1853.rules.position import (
    PositionError,
    context_from_position,
    load_position,
    position_to_dict,
)

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
        (("tiles", 0, "tile"), "7", r"tiles\[0\].tile: tile 7 does not fit I27"),
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


# --- the BBCI's type and its additional bases (2.6.2, 4.4.4 / 32.3) ---------------------------


def _bbci(station: str, **company: Any) -> dict[str, Any]:
    """The BBCI with its Ajmer home (no tile yet) and a base on one of Bombay's stations."""
    return {"edition": "second", "phase": 3, "tiles": [],
            "bases": [{"company": "BBCI", "hex": "H10"},
                      {"company": "BBCI", "hex": "Mi", "station": station}],
            "companies": [{"company": "BBCI", "cash": 300, **company}]}


def test_a_bbci_on_north_bombay_is_a_major_with_no_additional_base() -> None:
    bbci = load_position(_bbci("NE")).company("BBCI")  # north Bombay: its conditional home
    assert (bbci.type, bbci.bases_placed) == ("major", 0)


def test_a_bbci_on_south_bombay_is_a_minor_with_one_additional_base() -> None:
    # South Bombay is the GIP's home: for the BBCI an ordinary base, bought (4.4.4).
    pos = load_position(_bbci("SE"))
    bbci = pos.company("BBCI")
    assert (bbci.type, bbci.bases_placed) == ("minor", 1)
    ctx = context_from_position(pos, "BBCI")
    assert base_cost(pos.board, ctx) == 100
    assert lays_allowed(ConstructionPolicy.of(pos.edition), replace(ctx, double_lay="paid")) == 1


def test_a_bbci_declared_minor_on_north_bombay_bought_that_base() -> None:
    bbci = load_position(_bbci("NE", type="minor")).company("BBCI")
    assert (bbci.type, bbci.bases_placed) == ("minor", 1)


# --- running companies (4.4.7 / 32.6) ---------------------------------------------------------


def _ecr_next_to_calcutta(companies: list[dict[str, Any]]) -> dict[str, Any]:
    """The ECR at Patna with track to Calcutta's SW station (the BNR's home); a BNR base on
    its other home, Cuttack (K17)."""
    return {"edition": "second", "phase": 3,
            "tiles": [{"hex": "H24", "tile": "5", "rotation": 3},
                      {"hex": "I25", "tile": "9", "rotation": 2},
                      {"hex": "J26", "tile": "4", "rotation": 2},
                      {"hex": "K27", "tile": "7", "rotation": 5},
                      {"hex": "K17", "tile": "5", "rotation": 0}],
            "bases": [{"company": "ECR", "hex": "H24"}, {"company": "BNR", "hex": "K17"}],
            "companies": companies}


def test_a_company_with_bases_on_the_board_is_running_even_unlisted() -> None:
    pos = load_position(_ecr_next_to_calcutta([{"company": "ECR", "cash": 300}]))
    assert pos.running() == {"ECR", "BNR"}
    ctx = context_from_position(pos, "ECR")
    sw = pos.board.station_by_side("J28", "SW")
    # Legal; £100, as Patna (not a home of the ECR) was its first additional base.
    assert check_base(pos.board, ctx, PlaceBase("J28", sw)).cost == 100


def test_a_company_without_bases_is_running_only_when_listed() -> None:
    data = _ecr_next_to_calcutta([{"company": "ECR", "cash": 300}])
    data["bases"] = data["bases"][:1]
    pos = load_position(data)
    assert pos.running() == {"ECR"}
    sw = pos.board.station_by_side("J28", "SW")
    with pytest.raises(RuleError, match=r"4\.4\.7 / 32\.6"):
        check_base(pos.board, context_from_position(pos, "ECR"), PlaceBase("J28", sw))


def test_a_company_with_bases_cannot_be_listed_as_not_running() -> None:
    data = _ecr_next_to_calcutta([{"company": "ECR"}, {"company": "BNR", "running": False}])
    with pytest.raises(PositionError, match=r"companies\[1\]\.running: BNR has bases"):
        load_position(data)


# --- impossible boards ------------------------------------------------------------------------


def _board(tiles: list[dict[str, Any]], bases: list[dict[str, Any]] | None = None,
           edition: str = "second") -> dict[str, Any]:
    return {"edition": edition, "phase": 3, "tiles": tiles, "bases": bases or [],
            "companies": []}


@pytest.mark.parametrize("edition", ["first", "second"])
def test_a_yellow_city_tile_does_not_fit_a_town(edition: str) -> None:
    # I27 is a town: yellow tile 4 fits (4.1.9 / 31.7), yellow city tile 5 does not.
    load_position(_board([{"hex": "I27", "tile": "4", "rotation": 5}], edition=edition))
    with pytest.raises(PositionError, match=r"tiles\[0\]\.tile: tile 5 does not fit I27, a "
                                            r"town hex \(rule 4\.1\.9 / 31\.7\)"):
        load_position(_board([{"hex": "I27", "tile": "5", "rotation": 5}], edition=edition))


@pytest.mark.parametrize("edition", ["first", "second"])
def test_a_town_carries_a_large_station_only_by_promotion(edition: str) -> None:
    # Green 14 follows yellow town tiles on the chart (4.2.5 / 31.15); green 13 does not.
    load_position(_board([{"hex": "I27", "tile": "14", "rotation": 1}], edition=edition))
    with pytest.raises(PositionError, match=r"tiles\[0\]\.tile: tile 13 does not fit I27"):
        load_position(_board([{"hex": "I27", "tile": "13", "rotation": 0}], edition=edition))


def test_only_the_reserved_tiles_fit_a_large_city() -> None:
    load_position(_board([{"hex": "J28", "tile": "500", "rotation": 0}]))
    with pytest.raises(PositionError, match=r"tiles\[0\]\.tile: tile 14 does not fit J28, a "
                                            "large_city hex"):
        load_position(_board([{"hex": "J28", "tile": "14", "rotation": 0}]))


@pytest.mark.parametrize("edition", ["first", "second"])
def test_no_track_off_the_grid(edition: str) -> None:
    # B12 on the top edge: tile 7 at rotation 0 runs to the NE, off the grid (4.1.10 / 31.8).
    load_position(_board([{"hex": "B12", "tile": "7", "rotation": 2}], edition=edition))
    with pytest.raises(PositionError, match=r"tiles\[0\]\.rotation: tile 7 at rotation 0 on "
                                            r"B12 runs off the grid .*4\.1\.10 / 31\.8"):
        load_position(_board([{"hex": "B12", "tile": "7", "rotation": 0}], edition=edition))


def test_no_more_bases_than_base_tokens() -> None:
    # TABLE 7: the ECR has three base tokens.
    cities = ["H24", "H20", "C11", "K17"]
    tiles = [{"hex": h, "tile": "5", "rotation": 0} for h in cities]
    bases = [{"company": "ECR", "hex": h} for h in ["O21", *cities]]
    load_position(_board(tiles, bases[:3]))
    with pytest.raises(PositionError, match=r"bases\[3\]\.company: ECR has only 3 base tokens"):
        load_position(_board(tiles, bases))


def _doc_examples() -> list[Any]:
    """The JSON position examples in docs/positions.md."""
    text = (Path(__file__).parents[2] / "docs" / "positions.md").read_text()
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    return [json.loads(b) for b in blocks if '"edition"' in b]


SHIPPED = sorted([*POSITIONS.glob("*.json"),
                  *(Path(__file__).parents[2] / "bench" / "positions").glob("*.json")])


@pytest.mark.parametrize("source", [*SHIPPED, *_doc_examples()],
                         ids=[*(p.name for p in SHIPPED), *("docs" for _ in _doc_examples())])
def test_every_shipped_position_is_a_possible_board(source: Any) -> None:
    load_position(source)
