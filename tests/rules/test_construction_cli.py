"""The ``moves`` command: listing and checking a company's construction moves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from india1853.interfaces.cli import main

EARLY = str(Path(__file__).parent.parent / "positions" / "second_early.json")


def test_lists_lays_promotions_and_bases(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", EARLY, "--company", "EIR"]) == 0
    out = capsys.readouterr().out
    assert "Lays (5):" in out and "lay tile 7 on I25 at rotation 5  £0" in out


def test_json_listing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", EARLY, "--company", "EIR", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["company"] == "EIR" and doc["promotions"] == [] and doc["bases"] == []
    assert {"type": "lay", "hex": "I25", "tile": "9", "rotation": 2, "cost": 0,
            "duty": None} in doc["lays"]


def test_check_says_legal_or_the_rule_broken(capsys: pytest.CaptureFixture[str]) -> None:
    legal = '{"lay": {"hex": "I25", "tile": "9", "rotation": 2}}'
    assert main(["moves", EARLY, "--company", "EIR", "--check", legal]) == 0
    assert capsys.readouterr().out.startswith("legal: lay tile 9 on I25")
    illegal = '{"lay": {"hex": "I25", "tile": "7", "rotation": 1}}'
    assert main(["moves", EARLY, "--company", "EIR", "--check", illegal]) == 1
    assert "rule 4.1.6 / 31.4" in capsys.readouterr().out


def test_check_a_base_by_side_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    move = '{"base": {"hex": "J28", "station": "E"}}'
    assert main(["moves", EARLY, "--company", "BNR", "--check", move, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["legal"] is False and doc["rule"] == "4.4.5 / 32.4"


def test_check_a_second_lay(capsys: pytest.CaptureFixture[str]) -> None:
    first = '[{"hex": "I25", "tile": "9", "rotation": 2}]'
    second = '{"lay": {"hex": "I23", "tile": "4", "rotation": 0}}'
    code = main(["moves", EARLY, "--company", "EIR", "--lays-done", first, "--check", second])
    assert code == 1
    assert "4.1.6" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--check", "{"], "--check: not JSON"),
        (["--check", '{"fly": {}}'], "unknown move 'fly'"),
        (["--check", '{"lay": {"hex": "I25"}}'], "--check.lay.tile: missing"),
        (["--lays-done", "{}"], "--lays-done: expected a JSON list"),
    ],
)
def test_bad_input_is_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["moves", EARLY, "--company", "EIR", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_unknown_company(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", EARLY, "--company", "XYZ"]) == 2
    assert "unknown company" in capsys.readouterr().err
