"""``india1853 routes``: the optimal run and --check, through the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from india1853.interfaces.cli import main

POSITION = {
    "edition": "second", "phase": 3,
    "tiles": [{"hex": "H10", "tile": "14", "rotation": 0}, {"hex": "H12", "tile": "9",
              "rotation": 1}, {"hex": "H14", "tile": "9", "rotation": 1},
              {"hex": "H16", "tile": "1", "rotation": 0}],
    "bases": [{"company": "EIR", "hex": "H10"}],
    "companies": [{"company": "EIR", "trains": ["2", "3"], "trains_bought_this_turn": ["3"]}],
}


def _write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_best_run_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pos = _write(tmp_path, "pos.json", POSITION)
    assert main(["routes", pos, "--company", "EIR", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["certificate"]["optimal"] is True
    # Only the '2' runs (the '3' was bought this turn, 4.5.1): Ajmer 30 + town 10, mail 40.
    assert [r["train"] for r in doc["routes"]] == ["2"]
    assert doc["total"] == doc["certificate"]["upper_bound"] == 80
    checked = _write(tmp_path, "routes.json", {"company": "EIR", "routes": doc["routes"]})
    assert main(["routes", pos, "--company", "EIR", "--check", checked]) == 0
    assert "total 80" in capsys.readouterr().out


def test_check_reports_rule_and_hex(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pos = _write(tmp_path, "pos.json", POSITION)
    bad = _write(tmp_path, "r.json", {"company": "EIR", "routes": [
        {"train": "3", "hexes": ["H10", "H12", "H14", "H16:st1"]}]})
    assert main(["routes", pos, "--company", "EIR", "--check", bad]) == 2
    assert "rule 4.5.1" in capsys.readouterr().err


def test_bad_hexes_name_their_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A bad coordinate in the position's run duties or in a route file is one line naming the
    # field it came from, not just the coordinate.
    company = {**POSITION["companies"][0], "run_duties": ["H12", "ZZ9"]}  # type: ignore[index]
    pos = _write(tmp_path, "pos.json", {**POSITION, "companies": [company]})
    assert main(["routes", pos, "--company", "EIR"]) == 2
    assert "companies.EIR.run_duties[1]: bad coordinate 'ZZ9'" in capsys.readouterr().err
    pos = _write(tmp_path, "pos2.json", POSITION)
    bad = _write(tmp_path, "r.json", {"company": "EIR", "routes": [
        {"train": "2", "hexes": ["H10", "H12", "Q99:st1"]}]})
    assert main(["routes", pos, "--company", "EIR", "--check", bad]) == 2
    assert "routes[0].hexes[2]: bad coordinate 'Q99'" in capsys.readouterr().err
