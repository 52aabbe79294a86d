"""The loader rejects corrupted data files with one-line errors naming file and field."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from india1853.data.loader import DATA_DIR, load_edition, load_edition_from
from india1853.errors import DataError

Json = Any


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return target


def _edit(root: Path, rel: str, change: Callable[[Json], None]) -> None:
    path = root / rel
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_an_unchanged_copy_loads_like_the_package_data(data_copy: Path) -> None:
    for name in ("first", "second"):
        copy, package = load_edition_from(data_copy, name), load_edition(name)
        assert copy.board == package.board
        assert copy.tiles == package.tiles
        assert copy.companies == package.companies
        assert copy.trains == package.trains


def _set(path: list[str | int], value: Json) -> Callable[[Json], None]:
    def change(data: Json) -> None:
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value

    return change


def _delete(path: list[str | int]) -> Callable[[Json], None]:
    def change(data: Json) -> None:
        for key in path[:-1]:
            data = data[key]
        del data[path[-1]]

    return change


CORRUPTIONS: list[tuple[str, Callable[[Json], None], str]] = [
    ("second/board.json", _set(["hexes", 0, "kind"], "castle"), r"hexes\[0\]\.kind.*castle"),
    ("second/board.json", _set(["hexes", 0, "colour"], "red"), r"\[0\].*unknown field 'colour'"),
    ("second/board.json", _delete(["hexes", 0, "coord"]), r"hexes\[0\].*missing field 'coord'"),
    ("second/board.json", _set(["hexes", 0, "coord"], "J29"), r"hexes\[0\]\.coord.*J29"),
    ("second/board.json", _set(["hexes", 0, "frontier_post"], "100"), r"frontier_post.*integer"),
    ("second/board.json", _set(["hexes", 1, "coord"], "B8"), r"duplicate hex B8"),
    ("first/companies.json", _set(["companies", 0, "homes", 0, "station"], "st9"), r"st9"),
    ("first/companies.json", _set(["companies", 0, "homes", 1, "hex"], "B12"), r"B12 is not"),
    ("first/companies.json", _set(["companies", 1, "number"], 7), r"TABLE 1 order"),
    ("first/companies.json", _set(["companies", 2, "type"], "huge"), r"companies\[2\]\.type"),
    ("first/companies.json", _set(["companies", 0, "par"], 101), r"EIR\.par.*101"),
    ("second/tiles.json", _set(["manifest", "9999"], 2), r"manifest\.9999.*unknown tile"),
    ("second/tiles.json", _set(["promotions", "9"], ["82", "9998"]), r"promotions\.9.*'9998'"),
    ("tiles.json", _set(["tiles", "7", "paths", 0, 2], "narrow"), r"tiles\.7\.paths\[0\].*narrow"),
    ("tiles.json", _set(["tiles", "5", "paths", 0, 0], "st7"), r"tiles\.5\.paths\[0\].*st7"),
    ("tiles.json", _set(["tiles", "5", "colour"], "blue"), r"tiles\.5\.colour"),
    ("second/trains.json", _set(["phases", 2, "trains_available", 0], "9"), r"phases\[2\].*'9'"),
    ("second/trains.json", _set(["trains", 0, "price"], True), r"trains\[0\]\.price"),
    ("second/cities.json", _set(["cities", 0, "hex"], "C11"), r"cities\[0\]\.hex"),
    ("second/market.json", _set(["values", 3], 5), r"values.*increasing"),
    ("second/rules.json", _set(["costs", "terrain", "bog"], {}), "terrain: expected"),
    ("second/rules.json", _delete(["tables", "players", 3]), r"3, 4, 5 and 6 players"),
    ("second/rules.json", _set(["rules", "bid_bond"], "maybe"), r"rules\.bid_bond"),
    (
        "second/rules.json",
        _set(["tables", "players", 0, "starting_notes", "100"], 5),
        r"starting_notes.*add up",
    ),
    # The "derived" marker: every path selects a value and gives a reason; reconstructed tiles
    # and hexes noted as a choice between the sources must be marked.
    (
        "second/companies.json",
        _set(["derived", "companies[initials=XYZ].colour"], "a guess"),
        r"derived\.companies\[initials=XYZ\]\.colour: the path selects no value",
    ),
    ("first/rules.json", _set(["derived", "rules.nonesuch"], "why"), r"rules\.nonesuch: the path"),
    ("first/rules.json", _set(["derived", "rules[x]"], "why"), r"rules\[x\]: bad path"),
    ("second/rules.json", _set(["derived", "rules.areas_relaxed_phase"], " "),
     r"areas_relaxed_phase: expected a reason"),
    ("tiles.json", _delete(["derived", "tiles.716"]), r"^tiles\.json: derived: tiles\.716 is "
     r"reconstructed but not marked$"),
    ("first/board.json", _delete(["derived", "hexes[coord=G19].name"]),
     r"hexes\[coord=G19\] is reconstructed but not marked"),
    ("first/companies.json", _set(["companies", 4, "homes", 1, "variant"], 3),
     r"homes\[1\]\.variant: expected a string"),
    # Read from the model's types: a train runs on broad or metre gauge, never dual; a field
    # the model requires of files although it has a default; a fixed-length pair.
    ("second/trains.json", _set(["trains", 0, "gauge"], "dual"),
     r"trains\[0\]\.gauge: expected one of broad, metre, got 'dual'"),
    ("tiles.json", _delete(["tiles", "5", "provenance"]), r"tiles\.5: missing field 'provenance'"),
    ("tiles.json", _set(["tiles", "5", "provenance"], None), r"tiles\.5\.provenance: expected a"),
    ("second/rules.json", _set(["tables", "players", 0, "bid_cities"], [1]),
     r"players\[0\]\.bid_cities: expected a list of 2"),
    ("second/market.json", _set(["movement", "dividend_steps", 0], [1, "up"]),
     r"movement\.dividend_steps\[0\]\[1\]: expected an integer"),
]


@pytest.mark.parametrize(("rel", "change", "pattern"), CORRUPTIONS)
def test_corrupted_file_is_rejected_naming_file_and_field(
    data_copy: Path, rel: str, change: Callable[[Json], None], pattern: str
) -> None:
    _edit(data_copy, rel, change)
    edition = "first" if rel.startswith("first/") else "second"
    with pytest.raises(DataError, match=pattern) as info:
        load_edition_from(data_copy, edition)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(rel + ":")


def test_invalid_json_names_the_line(data_copy: Path) -> None:
    (data_copy / "first" / "market.json").write_text('{"values": [10,\n20,,]}', encoding="utf-8")
    with pytest.raises(DataError, match=r"^first/market\.json: invalid JSON at line 2"):
        load_edition_from(data_copy, "first")


def test_missing_file(data_copy: Path) -> None:
    (data_copy / "second" / "trains.json").unlink()
    with pytest.raises(DataError, match=r"^second/trains\.json: cannot read file"):
        load_edition_from(data_copy, "second")


def test_unknown_edition_from_directory(data_copy: Path) -> None:
    with pytest.raises(DataError, match="unknown edition 'third'"):
        load_edition_from(data_copy, "third")
